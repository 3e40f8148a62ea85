// /main/resumen: per concept, the month against the same month a year before, the year to date
// of both years and their variation, the fee and compliance; for the toolbar's dealer or the
// whole network. A variation is green when it is good news (for lower-is-better concepts, when
// it goes down).
import {
  figureCalls,
  formatPointChange,
  MONTH_SHORT,
  queryFor,
  REPORT_QUERIES,
  type ResumenRow,
} from '@app/contracts';
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
  useMediaQuery,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode, useLayoutEffect, useState } from 'react';
import { MonthField } from '../../fields/PeriodFields';
import { call, download } from '../../lib/http';
import { useUrlPeriod } from '../../lib/urlPeriod';
import { useGlobalFilters } from '../../session/filters';
import { usePermission } from '../../session/session';
import { formatNumber, formatRatio, useCurrencySign } from '../../sheet/numbers';
import { lastMonth, unitKind, YearPicker } from './common';

/**
 * A variation: in per cent of last year's value ('▼ -11.3 %'), or for a percentage concept in
 * points ('▲ +0.4 pp': 17.4 % to 17.8 % rose 0.4 points, not 2.3 %).
 */
function Variation({
  value,
  ratio,
  good,
  points,
}: {
  value: number | null;
  ratio: number | null;
  good: boolean;
  points: boolean;
}) {
  if (value === null) return <>—</>;
  // What rounds to 0.0 is no change: neutral, without an arrow.
  const shown = points ? Math.round(value * 10) : ratio === null ? value : Math.round(ratio * 1000);
  const up = value > 0;
  const color = shown === 0 ? 'text.secondary' : up === good ? 'success.main' : 'error.main';
  const arrow = shown === 0 ? '' : up ? '▲ ' : value < 0 ? '▼ ' : '';
  return (
    <Box component="span" sx={{ color, whiteSpace: 'nowrap' }}>
      {`${arrow}${points ? formatPointChange(value) : formatRatio(ratio)}`}
    </Box>
  );
}

/**
 * The columns the screen is about stay in view while the month and year-to-date ones scroll: the
 * concept pinned left, the fee and compliance pinned right (on a laptop and wider; a phone scrolls
 * them all, the concept still pinned). Every column takes the width of what it holds (the network's
 * 'S/ 555,433,872.68' included), so at 1440 px with the menu open the whole table fits and nothing
 * scrolls; narrower, the pinned block's offsets are measured (usePinnedOffsets), not guessed, so
 * it never covers part of itself.
 */
const PINNED = 4;
const pinRight = (right: number, first: boolean, head = false) => ({
  position: { md: 'sticky' },
  right: { md: right },
  zIndex: head ? 3 : 1,
  bgcolor: 'background.paper',
  ...(first ? { borderLeft: 1, borderLeftColor: 'divider' } : {}),
});
const pinLeft = (head = false) => ({
  position: 'sticky',
  left: 0,
  zIndex: head ? 3 : 1,
  bgcolor: 'background.paper',
  minWidth: { xs: 130, md: 150 },
  maxWidth: { xs: 150, md: 220 },
  whiteSpace: 'normal',
  borderRight: 1,
  borderRightColor: 'divider',
});

/**
 * The `right` offset of each pinned column: the widths of the pinned columns after it, read from
 * the header's cells whenever one of them changes width (the rows, the window, the menu).
 */
