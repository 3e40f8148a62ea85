// Units dispatched per dealer × month of a year (toolbar brand and dealer), with totals; the SIMA
// pull and the dispatch reports (Reporte-Despachos, the dynamic report, the internal report).
import {
  type BackgroundJob,
  dispatchCalls,
  formatCount,
  limaDate,
  MONTH_SHORT,
  MONTHS,
  manufacturerContract,
  queryFor,
  REPORT_QUERIES,
  resourceCalls,
  type SimaPullResult,
  shellCalls,
} from '@app/contracts';
import Assessment from '@mui/icons-material/Assessment';
import CloudDownload from '@mui/icons-material/CloudDownload';
import FileDownload from '@mui/icons-material/FileDownload';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  ListItemText,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { MonthField, thisMonth, thisYear, YearField } from '../../fields/PeriodFields';
import { useTypeOptions } from '../../lib/generalTypes';
import { call, download, HttpError } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { JobProgress } from '../../resources/JobProgress';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { brandLabel } from './shared';

const ALL_MONTHS = MONTHS.map((m) => m.id);
const fmt = formatCount;

export function useBrands() {
  return useQuery({
    queryKey: ['lookup', 'manufacturers'],
    queryFn: () =>
      call(resourceCalls(manufacturerContract).list, { query: { perPage: -1 } }) as Promise<
        { id: number; code: string; name: string }[]
      >,
    staleTime: 60_000,
  });
}

