// Objectives against units dispatched per dealer and brand, with the month's pace: the objective
// prorated to today against what arrived so far, so on the 15th a manager sees who is behind.
// Objectives are loaded from Formato_Objetivos.xlsx.
import {
  dispatchCalls,
  formatMeasure,
  formatPercent,
  PACING_STATUSES,
  type PacingStatus,
  queryFor,
  REPORT_QUERIES,
} from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import UploadFile from '@mui/icons-material/UploadFile';
import {
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { MonthField, thisMonth, thisYear, YearField } from '../../fields/PeriodFields';
import { apiPath, call, download } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { UploadDialog } from '../../resources/UploadDialog';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';

const COLOR: Record<PacingStatus, 'success' | 'info' | 'error' | 'inherit'> = {
  adelantado: 'success',
  en_linea: 'info',
  atrasado: 'error',
  sin_objetivo: 'inherit',
};
const CHIP: Record<PacingStatus, 'success' | 'info' | 'error' | 'default'> = {
  adelantado: 'success',
  en_linea: 'info',
  atrasado: 'error',
  sin_objetivo: 'default',
};
const pct = formatPercent;
const template = () => void download(dispatchCalls.objectivesTemplate, 'Formato_Objetivos.xlsx');

export default function ObjectivesView() {
  const { dealerId, manufacturerId } = useGlobalFilters();
  const start = useUrlPeriod({ year: thisYear(), month: thisMonth() });
  const [year, setYear] = useState(start.year);
  const [month, setMonth] = useState(start.month);
  const [uploading, setUploading] = useState(false);
  const canStore = usePermission('Transactions.store');
  const queryClient = useQueryClient();
  const query = queryFor(REPORT_QUERIES.objectivesSummary, {
    year,
    month,
    manufacturer: manufacturerId || '',
    dealer_id: dealerId || '',
  });
  const summary = useQuery({
    queryKey: ['objectives-summary', query],
    queryFn: () => call(dispatchCalls.objectivesSummary, { query }),
    placeholderData: keepPreviousData,
  });
  const s = summary.data;
  const running = s && s.days_elapsed > 0 && s.days_elapsed < s.days_total;
  return (
    <Paper sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
        <YearField value={year} onChange={setYear} />
        <MonthField value={month} onChange={setMonth} />
        {s && (
          <Typography variant="body2" color="text.secondary" sx={{ ml: 1 }}>
            {running
              ? `Día ${s.days_elapsed} de ${s.days_total}: el objetivo a la fecha es el ${Math.round((s.days_elapsed / s.days_total) * 100)}% del mes`
              : s.days_elapsed === 0
                ? 'Mes por comenzar'
                : 'Mes cerrado: cuenta el objetivo completo'}
          </Typography>
        )}
        <Box sx={{ flex: 1 }} />
        <Button startIcon={<FileDownload />} onClick={template}>
          Formato de objetivos
        </Button>
        {canStore && (
          <Button variant="outlined" startIcon={<UploadFile />} onClick={() => setUploading(true)}>
            Cargar objetivos
          </Button>
        )}
      </Box>
      {summary.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      <TableContainer
        // It scrolls: a keyboard must reach it (axe's scrollable-region-focusable).
        tabIndex={0}
        role="group"
        aria-label="Tabla de objetivos"
        sx={{ maxHeight: 'calc(100vh - 320px)' }}
      >
        <Table size="small" stickyHeader aria-label="Objetivos">
          <TableHead>
            <TableRow>
              <TableCell>Concesionario</TableCell>
              <TableCell>Marca</TableCell>
              <TableCell align="right">Objetivo</TableCell>
              <TableCell align="right">Despachado</TableCell>
              <TableCell align="right">Cumplimiento</TableCell>
              <TableCell align="right">Objetivo a la fecha</TableCell>
              <TableCell sx={{ minWidth: 240 }}>Avance</TableCell>
              <TableCell align="right">Venta diaria</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {s?.rows.map((r) => (
              <TableRow key={`${r.dealer_id}-${r.manufacturer_id}`} hover>
                <TableCell>
                  {r.dealer_code} · {r.dealer_name}
                </TableCell>
                <TableCell>{r.manufacturer_name}</TableCell>
                <TableCell align="right">{r.objective}</TableCell>
                <TableCell align="right">{r.units}</TableCell>
                <TableCell align="right">{pct(r.compliance)}</TableCell>
                <TableCell align="right">{formatMeasure(r.objective_to_date, 1)}</TableCell>
                <TableCell>
                  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <LinearProgress
                      variant="determinate"
                      value={Math.min(100, r.pacing ?? 0)}
                      aria-label={`Avance de ${r.dealer_name}, ${r.manufacturer_name}`}
                      color={COLOR[r.status]}
                      sx={{ width: 80, flex: 'none', height: 8, borderRadius: 4 }}
                    />
                    <Chip
                      size="small"
                      color={CHIP[r.status]}
                      variant={r.status === 'atrasado' ? 'filled' : 'outlined'}
                      label={`${PACING_STATUSES.find((p) => p.id === r.status)?.name} ${pct(r.pacing)}`}
                    />
                  </Box>
                </TableCell>
                <TableCell align="right">{r.sold}</TableCell>
              </TableRow>
            ))}
            {s && s.rows.length === 0 && (
              <TableRow>
                <TableCell colSpan={8}>Sin objetivos ni despachos en el periodo.</TableCell>
              </TableRow>
            )}
            {s && s.rows.length > 0 && (
              <TableRow>
                <TableCell colSpan={2} sx={{ fontWeight: 700 }}>
                  Total
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {s.totals.objective}
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {s.totals.units}
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {pct(
                    s.totals.objective ? Math.round((s.totals.units / s.totals.objective) * 1000) / 10 : null,
                  )}
                </TableCell>
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {formatMeasure(s.totals.objective_to_date, 1)}
                </TableCell>
                <TableCell />
                <TableCell align="right" sx={{ fontWeight: 700 }}>
                  {s.totals.sold}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <UploadDialog
        open={uploading}
        title="Cargar objetivos"
        help="Complete Formato_Objetivos.xlsx: una fila por concesionario, marca y año, una columna por mes."
        url={apiPath(dispatchCalls.objectivesImport)}
        jobKind="objectives-import"
        template={template}
        onClose={() => setUploading(false)}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: ['objectives-summary'] })}
      />
    </Paper>
  );
}
