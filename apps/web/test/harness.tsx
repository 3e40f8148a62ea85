// Renders declared fields in a real react-hook-form, as a form of the product would.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { FormFields } from '../src/fields/FormFields';
import type { FieldDef } from '../src/fields/types';

export function renderFields(fields: FieldDef[], values: Record<string, unknown> = {}) {
  const submitted: Record<string, unknown>[] = [];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  function Harness() {
    const form = useForm<Record<string, unknown>>({ defaultValues: values });
    return (
      <QueryClientProvider client={client}>
        <form noValidate onSubmit={form.handleSubmit((v) => void submitted.push(v))}>
          <FormFields fields={fields} form={form} useRules />
          <button type="submit">Guardar</button>
        </form>
      </QueryClientProvider>
    );
  }
  const view = render(<Harness />);
  return { ...view, submitted, last: () => submitted[submitted.length - 1] };
}
