// Tablero (Despachos → Tablero, permission Dashboard.Summary): the dispatch group of the dashboard
// in detail, from GET /api/dashboard/summary?schema=despachos: units against objective with the
// pace, the months of the year, and the dealers behind their pace.
import { type DashboardMonth, MONTH_SHORT, MONTHS, PACING_STATUSES } from '@app/contracts';
import {
  Box,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useTheme,
} from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useDashboardFilters, useGroup } from './dashboard.hooks';
import { ChartPanel, countAxis, formatValue, monthAxis, NumberCard, PeriodToolbar } from './widgets';

export default function SummaryScreen() {
  const theme = useTheme();
  const f = useDashboardFilters();
  const params = { year: f.year, month: f.month, dealer_id: f.dealerId, manufacturer_id: f.manufacturerId };
  const g = useGroup('despachos', params);
  const d = g.data;
  const link = `/main/dispatches?tab=objectives&year=${f.year}${f.month ? `&month=${f.month}` : ''}`;
  const status = PACING_STATUSES.find((s) => s.id === d?.status)?.name;
  if (!g.allowed)
    return (
      <Paper sx={{ p: 3 }}>
        <Typography>No tiene permiso para ver los despachos.</Typography>
      </Paper>
    );
  return (
    <Box>
      <PeriodToolbar title="Tablero de despachos" filters={f} period={g.period} />
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          mb: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        <NumberCard
          title="Unidades despachadas"
          number={d?.dispatched}
          // The whole year: the Resumen tab, whose Total row is this number (Objetivos is a month's).
          to={f.month ? link : `/main/dispatches?tab=summary&year=${f.year}`}
          loading={g.loading}
        />
        <NumberCard
          title="Objetivo del periodo"
          number={d && { value: d.objective, previous: null }}
          to={link}
          loading={g.loading}
          detail={
            d &&
            `Al día de hoy: ${formatValue(d.objective_to_date)} (${d.days_elapsed} de ${d.days_total} días)`
          }
        />
        <NumberCard
          title="Avance contra el objetivo al día"
          number={d && { value: d.pacing, previous: null }}
          unit="pct"
          to={link}
          loading={g.loading}
          detail={
            d && `Cumplimiento del periodo ${formatValue(d.compliance, 'pct')}${status ? ` · ${status}` : ''}`
          }
        />
        <NumberCard
          title="Venta diaria (unidades)"
          number={d?.sold}
          to={`/main/daily?year=${f.year}${f.month ? `&month=${f.month}` : ''}`}
          loading={g.loading}
        />
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '3fr 2fr' } }}>
        <ChartPanel
          title="Despachos contra objetivo por mes"
          loading={g.loading}
          empty={!d || !d.by_month.some((r) => (r.value ?? 0) + (r.target ?? 0) + (r.previous ?? 0) > 0)}
          rows={d?.by_month ?? []}
          columns={[
            { header: 'Mes', value: (r: DashboardMonth) => MONTHS[r.month - 1].name },
            { header: 'Despachado', value: (r: DashboardMonth) => formatValue(r.value), align: 'right' },
            { header: 'Objetivo', value: (r: DashboardMonth) => formatValue(r.target), align: 'right' },
            {
              header: `${f.year - 1}`,
              value: (r: DashboardMonth) => formatValue(r.previous),
              align: 'right',
            },
          ]}
          to={link}
          chart={() => (
            <BarChart
              dataset={(d?.by_month ?? []).map((r) => ({ ...r, label: MONTH_SHORT[r.month - 1] }))}
              xAxis={[monthAxis]}
              yAxis={[countAxis]}
              series={[
                { dataKey: 'target', label: 'Objetivo', color: theme.palette.warning.light },
                { dataKey: 'value', label: 'Despachado', color: theme.palette.primary.main },
                { dataKey: 'previous', label: `Despachado ${f.year - 1}`, color: theme.palette.grey[400] },
              ]}
              margin={{ left: 10, right: 10 }}
            />
          )}
        />
        <Paper
          component="section"
          tabIndex={0}
          aria-label="Concesionarios atrasados"
          sx={{ p: 2, overflowX: 'auto' }}
        >
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            Concesionarios atrasados
          </Typography>
          {d && d.behind.length === 0 ? (
            <Typography color="text.secondary">
              Ningún concesionario va detrás de su objetivo al día.
            </Typography>
          ) : (
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Concesionario</TableCell>
                  <TableCell>Marca</TableCell>
                  <TableCell align="right">Avance al día</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {(d?.behind ?? []).map((r) => (
                  <TableRow key={`${r.dealer_id}-${r.manufacturer_name}`}>
                    <TableCell>{r.dealer_name}</TableCell>
                    <TableCell>{r.manufacturer_name}</TableCell>
                    <TableCell align="right">{formatValue(r.pacing, 'pct')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Paper>
      </Box>
    </Box>
  );
}
