// report-info: per dealer and month, productivity (hours worked ÷ available hours), efficiency
// (hours sold ÷ hours worked), effective labour rate and parts per order, each beside the same
// month a year before; above it, the chart of the months' productivity (the toolbar's dealer or
// the whole network) against last year. Exportable.
import { formatPointChange, MONTH_SHORT, queryFor, REPORT_QUERIES, workshopCalls } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useTheme,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { lastMonth, MonthField, YearField } from '../../fields/PeriodFields';
import { call, download } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { formatNumber, formatPercent, formatRatio, useCurrencySign } from '../../sheet/numbers';

const defaultYear = () => lastMonth().year;

function Compare({
  now,
  before,
  kind,
}: {
  now: number | null;
  before: number | null | undefined;
  kind: 'ratio' | 'money';
}) {
  const currency = useCurrencySign();
  const show = (v: number | null | undefined) =>
    v === null || v === undefined
      ? '—'
      : kind === 'ratio'
        ? formatRatio(v)
        : formatNumber(v, 'currency', currency);
  // Up or down as shown (a rate's cents, a ratio's tenths of a point), not by float noise.
  const shownAs = (v: number) => Math.round(kind === 'ratio' ? v * 1000 : v * 100);
  const up = now !== null && before !== null && before !== undefined ? shownAs(now) - shownAs(before) : null;
  return (
    <>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {show(now)}
        {up !== null && up !== 0 && (
          <Box
            component="span"
            // A ratio's change in percentage points ('sube +2.3 pp'), as the dashboard gives it.
            aria-label={`${up > 0 ? 'sube' : 'baja'}${kind === 'ratio' ? ` ${formatPointChange(up / 10)}` : ''}`}
            title={kind === 'ratio' ? `${formatPointChange(up / 10)} frente al año anterior` : undefined}
            sx={{ ml: 0.5, color: up > 0 ? 'success.main' : 'error.main' }}
          >
            {up > 0 ? '▲' : '▼'}
          </Box>
        )}
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap', color: 'text.secondary' }}>
        {show(before)}
      </TableCell>
    </>
  );
}

