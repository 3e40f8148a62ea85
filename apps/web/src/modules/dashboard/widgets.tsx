// The dashboard's building blocks: a number card (this period, the year before, the link to its
// screen), a chart panel that also shows its data as a table, skeletons and an empty state.
import {
  type DashboardNumber,
  type DashboardPeriod,
  formatCount,
  formatMeasure,
  formatPercent,
  formatPointChange,
  formatRelativeChange,
} from '@app/contracts';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import BarChartIcon from '@mui/icons-material/BarChart';
import TableRows from '@mui/icons-material/TableRows';
import {
  Box,
  Button,
  Paper,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { MonthField, YearField } from '../../fields/PeriodFields';
import { useSelectorsPlace } from '../../shell/Selectors';

/** A number in Spanish (Peru) format: 1.234 units, 45,5 %. */
export function formatValue(v: number | null | undefined, unit: 'units' | 'pct' | 'hours' = 'units'): string {
  if (unit === 'pct') return formatPercent(v);
  return unit === 'hours' ? formatMeasure(v, 1) : formatCount(v);
}

/**
 * Tick labels that stay on a phone: twelve months (or a few buckets) fit in 330 px at 11 px with
 * a 2 px gap, where the default (12 px, 4 px gap) hid every other one, or all of them.
 */
export const phoneTicks = { tickLabelMinGap: 2, tickLabelStyle: { fontSize: 11 } };

/** The months of a bar chart (its dataset's `label`). */
export const monthAxis = { scaleType: 'band' as const, dataKey: 'label', ...phoneTicks };

/** The value axis of a chart of counts: whole ticks only (never 0.5 units). */
export const countAxis = { tickMinStep: 1, valueFormatter: (v: number | null) => formatCount(v) };

/**
 * The change against the year before: in percentage points for a percentage (its difference),
 * else as a signed percentage of the previous value; null without a base.
 */
export function change(
  n: DashboardNumber | null | undefined,
  unit: 'units' | 'pct' | 'hours' = 'units',
): number | null {
  if (!n || n.value === null || n.previous === null) return null;
  if (unit === 'pct') return Math.round((n.value - n.previous) * 10) / 10;
  if (n.previous === 0) return null;
  return Math.round(((n.value - n.previous) / Math.abs(n.previous)) * 1000) / 10;
}

/** How a change reads: '+21.8 pp' for a percentage, '+12.5 %' for a count. */
export const formatChange = (delta: number, unit: 'units' | 'pct' | 'hours') =>
  unit === 'pct' ? formatPointChange(delta) : formatRelativeChange(delta);

export interface CardProps {
  title: string;
  number: DashboardNumber | null | undefined;
  unit?: 'units' | 'pct' | 'hours';
  /** What a rise means: good (default), or bad (open alerts). */
  higherIsBetter?: boolean;
  /** A line under the number (the objective, the pace). */
  detail?: ReactNode;
  /** The screen behind the number. */
  to: string;
  loading: boolean;
}

export function NumberCard({
  title,
  number,
  unit = 'units',
  higherIsBetter = true,
  detail,
  to,
  loading,
}: CardProps) {
  const delta = change(number, unit);
  const good = delta === null ? null : higherIsBetter ? delta >= 0 : delta <= 0;
  return (
    <Paper
      component="section"
      aria-label={title}
      sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 0.5, minHeight: 150 }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      {loading ? (
        <>
          <Skeleton variant="text" width="60%" height={44} />
          <Skeleton variant="text" width="80%" />
        </>
      ) : (
        <>
          <Typography variant="h4" component="p" sx={{ fontWeight: 600 }} data-testid="card-value">
            {formatValue(number?.value, unit)}
          </Typography>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'wrap' }}>
            {delta !== null && (
              <Box
                component="span"
                sx={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  // No change (0.0) reads neutral, without an arrow.
                  color: delta === 0 ? 'text.secondary' : good ? 'success.main' : 'error.main',
                  fontWeight: 600,
                  fontSize: 14,
                }}
              >
                {delta > 0 ? (
                  <ArrowUpward fontSize="inherit" />
                ) : delta < 0 ? (
                  <ArrowDownward fontSize="inherit" />
                ) : null}
                <span
                  title={unit === 'pct' ? 'Variación en puntos porcentuales' : 'Variación porcentual'}
                  aria-label={`${unit === 'pct' ? 'Variación en puntos porcentuales' : 'Variación porcentual'}: ${formatChange(delta, unit)}`}
                >
                  {formatChange(delta, unit)}
                </span>
              </Box>
            )}
            <Typography variant="caption" color="text.secondary" data-testid="card-previous">
              Año anterior: {formatValue(number?.previous, unit)}
            </Typography>
          </Box>
          {detail && (
            <Typography variant="caption" color="text.secondary">
              {detail}
            </Typography>
          )}
        </>
      )}
      <Box sx={{ flex: 1 }} />
      <Button component={RouterLink} to={to} size="small" sx={{ alignSelf: 'flex-start', px: 0 }}>
        Ver detalle
      </Button>
    </Paper>
  );
}

