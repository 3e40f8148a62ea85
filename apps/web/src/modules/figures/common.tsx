// What the figures, fees and capacities screens share: their year picker, the state of a period
// as a chip, the kind of number of a concept's unit, and the per-row report of an upload or a
// CASIS pull.
import {
  type BackgroundJob,
  type ConceptRow,
  type ConceptRule,
  type ConceptUnit,
  conceptKind,
  conceptValueError,
  conceptValueWarning,
  type feeCalls,
  type figureCalls,
  type GridImportReport,
  isBackgroundJob,
  PERIOD_STATUSES,
  type PeriodStatus,
  UNIT_DECIMALS,
} from '@app/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Info from '@mui/icons-material/Info';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Alert,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { thisYear, YearField } from '../../fields/PeriodFields';
import { call } from '../../lib/http';
import { JobProgress } from '../../resources/JobProgress';
import type { NumberKind } from '../../sheet/numbers';

export { lastMonth } from '../../fields/PeriodFields';

/** The years of figures, fees and capacities: next year (fees are set ahead) and the five before. */
export function YearPicker({ value, onChange }: { value: number; onChange: (y: number) => void }) {
  const now = thisYear();
  const options = Array.from({ length: 6 }, (_, i) => now + 1 - i);
  return <YearField value={value} onChange={onChange} options={options} />;
}

const STATUS_COLOR: Record<PeriodStatus, 'default' | 'info' | 'success'> = {
  closed: 'default',
  enabled: 'info',
  confirmed: 'success',
};
export const statusName = (s: PeriodStatus) => PERIOD_STATUSES.find((p) => p.id === s)?.name ?? s;

export function StatusChip({ status }: { status: PeriodStatus }) {
  return <Chip size="small" color={STATUS_COLOR[status]} label={statusName(status)} variant="outlined" />;
}

/** How a concept's values read in a grid: S/ for soles, % for percentages, whole counts. */
export const unitKind = (unit: string | null | undefined): NumberKind => conceptKind(unit);

/**
 * A measure's decimals (hours, days): the concept's own, else its unit's, fixed so a column reads
 * alike (1,083.0 over 1,145.6; 3.0 over 3.3); undefined for money, counts and percentages (their
 * kind's own).
 */
export const measureDecimals = (c: { unit: string | null; decimals?: number | null }) =>
  unitKind(c.unit) === 'number' ? (c.decimals ?? UNIT_DECIMALS[c.unit as ConceptUnit] ?? 2) : undefined;

/**
 * A grid column's rules from its concept: `refuse` a value that breaks the concept's kind ('Pruebas
 * de manejo, Nov: debe ser un número entero'), `warn` of one beyond its plausible range (kept).
 */
export function conceptRules<R>(
  concept: (row: R) => ConceptRule,
  where: (key: string) => string,
  currency: string,
) {
  return {
    refuse: (row: R, value: number, key: string) => {
      const c = concept(row);
      const why = conceptValueError(c, value);
      return why ? `${c.name}, ${where(key)}: ${why}` : null;
    },
    warn: (row: R, value: number, key: string) => {
      const c = concept(row);
      const why = conceptValueWarning(c, value, currency);
      return why ? `${c.name}, ${where(key)}: ${why}` : null;
    },
  };
}

export const byUnit = (list: ConceptRow[], unit: string) => list.some((c) => c.unit === unit);

/** The total rows of a concepts grid: one per unit that adds up (percentages do not). */
/** The totals rows of a grid: each unit's concepts that add up ('avg' ones, rates and days, never). */
export function unitTotals<R extends { unit: string | null; aggregation?: string }>(list: ConceptRow[]) {
  return [
    { unit: 'UND', label: 'Total unidades', kind: 'integer' as const },
    { unit: 'PEN', label: 'Total soles', kind: 'currency' as const },
    { unit: 'HRS', label: 'Total horas', kind: 'number' as const },
  ]
    .filter((t) => byUnit(list, t.unit))
    .map((t) => ({
      label: t.label,
      kind: t.kind,
      filter: (r: R) => r.unit === t.unit && r.aggregation !== 'avg',
    }));
}

/** Downloads a file answer (toast on failure by the client). */
/** The per-row report of an upload or a CASIS pull: wrong rows first; nothing saved if any. */
export function ReportDialog({
  title,
  result,
  onClose,
}: {
  title: string;
  result: GridImportReport | null;
  onClose: () => void;
}) {
  const rows = result ? [...result.report].sort((a, b) => Number(a.ok) - Number(b.ok) || a.row - b.row) : [];
  return (
    <Dialog open={!!result} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {result &&
          (result.failed ? (
            <Alert severity="error" sx={{ mb: 1 }}>
              {`${result.failed} fila(s) con errores: no se guardó nada. Corrija las filas y vuelva a intentarlo.`}
            </Alert>
          ) : (
            <Alert severity="success" sx={{ mb: 1 }}>
              {`Guardado Correctamente: ${result.saved} celda(s) de ${result.total} fila(s)${result.skipped ? `, ${result.skipped} omitida(s)` : ''}.`}
            </Alert>
          ))}
        <List dense>
          {rows.slice(0, 300).map((r) => (
            <ListItem key={`${r.row}-${r.message}`} disableGutters>
              <ListItemIcon sx={{ minWidth: 32 }}>
                {!r.ok ? (
                  <ErrorIcon color="error" fontSize="small" />
                ) : r.message.startsWith('Omitida') ? (
                  <Info color="info" fontSize="small" />
                ) : (
                  <CheckCircle color="success" fontSize="small" />
                )}
              </ListItemIcon>
              <ListItemText primary={`Fila ${r.row}: ${r.message}`} />
            </ListItem>
          ))}
        </List>
        {result?.note && (
          <Typography variant="body2" color="error">
            {result.note}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}

/** 'Cargar Excel': the chosen .xlsx goes to the upload call `upload`; `onDone` gets the per-row report. */
/**
 * The upload of an exported grid. A big file runs as a job on the server (202): its progress is
 * shown here until it ends, then its report as for a small file.
 */
export function UploadButton({
  upload,
  onDone,
}: {
  upload: typeof figureCalls.import | typeof feeCalls.import;
  onDone: (r: GridImportReport) => void;
}) {
  const [job, setJob] = useState<BackgroundJob<GridImportReport> | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const choose = () => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.xlsx';
    input.onchange = async () => {
      const file = input.files?.[0];
      if (!file) return;
      const form = new FormData();
      form.append('file', file);
      try {
        const r = await call(upload, { body: form });
        if (isBackgroundJob(r)) setJob(r as BackgroundJob<GridImportReport>);
        else onDone(r);
      } catch {
        // shown by the client
      }
    };
    input.click();
  };
  const ended = (j: BackgroundJob<GridImportReport>) => {
    if (j.status === 'done' && j.result) {
      setJob(null);
      onDone(j.result);
    } else setFailure(j.error ?? 'El trabajo no terminó');
  };
  const close = () => {
    setJob(null);
    setFailure(null);
  };
  return (
    <>
      <Button startIcon={<UploadFile />} onClick={choose}>
        Cargar Excel
      </Button>
      <Dialog open={!!job} onClose={failure ? close : undefined} maxWidth="sm" fullWidth>
        <DialogTitle>{job?.title ?? 'Carga'}</DialogTitle>
        <DialogContent>
          {failure ? (
            <Alert severity="error">{failure}</Alert>
          ) : (
            job && <JobProgress job={job} onEnd={ended} />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{failure ? 'Cerrar' : 'Seguir en segundo plano'}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