export default function ReportView() {
  const theme = useTheme();
  // A link may name the period (?year&month), as the dashboard's does.
  const start = useUrlPeriod({ year: defaultYear(), month: 0 });
  const [year, setYear] = useState(start.year);
  const [monthFrom, setMonthFrom] = useState(start.month || 1);
  const [monthTo, setMonthTo] = useState(start.month || 12);
  const { dealerId } = useGlobalFilters();
  const canExport = usePermission('WorkshopInfos.export');
  const query = queryFor(REPORT_QUERIES.reportInfo, {
    year,
    month_from: monthFrom,
    month_to: Math.max(monthFrom, monthTo),
    dealer_id: dealerId || undefined,
  });
  const [view, setView] = useState<'month' | 'dealer' | null>(null);
  const shownView = view ?? (dealerId ? 'month' : 'dealer');
  // The server summarises: the table's rows (a row per dealer, or each dealer-month) and the
  // chart's months (the network's, or the toolbar dealer's), never the network's rows at once
  // for the default view.
  const answer = useQuery({
    queryKey: ['report-info', query, shownView],
    queryFn: () =>
      call(workshopCalls.report, { query: shownView === 'dealer' ? { ...query, view: 'dealer' } : query }),
    placeholderData: keepPreviousData,
  });
  const chart = useQuery({
    queryKey: ['report-info', query, 'network'],
    queryFn: () => call(workshopCalls.report, { query: { ...query, view: 'network' } }),
    placeholderData: keepPreviousData,
  });
  const shown = answer.data ?? [];
  const byMonth = new Map((chart.data ?? []).map((r) => [r.month, r]));
  const months = MONTH_SHORT.map((m, i) => ({ m, i })).filter(
    ({ i }) => i + 1 >= monthFrom && i + 1 <= query.month_to,
  );
  const pctOf = (v: number | null | undefined) =>
    v === null || v === undefined ? null : Math.round(v * 1000) / 10;
  const dataset = months.map(({ m, i }) => ({
    month: m,
    now: pctOf(byMonth.get(i + 1)?.productivity),
    before: pctOf(byMonth.get(i + 1)?.previous?.productivity),
  }));
  const head = (label: string) => [
    <TableCell key={label} align="right">
      {label}
    </TableCell>,
    <TableCell key={`${label}-prev`} align="right">
      {year - 1}
    </TableCell>,
  ];

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6" sx={{ mr: 1 }}>
          Reporte de taller
        </Typography>
        <YearField value={year} onChange={setYear} />
        <MonthField value={monthFrom} onChange={setMonthFrom} label="Mes desde" />
        <MonthField value={monthTo} onChange={setMonthTo} label="Mes hasta" />
        <ToggleButtonGroup
          size="small"
          exclusive
          value={shownView}
          onChange={(_, v) => v && setView(v)}
          aria-label="Vista"
        >
          <ToggleButton value="dealer">Por concesionario</ToggleButton>
          <ToggleButton value="month">Por mes</ToggleButton>
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        {canExport && (
          <Button
            startIcon={<FileDownload />}
            onClick={() =>
              void download(workshopCalls.reportExport, `Reporte_Info_Taller_${year}.xlsx`, { query })
            }
          >
            Exportar
          </Button>
        )}
      </Stack>
      {(answer.isFetching || chart.isFetching) && <LinearProgress sx={{ mb: 1 }} />}
      {!answer.isFetching && shown.length === 0 ? (
        <Alert severity="info">No hay información de taller en el periodo.</Alert>
      ) : (
        <>
          <Typography variant="subtitle2">
            Productividad (horas trabajadas ÷ horas disponibles){dealerId ? '' : ' de la red'}
          </Typography>
          <Box role="figure" aria-label="Productividad por mes">
            <BarChart
              skipAnimation
              height={260}
              dataset={dataset}
              xAxis={[{ scaleType: 'band', dataKey: 'month' }]}
              yAxis={[{ min: 0, max: 100, label: '%' }]}
              series={[
                {
                  dataKey: 'now',
                  label: String(year),
                  color: theme.palette.primary.main,
                  valueFormatter: (v) => formatPercent(v),
                },
                {
                  dataKey: 'before',
                  label: String(year - 1),
                  color: theme.palette.grey[400],
                  valueFormatter: (v) => formatPercent(v),
                },
              ]}
            />
          </Box>
          {/* A scrolling table takes focus, so a keyboard scrolls it (axe: scrollable-region-focusable). */}
          <Box tabIndex={0} role="group" aria-label="Tabla del reporte de taller" sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label="Reporte de taller">
              <TableHead>
                <TableRow>
                  <TableCell>Concesionario</TableCell>
                  <TableCell>Mes</TableCell>
                  <TableCell align="right">OT cerradas</TableCell>
                  <TableCell align="right">Horas trabajadas</TableCell>
                  <TableCell align="right">Horas disponibles</TableCell>
                  {head('Productividad')}
                  {head('Eficiencia')}
                  {head('Tarifa efectiva MO')}
                  {head('Repuestos por OT')}
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((r) => (
                  <TableRow key={`${r.dealer_id}-${r.month}`} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.dealer_name}</TableCell>
                    <TableCell>{r.month ? MONTH_SHORT[r.month - 1] : 'Periodo'}</TableCell>
                    <TableCell align="right">{formatNumber(r.work_orders_closed, 'integer')}</TableCell>
                    <TableCell align="right">{formatNumber(r.hours_worked, 'number')}</TableCell>
                    <TableCell align="right">{formatNumber(r.available_hours, 'number') || '—'}</TableCell>
                    <Compare now={r.productivity} before={r.previous?.productivity} kind="ratio" />
                    <Compare now={r.efficiency} before={r.previous?.efficiency} kind="ratio" />
                    <Compare now={r.labour_rate} before={r.previous?.labour_rate} kind="money" />
                    <Compare now={r.parts_per_order} before={r.previous?.parts_per_order} kind="money" />
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
    </Paper>
  );
}
