// Pieces both screens of the module use: the year/month pickers, file downloads (GET and POST),
// and the upload dialog of a template with its per-row report.
import { type ImportResult, MONTHS, years } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { type FileResult, HttpError, http, type Query, request, saveFile } from '../../api/http';
import { useTypeOptions } from '../../app/generalTypes';
import { ReportList, XlsxPicker } from '../sales/ImportDialog';

export const thisYear = () => new Date().getFullYear();
export const thisMonth = () => new Date().getMonth() + 1;

export function YearField({ value, onChange }: { value: number; onChange: (y: number) => void }) {
  return (
    <TextField
      select
      size="small"
      label="Año"
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 100 }}
    >
      {years().map((y) => (
        <MenuItem key={y} value={y}>
          {y}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function MonthField({
  value,
  onChange,
  label = 'Mes',
}: {
  value: number;
  onChange: (m: number) => void;
  label?: string;
}) {
  // The month names of the general type MONTHS (Preferences), the calendar's until they load.
  const months = useTypeOptions('MONTHS', MONTHS);
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      sx={{ width: 140 }}
    >
      {months.map((m) => (
        <MenuItem key={m.id} value={m.id}>
          {m.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Downloads a file from a GET call (query) or a POST call (body). */
export async function download(path: string, fallback: string, opts: { query?: Query; body?: unknown } = {}) {
  try {
    const file =
      opts.body !== undefined
        ? await request<FileResult>(path, { method: 'POST', body: opts.body, file: true })
        : await http.get<FileResult>(path, opts.query, { file: true });
    saveFile(file, fallback);
  } catch {
    // the client's toast says why
  }
}

/** Upload of a template: the file, then the per-row report (nothing saved when a row is wrong). */
export function UploadDialog({
  open,
  title,
  help,
  url,
  template,
  onClose,
  onSaved,
}: {
  open: boolean;
  title: string;
  help: string;
  url: string;
  template: () => void;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const close = () => {
    setFile(null);
    setResult(null);
    setFailure(null);
    onClose();
  };
  const send = async () => {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    setResult(null);
    try {
      const body = new FormData();
      body.append('file', file);
      const r = await http.post<ImportResult>(url, body, { silent: true });
      setResult(r);
      if (r.saved > 0) onSaved();
    } catch (e) {
      setFailure(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="md" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {help} Si alguna fila tiene errores no se guarda ninguna: corrija el archivo y vuelva a cargarlo.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', my: 2 }}>
          <Button variant="text" startIcon={<FileDownload />} onClick={template}>
            Descargar plantilla
          </Button>
          <XlsxPicker
            file={file}
            disabled={busy}
            onPick={(f) => {
              setFile(f);
              setResult(null);
              setFailure(null);
            }}
          />
        </Box>
        {failure && (
          <Alert severity="error" sx={{ whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        )}
        {result &&
          (result.failed > 0 ? (
            <Alert severity="error">
              {result.failed} de {result.total} filas tienen errores. No se guardo nada.
            </Alert>
          ) : (
            <Alert severity="success">
              Se guardaron {result.saved} valores de {result.total} filas.
            </Alert>
          ))}
        {result && <ReportList report={result.report} label="Resultado de la carga" />}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cerrar
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={!file || busy}>
          Cargar
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The brand's name for file names and headers ('' = every brand). */
export const brandLabel = (brands: { id: number; name: string }[] | undefined, id: number) =>
  brands?.find((b) => b.id === id)?.name ?? '';
