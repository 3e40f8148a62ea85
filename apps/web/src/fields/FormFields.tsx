// Renders declared fields in a 12-column grid, each bound to react-hook-form.
import { Grid } from '@mui/material';
import { type ComponentType, type RefObject, useEffect, useRef } from 'react';
import { Controller, type UseFormReturn, useWatch } from 'react-hook-form';
import { DatesProvider } from './DatesProvider';
import {
  ButtonGroupInput,
  CheckboxListInput,
  ChipInput,
  ColorInput,
  RadioInput,
  RatingInput,
  SwitchInput,
} from './inputs/ChoiceInputs';
import { DateInput, DateRangeInput } from './inputs/DateInputs';
import { AccordionListInput, SortableListInput, TreeInput } from './inputs/ListInputs';
import { LocationPicker } from './inputs/LocationPicker';
import type { InputProps } from './inputs/props';
import { SelectInput } from './inputs/SelectInput';
import { DisplayField, FileInput, LabelInput } from './inputs/StaticInputs';
import { NumberInput, PhoneInput, TextareaInput, TextInput } from './inputs/TextInputs';
import { fieldRules } from './rules';
import type { FieldDef, FieldType } from './types';
import { DISPLAY_TYPES } from './types';

export const INPUTS: Record<
  Exclude<FieldType, 'divider' | 'subheader' | 'alert' | 'spacer' | 'button'>,
  ComponentType<InputProps>
> = {
  text: TextInput,
  password: TextInput,
  email: TextInput,
  number: NumberInput,
  percent: NumberInput,
  price: NumberInput,
  phone: PhoneInput,
  date: DateInput,
  daterange: DateRangeInput,
  select: SelectInput,
  textarea: TextareaInput,
  switch: SwitchInput,
  radio: RadioInput,
  checkboxlist: CheckboxListInput,
  sortable: SortableListInput,
  buttongroup: ButtonGroupInput,
  tree: TreeInput,
  label: LabelInput,
  chip: ChipInput,
  file: FileInput,
  accordion: AccordionListInput,
  rating: RatingInput,
  color: ColorInput,
  location: LocationPicker,
};

const SHORT: FieldType[] = [
  'text',
  'email',
  'number',
  'percent',
  'price',
  'phone',
  'date',
  'select',
  'password',
  'color',
  'label',
];

function widthOf(f: FieldDef): number {
  return f.cols ?? (SHORT.includes(f.type) ? 6 : 12);
}

/** A location picker that writes department, province and district into three form fields. */
function SplitLocation({ field, form }: { field: FieldDef; form: UseFormReturn<any> }) {
  const names = field.locationFields!;
  const [department_id, province_id, district_id] = useWatch({
    control: form.control,
    name: [names.department, names.province, names.district],
  });
  const error = form.formState.errors[names.district]?.message as string | undefined;
  return (
    <LocationPicker
      field={{ ...field, emit: 'object' }}
      value={{
        department_id: department_id ?? null,
        province_id: province_id ?? null,
        district_id: district_id ?? null,
      }}
      error={error}
      onChange={(v) => {
        const loc = v as {
          department_id: number | null;
          province_id: number | null;
          district_id: number | null;
        };
        const opts = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
        form.setValue(names.department, loc.department_id, opts);
        form.setValue(names.province, loc.province_id, opts);
        form.setValue(names.district, loc.district_id, opts);
      }}
    />
  );
}

interface FormFieldProps {
  field: FieldDef;
  form: UseFormReturn<any>;
  useRules?: boolean;
  /** Every field of the form (to clear the selects that depend on this one). */
  siblings?: FieldDef[];
}

export function FormField({ field, form, useRules, siblings = [] }: FormFieldProps) {
  const values = useWatch({ control: form.control }) as Record<string, unknown>;
  // A value the form opens with (a dealer chosen in the toolbar) brings its followers too.
  const opening = useRef(values[field.name]);
  useEffect(() => {
    const v = opening.current;
    if (!field.fills || v === null || v === undefined || v === '') return;
    let live = true;
    void field.fills(v).then((set) => {
      for (const [name, value] of Object.entries(set ?? {}))
        if (live && form.getValues(name) !== value) form.setValue(name, value, { shouldValidate: true });
    });
    return () => {
      live = false;
    };
  }, [field, form]);
  if (DISPLAY_TYPES.includes(field.type)) return <DisplayField field={field} />;
  if (field.type === 'location' && field.locationFields) return <SplitLocation field={field} form={form} />;
  const Input = INPUTS[field.type as keyof typeof INPUTS];
  return (
    <Controller
      name={field.name}
      control={form.control}
      rules={useRules ? fieldRules(field) : undefined}
      render={({ field: f, fieldState }) => (
        <Input
          field={field}
          value={f.value}
          onChange={(v) => {
            f.onChange(v);
            // dependent selects: a new parent value clears the children
            for (const d of siblings) if (d.dependsOn?.field === field.name) form.setValue(d.name, null);
            // followers: the values that come with this one (an agreement's zone with its dealer)
            void field.fills?.(v).then((set) => {
              for (const [name, value] of Object.entries(set ?? {}))
                form.setValue(name, value, { shouldDirty: true, shouldValidate: true });
            });
          }}
          onBlur={f.onBlur}
          inputRef={f.ref}
          error={fieldState.error?.message}
          values={values}
        />
      )}
    />
  );
}

interface FormFieldsProps {
  fields: FieldDef[];
  form: UseFormReturn<any>;
  /** Validate with the fields' own rules (forms without a zod schema). */
  useRules?: boolean;
  /** Focus the first editable field after the initial setup delay (default true). */
  autoFocus?: boolean;
}

/** SPEC §4: the form builder's initial setup runs 200 ms after it opens (the location picker's, 100 ms). */
export const FORM_SETUP_DELAY_MS = 200;

const FOCUSABLE =
  'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([disabled]):not([readonly]), textarea:not([disabled]):not([readonly])';

/**
 * The delayed setup: the first editable field takes the focus, unless the user is already in a
 * field of the form (the values themselves are set at once by the caller, so nothing typed is lost).
 */
function useInitialSetup(box: RefObject<HTMLDivElement | null>, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    const t = setTimeout(() => {
      const el = box.current;
      if (!el || el.contains(document.activeElement)) return;
      el.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    }, FORM_SETUP_DELAY_MS);
    return () => clearTimeout(t);
  }, [box, enabled]);
}

export function FormFields({ fields, form, useRules, autoFocus = true }: FormFieldsProps) {
  const box = useRef<HTMLDivElement>(null);
  useInitialSetup(box, autoFocus);
  return (
    <DatesProvider>
      <Grid ref={box} container columnSpacing={2} rowSpacing={0.5}>
        {fields.map((f) => (
          <Grid key={f.name} size={{ xs: 12, sm: widthOf(f) }}>
            <FormField field={f} form={form} useRules={useRules} siblings={fields} />
          </Grid>
        ))}
      </Grid>
    </DatesProvider>
  );
}
