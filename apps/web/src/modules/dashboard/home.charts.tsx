// The home tab's charts: each group's months (or ages, or concepts) beside the year before, with
// its table view and the link to its screen.
import { type DashboardMonth, MONTH_SHORT, MONTHS } from '@app/contracts';
import { Box } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { Home } from './home.data';
import { ChartPanel, countAxis, formatValue, monthAxis, phoneTicks } from './widgets';

const monthLabel = (m: number) => MONTH_SHORT[m - 1];
const anyValue = (rows: DashboardMonth[]) => rows.some((r) => (r.value ?? 0) > 0 || (r.previous ?? 0) > 0);
const monthColumns = (unit: 'units' | 'pct', withTarget = false) => [
  { header: 'Mes', value: (r: DashboardMonth) => MONTHS[r.month - 1].name },
  { header: 'Este año', value: (r: DashboardMonth) => formatValue(r.value, unit), align: 'right' as const },
  {
    header: 'Año anterior',
    value: (r: DashboardMonth) => formatValue(r.previous, unit),
    align: 'right' as const,
  },
  ...(withTarget
    ? [
        {
          header: 'Objetivo',
          value: (r: DashboardMonth) => formatValue(r.target, unit),
          align: 'right' as const,
        },
      ]
    : []),
];

/** CEM sales by month beside the year before. */
function SalesChart({ home }: { home: Home }) {
  const { f, ventas, salesLink, primary, previousColor } = home;
  return (
    <ChartPanel
      title="Ventas CEM por mes"
      loading={ventas.loading}
      empty={!ventas.data || !anyValue(ventas.data.by_month)}
      rows={ventas.data?.by_month ?? []}
      columns={monthColumns('units')}
      to={salesLink}
      chart={() => (
        <BarChart
          dataset={(ventas.data?.by_month ?? []).map((r) => ({ ...r, label: monthLabel(r.month) }))}
          xAxis={[monthAxis]}
          yAxis={[countAxis]}
          series={[
            { dataKey: 'previous', label: `${f.year - 1}`, color: previousColor },
            { dataKey: 'value', label: `${f.year}`, color: primary },
          ]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** Dispatched units by month against the objective and the year before. */
function DispatchesChart({ home }: { home: Home }) {
  const { f, despachos, d, link, theme, primary, previousColor } = home;
  return (
    <ChartPanel
      title="Despachos contra objetivo por mes"
      loading={despachos.loading}
      empty={!d || !anyValue(d.by_month)}
      rows={d?.by_month ?? []}
      columns={monthColumns('units', true)}
      to={link('/main/dispatches', 'objectives')}
      chart={() => (
        <BarChart
          dataset={(d?.by_month ?? []).map((r) => ({ ...r, label: monthLabel(r.month) }))}
          xAxis={[monthAxis]}
          yAxis={[countAxis]}
          series={[
            { dataKey: 'target', label: 'Objetivo', color: theme.palette.warning.light },
            { dataKey: 'value', label: 'Despachado', color: primary },
            { dataKey: 'previous', label: `Despachado ${f.year - 1}`, color: previousColor },
          ]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** The surveys' coverage and top box by month, and last year's top box. */
function SurveysChart({ home }: { home: Home }) {
  const { f, encuestas, link, theme, primary, previousColor } = home;
  return (
    <ChartPanel
      title="Encuestas: cobertura y top box por mes (%)"
      loading={encuestas.loading}
      empty={!encuestas.data || !anyValue(encuestas.data.coverage_by_month)}
      rows={(encuestas.data?.coverage_by_month ?? []).map((c, i) => ({
        month: c.month,
        coverage: c.value,
        top: encuestas.data?.top_box_by_month[i].value ?? null,
        topPrev: encuestas.data?.top_box_by_month[i].previous ?? null,
      }))}
      columns={[
        { header: 'Mes', value: (r) => MONTHS[r.month - 1].name },
        { header: 'Cobertura', value: (r) => formatValue(r.coverage, 'pct'), align: 'right' },
        { header: 'Top box', value: (r) => formatValue(r.top, 'pct'), align: 'right' },
        {
          header: `Top box ${f.year - 1}`,
          value: (r) => formatValue(r.topPrev, 'pct'),
          align: 'right',
        },
      ]}
      to={link('/quiz', 'stats')}
      chart={() => (
        <LineChart
          xAxis={[{ scaleType: 'point', data: MONTH_SHORT.slice(), ...phoneTicks }]}
          yAxis={[{ min: 0, max: 100 }]}
          series={[
            {
              data: (encuestas.data?.coverage_by_month ?? []).map((r) => r.value),
              label: 'Cobertura',
              color: theme.palette.info.main,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
            {
              data: (encuestas.data?.top_box_by_month ?? []).map((r) => r.value),
              label: 'Top box',
              color: primary,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
            {
              data: (encuestas.data?.top_box_by_month ?? []).map((r) => r.previous),
              label: `Top box ${f.year - 1}`,
              color: previousColor,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
          ]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** Each concept's compliance with its fee, year to date. */
function FiguresChart({ home }: { home: Home }) {
  const { cifras, figuresMonth, resumenLink, primary } = home;
  return (
    <ChartPanel
      title={`Cumplimiento de cifras por concepto (acumulado a ${figuresMonth || 'la fecha'}, %)`}
      loading={cifras.loading}
      empty={!cifras.data || !cifras.data.concepts.some((c) => c.ytd_compliance !== null)}
      rows={(cifras.data?.concepts ?? []).filter((c) => c.ytd_compliance !== null)}
      columns={[
        { header: 'Concepto', value: (r) => r.name },
        { header: 'Cifra', value: (r) => formatValue(r.ytd, 'hours'), align: 'right' },
        { header: 'Cuota', value: (r) => formatValue(r.ytd_fee, 'hours'), align: 'right' },
        { header: 'Cumplimiento', value: (r) => formatValue(r.ytd_compliance, 'pct'), align: 'right' },
      ]}
      to={resumenLink}
      height={Math.max(
        280,
        30 * (cifras.data?.concepts.filter((c) => c.ytd_compliance !== null).length ?? 0),
      )}
      chart={() => (
        <BarChart
          layout="horizontal"
          dataset={(cifras.data?.concepts ?? [])
            .filter((c) => c.ytd_compliance !== null)
            .map((c) => ({ name: c.name, value: c.ytd_compliance }))}
          yAxis={[{ scaleType: 'band', dataKey: 'name', width: 170 }]}
          series={[
            {
              dataKey: 'value',
              label: 'Cumplimiento (%)',
              color: primary,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
          ]}
          margin={{ left: 10, right: 20 }}
        />
      )}
    />
  );
}

/** Open agreements by days overdue. */
function AgreementsAgeChart({ home }: { home: Home }) {
  const { seguimiento, agreementsLink, primary } = home;
  return (
    <ChartPanel
      title="Acuerdos abiertos por días de atraso"
      loading={seguimiento.loading}
      empty={!seguimiento.data || seguimiento.data.open_agreements.value === 0}
      rows={seguimiento.data?.agreements_by_age ?? []}
      columns={[
        { header: 'Atraso', value: (r) => r.name },
        { header: 'Acuerdos', value: (r) => formatValue(r.count), align: 'right' },
      ]}
      to={agreementsLink}
      chart={() => (
        <BarChart
          dataset={(seguimiento.data?.agreements_by_age ?? []).map((b) => ({ ...b }))}
          xAxis={[{ scaleType: 'band', dataKey: 'name', ...phoneTicks }]}
          yAxis={[countAxis]}
          series={[{ dataKey: 'count', label: 'Acuerdos abiertos', color: primary }]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** Open survey alerts by age in days. */
function AlertsAgeChart({ home }: { home: Home }) {
  const { seguimiento, theme } = home;
  return (
    <ChartPanel
      title="Alertas de encuesta abiertas por antigüedad (días)"
      loading={seguimiento.loading}
      empty={!seguimiento.data || seguimiento.data.open_alerts.value === 0}
      rows={seguimiento.data?.alerts_by_age ?? []}
      columns={[
        { header: 'Días abiertas', value: (r) => r.bucket },
        { header: 'Alertas', value: (r) => formatValue(r.count), align: 'right' },
      ]}
      to="/quiz?tab=alerts"
      chart={() => (
        <BarChart
          dataset={(seguimiento.data?.alerts_by_age ?? []).map((b) => ({ ...b }))}
          xAxis={[{ scaleType: 'band', dataKey: 'bucket', label: 'Días abiertas', ...phoneTicks }]}
          yAxis={[countAxis]}
          series={[{ dataKey: 'count', label: 'Alertas abiertas', color: theme.palette.error.light }]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** The workshop's productivity by month beside the year before. */
function WorkshopChart({ home }: { home: Home }) {
  const { f, taller, link, primary, previousColor } = home;
  return (
    <ChartPanel
      title="Productividad del taller por mes (%)"
      loading={taller.loading}
      empty={!taller.data || !anyValue(taller.data.by_month)}
      rows={taller.data?.by_month ?? []}
      columns={monthColumns('pct')}
      to={link('/workshopinfo', 'report')}
      chart={() => (
        <LineChart
          xAxis={[{ scaleType: 'point', data: MONTH_SHORT.slice(), ...phoneTicks }]}
          series={[
            {
              data: (taller.data?.by_month ?? []).map((r) => r.value),
              label: `${f.year}`,
              color: primary,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
            {
              data: (taller.data?.by_month ?? []).map((r) => r.previous),
              label: `${f.year - 1}`,
              color: previousColor,
              valueFormatter: (v) => formatValue(v, 'pct'),
            },
          ]}
          margin={{ left: 10, right: 10 }}
        />
      )}
    />
  );
}

/** The charts of the groups the user may see, two a row on a wide screen. */
export function HomeCharts({ home }: { home: Home }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: 'repeat(2, 1fr)' } }}>
      {home.ventas.allowed && <SalesChart home={home} />}
      {home.despachos.allowed && <DispatchesChart home={home} />}
      {home.encuestas.allowed && <SurveysChart home={home} />}
      {home.cifras.allowed && <FiguresChart home={home} />}
      {home.seguimiento.allowed && <AgreementsAgeChart home={home} />}
      {home.seguimiento.allowed && <AlertsAgeChart home={home} />}
      {home.taller.allowed && <WorkshopChart home={home} />}
    </Box>
  );
}
