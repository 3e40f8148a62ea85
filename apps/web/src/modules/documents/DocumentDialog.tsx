// The manufacturer's dialog of a document: the contract's fields (title, category, description,
// dates, audience) and its files, uploaded one by one to POST /api/documents/upload as they are
// chosen (the server checks each by its content and size); saving sends the file ids.
import {
  DOCUMENT_UPLOAD,
  type DocumentFile,
  type DocumentRow,
  documentCalls,
  documentContract,
  LIMITS,
  messages,
  resourceCalls,
} from '@app/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { type FieldValues, type Resolver, useForm, useWatch } from 'react-hook-form';
import { FormFields } from '../../fields/FormFields';
import { initialValues } from '../../fields/rules';
import { call, HttpError } from '../../lib/http';
import { pickFields } from '../../resources/fromContract';
import { size } from './format';

const BASE_FIELDS = pickFields(documentContract, [
  'title',
  { name: 'category_id', cols: 6 },
  { name: 'active', cols: 6, default: true },
  { name: 'description', rows: 3 },
  { name: 'published_at', cols: 6, default: 'today' },
  { name: 'expires_at', cols: 6, helperText: 'Vacío: no vence' },
  { name: 'all_dealers', type: 'switch', default: true },
]);
const DEALERS_FIELD = pickFields(documentContract, [
  {
    name: 'dealer_ids',
    type: 'select',
    cols: 12,
    multiple: true,
    chips: true,
    resource: 'dealers',
    label: 'Concesionarios que lo verán',
  },
]);

interface Props {
  /** null: closed; {}: new; a row: edit. */
  record: Partial<DocumentRow> | null;
  onClose: () => void;
  onSaved: () => void;
}

export function DocumentDialog({ record, onClose, onSaved }: Props) {
  const open = record !== null;
  const isNew = !record?.id;
  const resolver = useMemo(() => zodResolver(documentContract.schema as any) as Resolver<FieldValues>, []);
  const form = useForm<FieldValues>({ resolver, mode: 'onSubmit', reValidateMode: 'onChange' });
  const allDealers = useWatch({ control: form.control, name: 'all_dealers' });
  const [files, setFiles] = useState<DocumentFile[]>([]);
  const [uploading, setUploading] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening resets the form
  useEffect(() => {
    if (!open) return;
    form.reset(initialValues([...BASE_FIELDS, ...DEALERS_FIELD], record));
    setFiles(record?.files ?? []);
    setFileError(null);
  }, [open, record]);

  const fields = allDealers === false ? [...BASE_FIELDS, ...DEALERS_FIELD] : BASE_FIELDS;

  const upload = async (chosen: File[]) => {
    setFileError(null);
    for (const file of chosen) {
      if (file.size > DOCUMENT_UPLOAD.maxBytes) {
        setFileError(`${file.name}: ${DOCUMENT_UPLOAD.messages.tooLarge}`);
        continue;
      }
      setUploading(file.name);
      const body = new FormData();
      body.append(DOCUMENT_UPLOAD.field, file);
      try {
        const saved = await call(documentCalls.upload, { body }, { silent: true });
        setFiles((list) => [...list, saved]);
      } catch (e) {
        setFileError(`${file.name}: ${e instanceof HttpError ? e.message : String(e)}`);
      } finally {
        setUploading(null);
      }
    }
  };

  const submit = form.handleSubmit(async (values) => {
    if (!files.length) {
      setFileError('Adjunte al menos un archivo');
      return;
    }
    const body = {
      ...values,
      dealer_ids: values.all_dealers === false ? (values.dealer_ids ?? []) : [],
      file_ids: files.map((f) => f.id),
    };
    setSaving(true);
    try {
      const calls = resourceCalls(documentContract);
      if (isNew) await call(calls.create, { body }, { silent: true });
      else await call(calls.update, { params: { id: record.id! }, body }, { silent: true });
      enqueueSnackbar(messages.saved, { variant: 'success' });
      onSaved();
      onClose();
    } catch (err) {
      if (!(err instanceof HttpError)) return;
      let shown = false;
      for (const v of err.validationErrors) {
        if (v.field === 'file_ids') setFileError(v.message);
        else form.setError(v.field, { type: 'server', message: v.message }, { shouldFocus: true });
        shown = true;
      }
      if (!shown) enqueueSnackbar(err.message, { variant: 'error' });
    } finally {
      setSaving(false);
    }
  });

  return (
    <Dialog
      open={open}
      onClose={(_, reason) => reason !== 'backdropClick' && onClose()}
      slotProps={{
        paper: { sx: { width: LIMITS.dialogWidth, maxWidth: '95vw' }, 'aria-label': 'formulario' } as any,
      }}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle>{isNew ? 'Nuevo documento' : 'Editar documento'}</DialogTitle>
        {(saving || uploading) && <LinearProgress />}
        <DialogContent dividers>
          <FormFields fields={fields} form={form} />
          <Box sx={{ mt: 1 }}>
            <Typography variant="subtitle2">Archivos</Typography>
            <List dense aria-label="Archivos del documento">
              {files.map((f) => (
                <ListItem
                  key={f.id}
                  divider
                  secondaryAction={
                    <IconButton
                      edge="end"
                      aria-label={`Quitar ${f.filename}`}
                      onClick={() => setFiles((list) => list.filter((x) => x.id !== f.id))}
                    >
                      <Close fontSize="small" />
                    </IconButton>
                  }
                >
                  <ListItemIcon sx={{ minWidth: 32 }}>
                    <AttachFile fontSize="small" />
                  </ListItemIcon>
                  <ListItemText primary={f.filename} secondary={size(f.bytes)} />
                </ListItem>
              ))}
              {!files.length && (
                <ListItem>
                  <ListItemText secondary="Ningún archivo adjunto" />
                </ListItem>
              )}
            </List>
            <Button variant="outlined" component="label" startIcon={<UploadFile />} disabled={!!uploading}>
              {uploading ? `Subiendo ${uploading}...` : 'Subir archivos'}
              <input
                hidden
                multiple
                type="file"
                aria-label="Archivos a subir"
                accept={DOCUMENT_UPLOAD.accept}
                onChange={(e) => {
                  const chosen = [...(e.target.files ?? [])];
                  e.target.value = '';
                  void upload(chosen);
                }}
              />
            </Button>
            <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
              PDF, Excel, Word, PowerPoint, PNG o JPG; hasta {DOCUMENT_UPLOAD.maxBytes / 1024 / 1024} MB cada
              uno
            </Typography>
            {fileError && (
              <Alert severity="error" sx={{ mt: 1 }}>
                {fileError}
              </Alert>
            )}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancelar
          </Button>
          <Button type="submit" variant="contained" disabled={saving || !!uploading}>
            Guardar
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