export interface TableColumn<T> {
  header: string;
  value: (row: T) => ReactNode;
  align?: 'left' | 'right';
}

/** A chart with its data as a table one click away (accessible to readers of a screen reader too). */
export function ChartPanel<T>({
  title,
  loading,
  empty,
  rows,
  columns,
  chart,
  to,
  height = 280,
}: {
  title: string;
  loading: boolean;
  /** No data for the filters: a clear message instead of an empty chart. */
  empty: boolean;
  rows: T[];
  columns: TableColumn<T>[];
  chart: () => ReactNode;
  to?: string;
  height?: number;
}) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  return (
    <Paper
      component="section"
      aria-label={title}
      sx={{ p: 2, height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_, v) => v && setView(v)}
          aria-label={`Vista de ${title}`}
        >
          <ToggleButton value="chart" aria-label="Gráfico">
            <BarChartIcon fontSize="small" />
          </ToggleButton>
          <ToggleButton value="table" aria-label="Tabla">
            <TableRows fontSize="small" />
          </ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {loading ? (
        <Skeleton variant="rounded" height={height} />
      ) : empty ? (
        <Box
          sx={{
            height,
            display: 'grid',
            placeItems: 'center',
            color: 'text.secondary',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            borderStyle: 'dashed',
          }}
        >
          Sin datos para los filtros elegidos
        </Box>
      ) : view === 'chart' ? (
        <Box sx={{ height }}>{chart()}</Box>
      ) : (
        <Box
          tabIndex={0}
          role="group"
          aria-label={`Tabla: ${title}`}
          sx={{ maxHeight: height, overflow: 'auto' }}
        >
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c.header} align={c.align}>
                    {c.header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows of a chart have no id of their own
                <TableRow key={i}>
                  {columns.map((c) => (
                    <TableCell key={c.header} align={c.align}>
                      {c.value(r)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {to && (
        <Button component={RouterLink} to={to} size="small" sx={{ alignSelf: 'flex-start', px: 0, mt: 1 }}>
          Ver detalle
        </Button>
      )}
    </Paper>
  );
}

/** A date of the API (YYYY-MM-DD) as it reads in Peru: 25/11/2026. */
export const formatDate = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

interface PeriodFilters {
  year: number;
  month: number;
  setYear: (v: number) => void;
  setMonth: (v: number) => void;
}

/** The screen's title with its year and month selectors and the period the numbers cover. */
export function PeriodToolbar({
  title,
  filters: f,
  period,
}: {
  title: string;
  filters: PeriodFilters;
  period: DashboardPeriod | undefined;
}) {
  const selectors = useSelectorsPlace();
  return (
    <Paper sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
      <Typography variant="h6" component="h1" sx={{ flex: 1, minWidth: 160 }}>
        {title}
      </Typography>
      <YearField value={f.year} onChange={f.setYear} newestFirst />
      <MonthField value={f.month} onChange={f.setMonth} allYear />
      {period && (
        <Typography variant="caption" color="text.secondary" sx={{ width: '100%' }}>
          {period.to < period.from
            ? `Periodo: desde ${formatDate(period.from)} (aún no empieza).`
            : `Periodo: ${formatDate(period.from)} al ${formatDate(period.to)}, comparado con ${formatDate(period.prev_from)} al ${formatDate(period.prev_to)}.`}{' '}
          Concesionario y marca: {selectors}.
        </Typography>
      )}
    </Paper>
  );
}
