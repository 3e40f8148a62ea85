// Table-stats for a year/month, the toolbar brand and dealer: cobertura, ranking by top box (the
// dealers under the minimum sample apart, 'muestra insuficiente'), postventa, a chart, export.
import { QUIZ_MESSAGES, queryFor, quizCalls, type RankingRow, REPORT_QUERIES } from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
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
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { MonthField, thisYear, YearField } from '../../fields/PeriodFields';
import { call, download } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { useSelectorsPlace } from '../../shell/Selectors';
import { avg, count, pct } from './format';

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper tabIndex={0} role="group" aria-label={title} sx={{ p: 2, mb: 2, overflowX: 'auto' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Paper>
  );
}

const num = { align: 'right' as const };

function RankingTable({
  rows,
  label,
  insufficient,
}: {
  rows: RankingRow[];
  label: string;
  insufficient?: boolean;
}) {
  return (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          {!insufficient && <TableCell width={60}>Puesto</TableCell>}
          <TableCell>Concesionario</TableCell>
          <TableCell {...num}>Respuestas</TableCell>
          <TableCell {...num}>Calificaciones</TableCell>
          <TableCell {...num}>Top box</TableCell>
          <TableCell {...num}>Promedio</TableCell>
          {insufficient && <TableCell />}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.dealer_id}>
            {!insufficient && <TableCell>{r.position}</TableCell>}
            <TableCell>{r.dealer_name}</TableCell>
            <TableCell {...num}>{count(r.responses)}</TableCell>
            <TableCell {...num}>{count(r.rating_answers)}</TableCell>
            <TableCell {...num}>{pct(r.top_box)}</TableCell>
            <TableCell {...num}>{avg(r.average)}</TableCell>
            {insufficient && (
              <TableCell>
                <Chip size="small" variant="outlined" label={r.label ?? QUIZ_MESSAGES.insufficientSample} />
              </TableCell>
            )}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default function StatsView() {
  const theme = useTheme();
  const start = useUrlPeriod({ year: thisYear(), month: 0 });
  const [year, setYear] = useState(start.year);
  const [month, setMonth] = useState(start.month);
  const { dealerId, manufacturerId } = useGlobalFilters();
  const selectors = useSelectorsPlace();
  const canExport = usePermission('Quizzes.export');
  const [busy, setBusy] = useState(false);
  const query = queryFor(REPORT_QUERIES.tableStats, {
    year,
    month: month || undefined,
    manufacturer: manufacturerId || undefined,
    dealer_id: dealerId || undefined,
  });
  const stats = useQuery({
    queryKey: ['table-stats', query],
    queryFn: () => call(quizCalls.stats, { query }),
    placeholderData: keepPreviousData,
  });
  const d = stats.data;

  const exportXlsx = async () => {
    setBusy(true);
    await download(quizCalls.statsExport, `Satisfaccion_${year}${month ? `-${month}` : ''}.xlsx`, { query });
    setBusy(false);
  };

  const chartRows = d?.ranking.ranked ?? [];
  return (
    <Box>
      <Paper sx={{ p: 2, mb: 2, display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {/* SPEC §9: years start at 2016; the newest first. */}
        <YearField value={year} onChange={setYear} newestFirst />
        <MonthField value={month} onChange={setMonth} allYear />
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          Marca y concesionario: {selectors}.
        </Typography>
        {canExport && (
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            onClick={() => void exportXlsx()}
            disabled={busy}
          >
            Exportar a Excel
          </Button>
        )}
      </Paper>
      {stats.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {d && (
        <>
          <Section title="Ranking de concesionarios (top box: calificaciones en el nivel más alto)">
            {chartRows.length > 0 ? (
              <>
                <BarChart
                  height={Math.max(220, 60 + chartRows.length * 36)}
                  layout="horizontal"
                  dataset={chartRows.map((r) => ({
                    dealer: r.dealer_name,
                    top: Math.round((r.top_box ?? 0) * 1000) / 10,
                  }))}
                  yAxis={[{ scaleType: 'band', dataKey: 'dealer', width: 160 }]}
                  xAxis={[{ min: 0, max: 100, label: 'Top box (%)' }]}
                  series={[
                    {
                      dataKey: 'top',
                      label: 'Top box (%)',
                      color: theme.palette.primary.main,
                      valueFormatter: (v) => pct(v === null ? null : v / 100),
                    },
                  ]}
                  margin={{ left: 10, right: 20 }}
                />
                <RankingTable rows={chartRows} label="Ranking" />
              </>
            ) : (
              <Alert severity="info">
                Ningún concesionario alcanza la muestra mínima de {d.ranking.min_sample} respuestas en el
                periodo.
              </Alert>
            )}
            {d.ranking.insufficient.length > 0 && (
              <Box sx={{ mt: 2 }}>
                <Typography variant="subtitle2" gutterBottom>
                  Con muestra insuficiente (menos de {d.ranking.min_sample} respuestas): no se ordenan
                </Typography>
                <RankingTable rows={d.ranking.insufficient} label="Muestra insuficiente" insufficient />
              </Box>
            )}
          </Section>
          <Section title="Cobertura">
            {d.cobertura.length === 0 ? (
              <Alert severity="info">No hay ventas en el periodo.</Alert>
            ) : (
              <Table size="small" aria-label="Cobertura">
                <TableHead>
                  <TableRow>
                    <TableCell>Concesionario</TableCell>
                    <TableCell {...num}>Ventas</TableCell>
                    <TableCell {...num}>Invitaciones</TableCell>
                    <TableCell {...num}>Respuestas</TableCell>
                    <TableCell {...num}>% Respuesta</TableCell>
                    <TableCell {...num}>Contactos inválidos</TableCell>
                    <TableCell {...num}>% Inválidos</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {d.cobertura.map((r) => (
                    <TableRow key={r.dealer_id}>
                      <TableCell>{r.dealer_name}</TableCell>
                      <TableCell {...num}>{count(r.sales)}</TableCell>
                      <TableCell {...num}>{count(r.invitations)}</TableCell>
                      <TableCell {...num}>{count(r.responses)}</TableCell>
                      <TableCell {...num}>{pct(r.response_rate)}</TableCell>
                      <TableCell {...num}>{count(r.invalid_contacts)}</TableCell>
                      <TableCell {...num}>{pct(r.invalid_contact_rate)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Section>
          <Section title="Postventa">
            {d.postventa.length === 0 ? (
              <Alert severity="info">No hay respuestas de encuestas de postventa en el periodo.</Alert>
            ) : (
              <Table size="small" aria-label="Postventa">
                <TableHead>
                  <TableRow>
                    <TableCell>Concesionario / Pregunta</TableCell>
                    <TableCell {...num}>Respuestas</TableCell>
                    <TableCell {...num}>Promedio</TableCell>
                    <TableCell {...num}>Top box</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {d.postventa.flatMap((r) => [
                    <TableRow key={`d${r.dealer_id}`} sx={{ bgcolor: 'grey.50' }}>
                      <TableCell sx={{ fontWeight: 600 }}>{r.dealer_name}</TableCell>
                      <TableCell {...num}>{count(r.responses)}</TableCell>
                      <TableCell {...num}>{avg(r.average)}</TableCell>
                      <TableCell {...num}>{pct(r.top_box)}</TableCell>
                    </TableRow>,
                    ...r.questions.map((q) => (
                      <TableRow key={`d${r.dealer_id}-${q.question}`}>
                        <TableCell sx={{ pl: 4 }}>{q.question}</TableCell>
                        <TableCell {...num}>{count(q.answers)}</TableCell>
                        <TableCell {...num}>{avg(q.average)}</TableCell>
                        <TableCell {...num}>{pct(q.top_box)}</TableCell>
                      </TableRow>
                    )),
                  ])}
                </TableBody>
              </Table>
            )}
          </Section>
        </>
      )}
    </Box>
  );
}
