// The dialog form (700px) of a resource: creates (id 0) or updates, validates with the shared zod
// schema, shows 'Guardado Correctamente' and puts the server's validation errors on their fields.
import { LIMITS, messages, resourceCalls } from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { type FieldValues, type Resolver, useForm } from 'react-hook-form';
import { useHotkeys } from 'react-hotkeys-hook';
import { FormFields } from '../fields/FormFields';
import { initialValues, isNewRecord } from '../fields/rules';
import type { FieldDef } from '../fields/types';
import { call, HttpError } from '../lib/http';
import { ConfirmDialog } from './ConfirmDialog';
import type { ResourceScreenDef } from './types';

const HOTKEYS = { enableOnFormTags: true, preventDefault: true } as const;

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
/** Field kinds whose value is not under their own name (a location writes three) or none at all. */
const NOT_INPUTS = ['location', 'divider', 'switch'];

/** '' means "not given" for optional inputs (e.g. a password left blank on update). */
function clean(values: Record<string, unknown>, fields: FieldDef[]): Record<string, unknown> {
  const out = { ...values };
  for (const f of fields)
    if (f.type === 'password' && (out[f.name] === '' || out[f.name] === null)) delete out[f.name];
  return out;
}

interface Props {
  def: ResourceScreenDef;
  /** null = closed; {} or {id: 0} = new; a record = edit. */
  record: Record<string, any> | null;
  defaults?: Record<string, unknown>;
  onClose: () => void;
  onSaved: () => void;
}

export function ResourceForm({ def, record, defaults, onClose, onSaved }: Props) {
  const open = record !== null;
  const isNew = isNewRecord(record);
  const fields = useMemo(() => def.form.filter((f) => !f.onlyNew || isNew), [def.form, isNew]);
  const schema = def.contract.schema;
  const resolver = useMemo<Resolver<FieldValues>>(() => {
    const zr = zodResolver(schema as any) as Resolver<FieldValues>;
    return async (values, ctx, opts) => {
      const result = await zr(clean(values, fields), ctx, opts);
      // A field the screen marks required where the record's rule is optional (a new user's
      // password, optional on update): empty says '{field} es obligatorio' here, not on the server.
      const missing = fields.filter(
        (f) =>
          f.required && !NOT_INPUTS.includes(f.type) && isEmpty(values[f.name]) && !result.errors[f.name],
      );
      if (!missing.length) return result;
      const errors = { ...result.errors };
      for (const f of missing)
        errors[f.name] = { type: 'required', message: messages.required(f.label ?? f.name) };
      return { values: {}, errors };
    };
  }, [schema, fields]);
  const form = useForm<FieldValues>({ resolver, mode: 'onSubmit', reValidateMode: 'onChange' });

  // A copy of the edited entity; defaults only for a new record (SPEC §4). Reset on close.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening resets the form
  useEffect(() => {
    if (!open) return;
    const base = isNew
      ? { active: 'active' in schema.shape ? true : undefined, ...defaults, ...record }
      : record;
    form.reset(initialValues(fields, def.toForm ? def.toForm(base ?? {}) : base));
  }, [open, record]);

  const save = useMutation({
    mutationFn: (values: Record<string, unknown>) => {
      const body = def.toBody ? def.toBody(values, isNew) : values;
      const calls = resourceCalls(def.contract);
      // Validation errors and duplicates show on their fields, not also as a toast.
      const o = { fieldErrors: true };
      return isNew
        ? call(calls.create, { body }, o)
        : call(calls.update, { params: { id: record!.id }, body }, o);
    },
    onSuccess: () => {
      enqueueSnackbar(messages.saved, { variant: 'success' });
      onSaved();
      onClose();
      form.reset({});
    },
    onError: (err) => {
      if (!(err instanceof HttpError)) return;
      const shown = new Set(fields.filter((f) => !NOT_INPUTS.includes(f.type)).map((f) => f.name));
      // A location picker shows the error of its district.
      for (const f of fields) if (f.locationFields) shown.add(f.locationFields.district);
      const elsewhere: string[] = [];
      for (const v of err.validationErrors) {
        const name = v.field.split('.')[0];
        if (shown.has(name))
          form.setError(name, { type: 'server', message: v.message }, { shouldFocus: true });
        else elsewhere.push(v.message);
      }
      // A duplicate (409 'El valor de Nombre ya existe') names the field by its label.
      if (err.status === 409 && !err.validationErrors.length) {
        const hit = fields
          .filter((f) => f.label && shown.has(f.name) && err.message.includes(f.label))
          .sort((x, y) => (y.label?.length ?? 0) - (x.label?.length ?? 0))[0];
        if (hit) form.setError(hit.name, { type: 'server', message: err.message }, { shouldFocus: true });
        else elsewhere.push(err.message);
      }
      // What no field of the dialog shows is said once, as a toast.
      if (elsewhere.length)
        enqueueSnackbar(elsewhere.join('\n'), { variant: 'error', style: { whiteSpace: 'pre-line' } });
    },
  });

  const submit = form.handleSubmit((values) => save.mutate(values));
  const [askUnsaved, setAskUnsaved] = useState(false);
  const close = () => {
    setAskUnsaved(false);
    form.reset({});
    onClose();
  };
  const cancel = () => {
    if (def.confirmUnsaved && form.formState.isDirty) setAskUnsaved(true);
    else close();
  };
  useHotkeys('alt+g', () => open && void submit(), { ...HOTKEYS, enabled: open }, [open, submit]);
  useHotkeys('alt+c', () => open && cancel(), { ...HOTKEYS, enabled: open }, [open]);

  return (
    <Dialog
      open={open}
      onClose={(_, reason) => reason !== 'backdropClick' && cancel()}
      slotProps={{
        paper: {
          sx: { width: def.dialogWidth ?? LIMITS.dialogWidth, maxWidth: '95vw' },
          'aria-label': 'formulario',
        } as any,
      }}
    >
      {/* A column that fills a full-screen dialog (phones): the buttons stay at the bottom. */}
      <form
        onSubmit={submit}
        noValidate
        style={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0 }}
      >
        <DialogTitle>
          {isNew ? 'Nuevo' : 'Editar'}: {def.contract.title}
        </DialogTitle>
        {save.isPending && <LinearProgress />}
        <DialogContent dividers>
          <FormFields fields={fields} form={form} />
        </DialogContent>
        <DialogActions>
          <Button onClick={cancel} disabled={save.isPending}>
            Cancelar
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Guardar
          </Button>
        </DialogActions>
      </form>
      <ConfirmDialog
        open={askUnsaved}
        title="Cambios sin guardar"
        onNo={() => setAskUnsaved(false)}
        onYes={close}
      >
        Hay cambios sin guardar. ¿Desea cerrar el formulario?
      </ConfirmDialog>
    </Dialog>
  );
}