export default function SummaryView() {
  const { dealerId, manufacturerId } = useGlobalFilters();
  const [year, setYear] = useState(useUrlPeriod({ year: thisYear(), month: thisMonth() }).year);
  const [months, setMonths] = useState<number[]>(ALL_MONTHS);
  const monthOptions = useTypeOptions('MONTHS', MONTHS);
  const [open, setOpen] = useState<'sima' | 'dynamic' | null>(null);
  const canPull = usePermission('Transactions.store');
  const canExport = usePermission('Transactions.export');
  const brands = useBrands();
  const query = queryFor(REPORT_QUERIES.transactionSummary, {
    year,
    months: months.join(','),
    manufacturer: manufacturerId || '',
    dealer_id: dealerId || '',
  });
  const summary = useQuery({
    queryKey: ['transaction-summary', query],
    queryFn: () => call(dispatchCalls.summary, { query }),
    placeholderData: keepPreviousData,
  });
  const s = summary.data;
  const cols = s?.months ?? months;

  return (
    <Paper sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
        <YearField value={year} onChange={setYear} />
        <TextField
          select
          size="small"
          label="Meses"
          sx={{ width: 260 }}
          value={months}
          slotProps={{
            select: {
              multiple: true,
              renderValue: (v) => {
                const list = v as number[];
                return list.length === 12 ? 'Todos' : list.map((m) => MONTH_SHORT[m - 1]).join(', ');
              },
            },
          }}
          onChange={(e) => {
            // A multiple select answers its list (the event's type says string).
            const picked: unknown = e.target.value;
            const v = (Array.isArray(picked) ? picked : String(picked).split(','))
              .map(Number)
              .sort((a, b) => a - b);
            setMonths(v.length ? v : ALL_MONTHS);
          }}
        >
          {monthOptions.map((m) => (
            <MenuItem key={m.id} value={m.id}>
              <Checkbox size="small" checked={months.includes(Number(m.id))} />
              <ListItemText primary={m.name} />
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flex: 1 }} />
        {canPull && (
          <Button variant="outlined" startIcon={<CloudDownload />} onClick={() => setOpen('sima')}>
            Traer de SIMA
          </Button>
        )}
        {canExport && (
          <>
            <Button
              startIcon={<FileDownload />}
              onClick={() => void download(dispatchCalls.report, 'Reporte-Despachos.xlsx', { query })}
            >
              Reporte de despachos
            </Button>
            <Button startIcon={<Assessment />} onClick={() => setOpen('dynamic')}>
              Reporte dinámico
            </Button>
            <Button
              startIcon={<FileDownload />}
              onClick={() =>
                void download(dispatchCalls.internalReport, 'Reporte-Interno.xlsx', {
                  body: {
                    year,
                    month: year === thisYear() ? thisMonth() : Math.max(...months),
                    manufacturer: manufacturerId,
                    dealer: dealerId,
                  },
                })
              }
            >
              Reporte interno
            </Button>
          </>
        )}
      </Box>
      {summary.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      <Typography variant="subtitle2" color="text.secondary" gutterBottom>
        Unidades despachadas{' '}
        {brandLabel(brands.data, manufacturerId)
          ? `de ${brandLabel(brands.data, manufacturerId)}`
          : '(todas las marcas)'}{' '}
        en {year}
      </Typography>
      <TableContainer
        // It scrolls: a keyboard must reach it (axe's scrollable-region-focusable).
        tabIndex={0}
        role="group"
        aria-label="Tabla del resumen de despachos"
        sx={{ maxHeight: 'calc(100vh - 330px)' }}
      >
        <Table size="small" stickyHeader aria-label="Resumen de despachos">
          <TableHead>
            <TableRow>
              <TableCell>Concesionario</TableCell>
              <TableCell>Zona</TableCell>
              {cols.map((m) => (
                <TableCell key={m} align="right">
                  {MONTH_SHORT[m - 1]}
                </TableCell>
              ))}
              <TableCell align="right" sx={{ fontWeight: 700 }}>
                Total
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {s?.rows.map((r) => (
              <TableRow key={r.dealer_id} hover>
                <TableCell>
                  {r.dealer_code} · {r.dealer_name}
                </TableCell>
                <TableCell>{r.zone_name ?? ''}</TableCell>
                {cols.map((m) => (
                  <TableCell key={m} align="right" sx={{ color: r.months[m] ? undefined : 'text.disabled' }}>
                    {fmt(r.months[m] ?? 0)}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {fmt(r.total)}
                </TableCell>
              </TableRow>
            ))}
            {s && (
              <TableRow>
                <TableCell sx={{ fontWeight: 700 }} colSpan={2}>
                  Total
                </TableCell>
                {cols.map((m) => (
                  <TableCell key={m} align="right" sx={{ fontWeight: 700 }}>
                    {fmt(s.totals.months[m] ?? 0)}
                  </TableCell>
                ))}
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {fmt(s.totals.total)}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <SimaDialog open={open === 'sima'} onClose={() => setOpen(null)} />
      <DynamicReportDialog
        open={open === 'dynamic'}
        onClose={() => setOpen(null)}
        brand={brandLabel(brands.data, manufacturerId)}
        manufacturer={manufacturerId}
        dealer={dealerId}
      />
    </Paper>
  );
}

/** The SIMA pull's job kind (GET /api/jobs?kind=): the dialog opened again finds it. */
const SIMA_JOB_KIND = 'sima-pull';
/** A pull ended this recently is shown again when the dialog opens. */
const RECENT_SIMA_MS = 15 * 60_000;

function SimaDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const today = limaDate();
  const [range, setRange] = useState({ from: `${today.slice(0, 7)}-01`, to: today });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SimaPullResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The pull runs as a background job (202): followed here, and found again when the dialog opens.
  const [job, setJob] = useState<BackgroundJob<SimaPullResult> | null>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!open) return;
    let alive = true;
    // The kind asked says what its jobs' results are (the call answers a job of any kind).
    (
      call(shellCalls.jobs, { query: { kind: SIMA_JOB_KIND } }, { silent: true }) as Promise<
        BackgroundJob<SimaPullResult>[]
      >
    )
      .then(([last]) => {
        if (!alive || !last) return;
        const recent = last.finished_at && Date.now() - Date.parse(last.finished_at) < RECENT_SIMA_MS;
        if (last.status === 'queued' || last.status === 'running' || recent) setJob(last);
      })
      .catch(() => {});
    return () => {
      alive = false;
    };
  }, [open]);
  const jobEnded = (ended: BackgroundJob<SimaPullResult>) => {
    setJob(null);
    if (ended.status === 'done' && ended.result) {
      setResult(ended.result);
      void queryClient.invalidateQueries({ queryKey: ['transaction-summary'] });
    } else setFailure(ended.error ?? 'El trabajo no terminó');
  };
  const close = () => {
    setJob(null);
    setResult(null);
    setFailure(null);
    onClose();
  };
  const pull = async () => {
    setBusy(true);
    setFailure(null);
    setResult(null);
    setJob(null);
    try {
      const r = await call(
        dispatchCalls.simaPull,
        { query: { date_from: range.from, date_to: range.to } },
        { silent: true },
      );
      setJob(r);
    } catch (e) {
      setFailure(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const running = !!job && (job.status === 'queued' || job.status === 'running');
  const wrong = result?.report.filter((e) => !e.ok).slice(0, 200) ?? [];
  return (
    <Dialog open={open} onClose={busy ? undefined : close} maxWidth="sm" fullWidth>
      <DialogTitle>Traer despachos de SIMA</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          Se piden a SIMA los despachos del periodo, mes por mes. Si un mes falla o alguna línea tiene errores
          no se guarda nada. Traer otra vez el mismo periodo no duplica: solo actualiza lo que SIMA corrigió.
        </Typography>
        <Box sx={{ my: 2 }}>
          <DateRangeFilter value={range} onChange={setRange} />
        </Box>
        {job && <JobProgress key={job.id} job={job} onEnd={jobEnded} />}
        {failure && <Alert severity="error">{failure}</Alert>}
        {result &&
          (result.failed > 0 ? (
            <Alert severity="error">
              {result.failed} de {result.received} líneas tienen errores. No se guardó nada.
            </Alert>
          ) : (
            <Alert severity="success">
              {result.received} líneas de SIMA ({result.months.join(', ')}): {result.added} nuevas,{' '}
              {result.updated} actualizadas, {result.unchanged} sin cambios.
            </Alert>
          ))}
        {wrong.map((e) => (
          <Typography key={e.row} variant="body2" color="error" sx={{ mt: 0.5 }}>
            Línea {e.row}
            {e.vin ? ` · ${e.vin}` : ''}: {e.errors.join('; ')}
          </Typography>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cerrar
        </Button>
        <Button
          variant="contained"
          onClick={() => void pull()}
          disabled={busy || running || !range.from || !range.to}
        >
          Traer
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function DynamicReportDialog({
  open,
  onClose,
  brand,
  manufacturer,
  dealer,
}: {
  open: boolean;
  onClose: () => void;
  brand: string;
  manufacturer: number;
  dealer: number;
}) {
  const [from, setFrom] = useState({ year: thisYear() - 1, month: thisMonth() });
  const [to, setTo] = useState({ year: thisYear(), month: thisMonth() });
  const [title, setTitle] = useState('Reporte');
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    const monthHeaders: string[] = [];
    for (let y = from.year, m = from.month; y < to.year || (y === to.year && m <= to.month); ) {
      monthHeaders.push(`${MONTH_SHORT[m - 1]} ${y}`);
      if (++m > 12) {
        m = 1;
        y++;
      }
    }
    await download(dispatchCalls.dynamicReport, `${title || 'Reporte'}.xlsx`, {
      body: {
        title_download: title || 'Reporte',
        monthHeaders,
        marcaSeleccionada: brand || undefined,
        rangeFrom: from,
        rangeDays: to,
        manufacturer,
        dealer,
        year: to.year,
        month: to.month,
      },
    });
    setBusy(false);
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Reporte dinámico de despachos</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          Los meses elegidos como columnas, una fila por concesionario{brand ? ` (${brand})` : ' y marca'}.
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 2 }}>
          <MonthField label="Desde" value={from.month} onChange={(month) => setFrom({ ...from, month })} />
          <YearField value={from.year} onChange={(year) => setFrom({ ...from, year })} />
          <MonthField label="Hasta" value={to.month} onChange={(month) => setTo({ ...to, month })} />
          <YearField value={to.year} onChange={(year) => setTo({ ...to, year })} />
        </Box>
        <TextField
          size="small"
          fullWidth
          label="Nombre del archivo"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={() => void run()} disabled={busy}>
          Descargar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
