// The upload of a filled .xlsx template, as every import screen shows it: the file chooser, the
// template link, the call, then the per-row report. Nothing is saved when any row is wrong (the
// server answers saved = 0); the wrong rows are listed first.
import {
  type BackgroundJob,
  type ImportReportEntry,
  type ImportResult,
  isBackgroundJob,
  shellCalls,
} from '@app/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
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
import { type ReactNode, useEffect, useState } from 'react';
import { call, HttpError, http } from '../lib/http';
import { JobProgress } from './JobProgress';

/** A job that ended this recently is shown again when the dialog opens (its report). */
const RECENT_JOB_MS = 15 * 60_000;

/** Shown at most; the counts cover every row. */
const MAX_LINES = 500;

export function sortReport(report: ImportReportEntry[]): ImportReportEntry[] {
  const rank = (e: ImportReportEntry) => (!e.ok ? 0 : e.warnings?.length ? 1 : 2);
  return [...report].sort((a, b) => rank(a) - rank(b) || a.row - b.row);
}

/** The .xlsx chooser of an upload dialog: the button and the chosen file's name. */
function XlsxPicker({
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
      <Typography variant="body2">{file ? file.name : 'Ningún archivo elegido'}</Typography>
    </>
  );
}

/** The per-row report of an upload: wrong rows first, then those with notes, then the rest. */
function ReportList({ report, label }: { report: ImportReportEntry[]; label: string }) {
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

/** What an upload changed: 'Se actualizaron 2 valores.' (not every value the file repeats). */
export function savedValuesText(r: ImportResult): string {
  if (r.changed === undefined) return `Se guardaron ${r.saved} valores de ${r.total} filas.`;
  if (r.changed === 0) return 'Sin cambios: el archivo trae los mismos valores que ya estaban guardados.';
  return r.changed === 1 ? 'Se actualizó 1 valor.' : `Se actualizaron ${r.changed} valores.`;
}

/** Runs a call that answers an import report: another way in than the file (e.g. an external API). */
type RunImport = (call: () => Promise<ImportResult | BackgroundJob<ImportResult>>) => Promise<void>;

/** Upload of a template: the file, then the per-row report (nothing saved when a row is wrong). */
export function UploadDialog({
  open,
  title,
  help,
  url,
  template,
  onClose,
  onSaved,
  submitLabel = 'Cargar',
  again = 'cargarlo',
  reportLabel = 'Resultado de la carga',
  nothingSaved = 'No se guardó nada.',
  savedText = savedValuesText,
  extra,
  jobKind,
}: {
  open: boolean;
  title: string;
  help: string;
  url: string;
  template: () => void;
  onClose: () => void;
  onSaved: () => void;
  /** The dialog's words: the button, the verb of "vuelva a …", the report's name, the outcomes. */
  submitLabel?: string;
  again?: string;
  reportLabel?: string;
  nothingSaved?: string;
  savedText?: (result: ImportResult) => string;
  /** More under the chooser, with the dialog's runner (its busy state, report and failure). */
  extra?: (run: RunImport, busy: boolean) => ReactNode;
  /**
   * The server's job kind of this upload ('sales-import'): a big file runs as a job, followed
   * here (JobProgress); the dialog opened again shows the caller's job still running or just ended.
   */
  jobKind?: string;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [job, setJob] = useState<BackgroundJob<ImportResult> | null>(null);
  useEffect(() => {
    if (!open || !jobKind) return;
    let alive = true;
    // The kind asked says what its jobs' results are (the call answers a job of any kind).
    (
      call(shellCalls.jobs, { query: { kind: jobKind } }, { silent: true }) as Promise<
        BackgroundJob<ImportResult>[]
      >
    )
      .then(([last]) => {
        if (!alive || !last) return;
        const recent = last.finished_at && Date.now() - Date.parse(last.finished_at) < RECENT_JOB_MS;
        if (last.status === 'queued' || last.status === 'running' || recent) setJob(last);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [open, jobKind]);
  const close = () => {
    setFile(null);
    setResult(null);
    setFailure(null);
    setJob(null);
    onClose();
  };
  const jobEnded = (ended: BackgroundJob<ImportResult>) => {
    setJob(null);
    if (ended.status === 'done' && ended.result) {
      setResult(ended.result);
      if (ended.result.saved > 0) onSaved();
    } else setFailure(ended.error ?? 'El trabajo no terminó');
  };
  const run: RunImport = async (call) => {
    setBusy(true);
    setFailure(null);
    setResult(null);
    setJob(null);
    try {
      const r = await call();
      if (isBackgroundJob(r)) setJob(r as BackgroundJob<ImportResult>);
      else {
        setResult(r);
        if (r.saved > 0) onSaved();
      }
    } catch (e) {
      setFailure(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const send = () => {
    if (!file) return;
    const body = new FormData();
    body.append('file', file);
    return run(() => http.post<ImportResult>(url, body, { silent: true }));
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="md" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {help} Si alguna fila tiene errores no se guarda ninguna: corrija el archivo y vuelva a {again}.
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
        {extra?.(run, busy)}
        {job && <JobProgress key={job.id} job={job} onEnd={jobEnded} />}
        {failure && (
          <Alert severity="error" sx={{ whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        )}
        {result &&
          (result.failed > 0 ? (
            <Alert severity="error">
              {result.failed} de {result.total} filas tienen errores. {nothingSaved}
            </Alert>
          ) : (
            <Alert severity="success">{savedText(result)}</Alert>
          ))}
        {result && <ReportList report={result.report} label={reportLabel} />}
        {result?.note && (
          <Typography variant="body2" color="error">
            {result.note}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cerrar
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={!file || busy || !!job}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