function usePinnedOffsets(table: HTMLTableElement | null): number[] {
  const [offsets, setOffsets] = useState<number[]>(() => Array(PINNED).fill(0));
  useLayoutEffect(() => {
    if (!table) return;
    const cells = [...table.querySelectorAll<HTMLElement>('thead [data-pinned]')];
    if (cells.length !== PINNED) return;
    const measure = () => {
      const widths = cells.map((c) => c.getBoundingClientRect().width);
      const next = widths.map((_, i) => widths.slice(i + 1).reduce((sum, w) => sum + w, 0));
      setOffsets((prev) => (prev.every((v, i) => Math.abs(v - next[i]) < 0.5) ? prev : next));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    for (const c of cells) observer.observe(c);
    return () => observer.disconnect();
  }, [table]);
  return offsets;
}

/** 'Ene–Oct' for consecutive months from January, else 'Ene, Mar, Abr'. */
function monthsLabel(months: number[]): string {
  const short = (m: number) => MONTH_SHORT[m - 1];
  if (months.length > 1 && months.every((m, i) => m === months[0] + i))
    return `${short(months[0])}–${short(months[months.length - 1])}`;
  return months.map(short).join(', ');
}

/**
 * A phone's reading: a small table per concept, the month and the year to date side by side
 * (this year, last year, variation, fee, compliance), so every number is whole on 390 px without
 * scrolling sideways.
 */
function PhoneConcept({
  r,
  n,
  m,
  year,
  month,
}: {
  r: ResumenRow;
  n: (r: ResumenRow, v: number | null) => string;
  m: string;
  year: number;
  month: number;
}) {
  const line = (label: string, month: ReactNode, ytd: ReactNode) => (
    <TableRow>
      <TableCell component="th" scope="row" sx={{ color: 'text.secondary' }}>
        {label}
      </TableCell>
      <TableCell align="right">{month}</TableCell>
      <TableCell align="right">{ytd}</TableCell>
    </TableRow>
  );
  return (
    <Box sx={{ py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Table
        size="small"
        aria-label={r.name}
        sx={{
          '& .MuiTableCell-root': {
            px: '4px',
            py: '2px',
            border: 0,
            fontSize: 13,
            whiteSpace: 'nowrap',
            fontVariantNumeric: 'tabular-nums',
          },
        }}
      >
        <caption style={{ captionSide: 'top', textAlign: 'left', padding: '0 4px 4px', fontWeight: 600 }}>
          {r.name}
        </caption>
        <TableHead>
          <TableRow>
            <TableCell />
            <TableCell align="right">{`Mes (${m})`}</TableCell>
            <TableCell align="right">{`Acum. (Ene–${m})`}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {line(String(year), n(r, r.month), n(r, r.ytd))}
          {line(String(year - 1), n(r, r.month_prev), n(r, r.ytd_prev))}
          {line(
            'Var.',
            <Variation
              value={r.month_var}
              ratio={r.month_var_pct}
              good={r.higher_is_better}
              points={r.unit === 'PCT'}
            />,
            <Variation
              value={r.ytd_var}
              ratio={r.ytd_var_pct}
              good={r.higher_is_better}
              points={r.unit === 'PCT'}
            />,
          )}
          {line('Cuota', n(r, r.fee), n(r, r.ytd_fee))}
          {line('Cumpl.', formatRatio(r.compliance), <CompliancePeriod r={r} month={month} />)}
        </TableBody>
      </Table>
    </Box>
  );
}

/** The accumulated compliance, with the months it covers when they are not all of them. */
function CompliancePeriod({ r, month }: { r: ResumenRow; month: number }) {
  return (
    <>
      {formatRatio(r.ytd_compliance)}
      {r.ytd_compliance !== null && r.ytd_compliance_months.length < month && (
        <Typography
          component="span"
          variant="caption"
          color="text.secondary"
          sx={{ display: 'block', lineHeight: 1.2 }}
        >
          ({monthsLabel(r.ytd_compliance_months)})
        </Typography>
      )}
    </>
  );
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
  // A measure (hours, days: a sum or an average over months and dealers) with two decimals in
  // every cell, so a column reads alike (3.16, 3.20, 3.22; not 3.16 beside 3.2).
  const n = (r: ResumenRow, v: number | null) =>
    v === null
      ? '—'
      : formatNumber(v, unitKind(r.unit), currency, unitKind(r.unit) === 'number' ? 2 : undefined);
  const m = MONTH_SHORT[month - 1];
  const num = { align: 'right' as const, sx: { whiteSpace: 'nowrap' } };
  const phone = useMediaQuery((t) => t.breakpoints.down('sm'));
  const [table, setTable] = useState<HTMLTableElement | null>(null);
  const offsets = usePinnedOffsets(table);
  // A pinned header may wrap ('Cuota' over 'acum.') rather than widen its column; a value never.
  const pinned = (i: number, head = false) => ({
    align: 'right' as const,
    ...(head ? { 'data-pinned': i } : {}),
    sx: { whiteSpace: head ? 'normal' : 'nowrap', ...pinRight(offsets[i], i === 0, head) },
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
      {phone ? (
        <Box>
          {groups.map((g) => (
            <Box key={g} component="section" aria-label={g || 'Sin grupo'}>
              <Typography
                variant="subtitle2"
                component="h3"
                sx={{ bgcolor: 'grey.100', px: 0.5, py: 0.5, mt: 1 }}
              >
                {g || 'Sin grupo'}
              </Typography>
              {rows
                .filter((r) => (r.group ?? '') === g)
                .map((r) => (
                  <PhoneConcept key={r.concept_id} r={r} n={n} m={m} year={year} month={month} />
                ))}
            </Box>
          ))}
        </Box>
      ) : (
        <>
          {/* A scrolling table takes focus, so a keyboard scrolls it (axe: scrollable-region-focusable). */}
          <Box
            tabIndex={0}
            role="group"
            aria-label="Tabla del resumen comparativo"
            sx={{ overflowX: 'auto' }}
          >
            <Table
              ref={setTable}
              size="small"
              aria-label="Resumen comparativo"
              sx={{ '& .MuiTableCell-root': { px: '5px', fontSize: 13, fontVariantNumeric: 'tabular-nums' } }}
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
                    sx={{
                      position: { md: 'sticky' },
                      right: { md: 0 },
                      zIndex: 3,
                      bgcolor: 'background.paper',
                    }}
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
                            <Variation
                              value={r.month_var}
                              ratio={r.month_var_pct}
                              good={r.higher_is_better}
                              points={r.unit === 'PCT'}
                            />
                          </TableCell>
                          <TableCell {...num}>{n(r, r.ytd)}</TableCell>
                          <TableCell {...num}>{n(r, r.ytd_prev)}</TableCell>
                          <TableCell {...num}>
                            <Variation
                              value={r.ytd_var}
                              ratio={r.ytd_var_pct}
                              good={r.higher_is_better}
                              points={r.unit === 'PCT'}
                            />
                          </TableCell>
                          <TableCell {...pinned(0)}>{n(r, r.fee)}</TableCell>
                          <TableCell {...pinned(1)}>{formatRatio(r.compliance)}</TableCell>
                          <TableCell {...pinned(2)}>{n(r, r.ytd_fee)}</TableCell>
                          <TableCell {...pinned(3)}>
                            <CompliancePeriod r={r} month={month} />
                          </TableCell>
                        </TableRow>
                      ))}
                  </Fragment>
                ))}
              </TableBody>
            </Table>
          </Box>
        </>
      )}
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        Cumpl. acum. compara las cifras y las cuotas de los mismos meses: los que tienen cifra y cuota (entre
        paréntesis, cuando no son todos). Los conceptos de promedio (%, días) promedian sus meses y, en la
        red, sus concesionarios.
      </Typography>
    </Paper>
  );
}
