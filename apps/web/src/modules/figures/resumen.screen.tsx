// /main/resumen: per concept, the month against the same month a year before, the year to date
// of both years and their variation, the fee and compliance; for the toolbar's dealer or the
// whole network. A variation is green when it is good news (for lower-is-better concepts, when
// it goes down).
import { figureCalls, MONTH_SHORT, queryFor, REPORT_QUERIES, type ResumenRow } from '@app/contracts';
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
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { MonthField } from '../../fields/PeriodFields';
import { call, download } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { formatNumber, formatRatio, useCurrencySign } from '../../sheet/numbers';
import { lastMonth, unitKind, YearPicker } from './common';

function Variation({ value, ratio, good }: { value: number | null; ratio: number | null; good: boolean }) {
  if (value === null) return <>—</>;
  const up = value > 0;
  const color = value === 0 ? 'text.secondary' : up === good ? 'success.main' : 'error.main';
  return (
    <Box component="span" sx={{ color, whiteSpace: 'nowrap' }}>
      {`${up ? '▲' : value < 0 ? '▼' : ''} ${formatRatio(ratio)}`}
    </Box>
  );
}

/**
 * The columns the screen is about stay in view while the month and year-to-date ones scroll: the
 * concept pinned left, the fee and compliance pinned right (on a laptop and wider; a phone scrolls
 * them all, the concept still pinned). Widths fit 'S/ 64,215,434.56' and '107.8 % (Ene–Oct)'.
 */
const PINNED_RIGHT = [
  { key: 'fee', width: 132 },
  { key: 'compliance', width: 80 },
  { key: 'ytd_fee', width: 132 },
  { key: 'ytd_compliance', width: 150 },
] as const;
const rightOf = (i: number) => PINNED_RIGHT.slice(i + 1).reduce((s, c) => s + c.width, 0);
const pinRight = (i: number, head = false) => ({
  position: { md: 'sticky' },
  right: { md: rightOf(i) },
  zIndex: head ? 3 : 1,
  bgcolor: 'background.paper',
  minWidth: PINNED_RIGHT[i].width,
  width: PINNED_RIGHT[i].width,
  ...(i === 0 ? { borderLeft: 1, borderLeftColor: 'divider' } : {}),
});
const pinLeft = (head = false) => ({
  position: 'sticky',
  left: 0,
  zIndex: head ? 3 : 1,
  bgcolor: 'background.paper',
  minWidth: { xs: 130, md: 200 },
  maxWidth: { xs: 150, md: 240 },
  whiteSpace: 'normal',
  borderRight: 1,
  borderRightColor: 'divider',
});

/** 'Ene–Oct' for consecutive months from January, else 'Ene, Mar, Abr'. */
function monthsLabel(months: number[]): string {
  const short = (m: number) => MONTH_SHORT[m - 1];
  if (months.length > 1 && months.every((m, i) => m === months[0] + i))
    return `${short(months[0])}–${short(months[months.length - 1])}`;
  return months.map(short).join(', ');
}

