// Import of the sales template: upload the .xlsx, then the per-row report. Nothing is saved when
// any row is wrong (the server answers saved = 0); the wrong rows are listed first.
import type { ImportReportEntry, ImportResult } from '@app/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import CloudDownload from '@mui/icons-material/CloudDownload';
import ErrorIcon from '@mui/icons-material/Error';
import FileDownload from '@mui/icons-material/FileDownload';
import UploadFile from '@mui/icons-material/UploadFile';
import Warning from '@mui/icons-material/Warning';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { HttpError, http } from '../../api/http';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { downloadTemplate } from './template';

/** Shown at most; the counts cover every row. */
const MAX_LINES = 500;

export function sortReport(report: ImportReportEntry[]): ImportReportEntry[] {
  const rank = (e: ImportReportEntry) => (!e.ok ? 0 : e.warnings?.length ? 1 : 2);
  return [...report].sort((a, b) => rank(a) - rank(b) || a.row - b.row);
}

/** The .xlsx chooser of an upload dialog: the button and the chosen file's name. */
export function XlsxPicker({
  file,
  disabled,
  onPick,
}: {
  file: File | null;
  disabled?: boolean;
  onPick: (file: File | null) => void;
}) {
  return (
    <>
      <Button variant="outlined" component="label" startIcon={<UploadFile />} disabled={disabled}>
        Elegir archivo
        <input
          hidden
          type="file"
          aria-label="Archivo Excel"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(e) => {
            onPick(e.target.files?.[0] ?? null);
            e.target.value = '';
          }}
        />
      </Button>
      <Typography variant="body2">{file ? file.name : 'Ningun archivo elegido'}</Typography>
    </>
  );
}

/** The per-row report of an upload: wrong rows first, then those with notes, then the rest. */
export function ReportList({ report, label }: { report: ImportReportEntry[]; label: string }) {
  const lines = sortReport(report).slice(0, MAX_LINES);
  return (
    <>
      <List dense aria-label={label} sx={{ maxHeight: 360, overflow: 'auto' }}>
        {lines.map((e) => {
          const notes = e.ok ? (e.warnings ?? []) : e.errors;
          return (
            <ListItem key={e.row} divider>
              <ListItemIcon sx={{ minWidth: 34 }}>
                {!e.ok ? (
                  <ErrorIcon color="error" fontSize="small" />
                ) : notes.length ? (
                  <Warning color="warning" fontSize="small" />
                ) : (
                  <CheckCircle color="success" fontSize="small" />
                )}
              </ListItemIcon>
              <ListItemText
                primary={`Fila ${e.row}${e.vin ? ` · ${e.vin}` : ''}: ${e.ok ? 'correcta' : 'con errores'}`}
                secondary={notes.length ? notes.join('; ') : undefined}
              />
            </ListItem>
          );
        })}
      </List>
      {report.length > MAX_LINES && (
        <Typography variant="caption" color="text.secondary">
          Se muestran {MAX_LINES} de {report.length} filas (primero las que tienen errores).
        </Typography>
      )}
    </>
  );
}

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();

  const close = () => {
    setFile(null);
    setResult(null);
    setFailure(null);
    onClose();
  };

  const [range, setRange] = useState({ from: '', to: '' });

  const run = async (call: () => Promise<ImportResult>) => {
    setBusy(true);
    setFailure(null);
    setResult(null);
    try {
      const r = await call();
      setResult(r);
      if (r.saved > 0) await queryClient.invalidateQueries({ queryKey: ['list', 'sales'] });
    } catch (e) {
      setFailure(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const upload = () => {
    if (!file) return;
    const body = new FormData();
    body.append('file', file);
    return run(() => http.post<ImportResult>('/sales/import', body, { silent: true }));
  };
  /** POST /api/sales-api: the same report, rows pulled from the external sales system. */
  const pull = () =>
    run(() =>
      http.post<ImportResult>(
        '/sales-api',
        { date_from: range.from || undefined, date_to: range.to || undefined },
        { silent: true },
      ),
    );

  const warned = result?.report.filter((e) => e.ok && e.warnings?.length).length ?? 0;

  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="md" fullWidth>
      <DialogTitle>Importar ventas</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          Complete la plantilla (.xlsx) con una venta por fila. Si alguna fila tiene errores no se guarda
          ninguna: corrija el archivo y vuelva a importarlo.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', my: 2 }}>
          <Button variant="text" startIcon={<FileDownload />} onClick={() => void downloadTemplate()}>
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
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Typography variant="body2" sx={{ width: '100%' }} color="text.secondary">
            O traiga las ventas del sistema de ventas (API) de un periodo:
          </Typography>
          <DateRangeFilter value={range} onChange={setRange} />
          <Button
            variant="outlined"
            startIcon={<CloudDownload />}
            onClick={() => void pull()}
            disabled={busy}
          >
            Traer del API de ventas
          </Button>
        </Box>
        {failure && (
          <Alert severity="error" sx={{ whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        )}
        {result && (
          <>
            {result.failed > 0 ? (
              <Alert severity="error">
                {result.failed} de {result.total} filas tienen errores. No se guardo ninguna venta.
              </Alert>
            ) : (
              <Alert severity="success">
                Se guardaron {result.saved} de {result.total} ventas
                {warned ? ` (${warned} con observaciones)` : ''}.
              </Alert>
            )}
            <ReportList report={result.report} label="Resultado de la importacion" />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cerrar
        </Button>
        <Button variant="contained" onClick={() => void upload()} disabled={!file || busy}>
          Importar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