export default function ResumenScreen() {
  const start = useUrlPeriod(lastMonth());
  const [year, setYear] = useState(start.year);
  const [month, setMonth] = useState(start.month);
  const { dealerId } = useGlobalFilters();
  const canExport = usePermission('Figures.Resumen.export');
  const currency = useCurrencySign();
  const query = queryFor(REPORT_QUERIES.resumen, { year, month, dealer_id: dealerId || undefined });
  const answer = useQuery({
    queryKey: ['resumen', query],
    queryFn: () => call(figureCalls.resumen, { query }),
    placeholderData: keepPreviousData,
  });
  const rows = answer.data?.rows ?? [];
  const groups = [...new Set(rows.map((r) => r.group ?? ''))];
  const n = (r: ResumenRow, v: number | null) =>
    v === null ? '—' : formatNumber(v, unitKind(r.unit), currency);
  const m = MONTH_SHORT[month - 1];
  const num = { align: 'right' as const, sx: { whiteSpace: 'nowrap' } };
  const pinned = (i: number, head = false) => ({
    align: 'right' as const,
    sx: { whiteSpace: 'nowrap', ...pinRight(i, head) },
  });

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6" sx={{ mr: 1 }}>
          Resumen Comparativo
        </Typography>
        <YearPicker value={year} onChange={setYear} />
        <MonthField value={month} onChange={setMonth} />
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {answer.data?.dealer_name ?? 'Toda la red'}
        </Typography>
        {canExport && (
          <Button
            startIcon={<FileDownload />}
            onClick={() => download(figureCalls.resumenExport, `Resumen_Comparativo_${year}.xlsx`, { query })}
          >
            Exportar
          </Button>
        )}
      </Stack>
      {answer.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {answer.data && !rows.some((r) => r.month !== null || r.ytd !== null) && (
        <Alert severity="info" sx={{ mb: 1 }}>
          No hay cifras registradas para este periodo.
        </Alert>
      )}
      {/* A scrolling table takes focus, so a keyboard scrolls it (axe: scrollable-region-focusable). */}
      <Box tabIndex={0} role="group" aria-label="Tabla del resumen comparativo" sx={{ overflowX: 'auto' }}>
        <Table
          size="small"
          aria-label="Resumen comparativo"
          sx={{ '& .MuiTableCell-root': { px: 1, fontSize: 13, fontVariantNumeric: 'tabular-nums' } }}
        >
          <TableHead>
            <TableRow>
              <TableCell rowSpan={2} sx={pinLeft(true)}>
                Concepto
              </TableCell>
              <TableCell colSpan={3} align="center">{`Mes (${m})`}</TableCell>
              <TableCell colSpan={3} align="center">{`Acumulado (Ene-${m})`}</TableCell>
              <TableCell
                colSpan={4}
                align="center"
                sx={{ position: { md: 'sticky' }, right: { md: 0 }, zIndex: 3, bgcolor: 'background.paper' }}
              >
                Cuota y cumplimiento
              </TableCell>
            </TableRow>
            <TableRow>
              <TableCell {...num}>{year}</TableCell>
              <TableCell {...num}>{year - 1}</TableCell>
              <TableCell {...num}>Var.</TableCell>
              <TableCell {...num}>{year}</TableCell>
              <TableCell {...num}>{year - 1}</TableCell>
              <TableCell {...num}>Var.</TableCell>
              <TableCell {...pinned(0, true)}>{`Cuota ${m}`}</TableCell>
              <TableCell {...pinned(1, true)}>Cumpl.</TableCell>
              <TableCell {...pinned(2, true)}>Cuota acum.</TableCell>
              <TableCell {...pinned(3, true)}>Cumpl. acum.</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {groups.map((g) => (
              <Fragment key={g}>
                <TableRow>
                  <TableCell sx={{ ...pinLeft(), bgcolor: 'grey.100', fontWeight: 600 }}>
                    {g || 'Sin grupo'}
                  </TableCell>
                  <TableCell colSpan={10} sx={{ bgcolor: 'grey.100' }} />
                </TableRow>
                {rows
                  .filter((r) => (r.group ?? '') === g)
                  .map((r) => (
                    <TableRow key={r.concept_id} hover>
                      <TableCell sx={pinLeft()}>{r.name}</TableCell>
                      <TableCell {...num}>{n(r, r.month)}</TableCell>
                      <TableCell {...num}>{n(r, r.month_prev)}</TableCell>
                      <TableCell {...num}>
                        <Variation value={r.month_var} ratio={r.month_var_pct} good={r.higher_is_better} />
                      </TableCell>
                      <TableCell {...num}>{n(r, r.ytd)}</TableCell>
                      <TableCell {...num}>{n(r, r.ytd_prev)}</TableCell>
                      <TableCell {...num}>
                        <Variation value={r.ytd_var} ratio={r.ytd_var_pct} good={r.higher_is_better} />
                      </TableCell>
                      <TableCell {...pinned(0)}>{n(r, r.fee)}</TableCell>
                      <TableCell {...pinned(1)}>{formatRatio(r.compliance)}</TableCell>
                      <TableCell {...pinned(2)}>{n(r, r.ytd_fee)}</TableCell>
                      <TableCell {...pinned(3)}>
                        {formatRatio(r.ytd_compliance)}
                        {r.ytd_compliance !== null && r.ytd_compliance_months.length < month && (
                          <Typography
                            component="span"
                            variant="caption"
                            color="text.secondary"
                            sx={{ ml: 0.5 }}
                          >
                            ({monthsLabel(r.ytd_compliance_months)})
                          </Typography>
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
              </Fragment>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        Cumpl. acum. compara las cifras y las cuotas de los mismos meses: los que tienen cifra y cuota (entre
        paréntesis, cuando no son todos). Los conceptos de promedio (%, días) promedian sus meses y, en la
        red, sus concesionarios.
      </Typography>
    </Paper>
  );
}
