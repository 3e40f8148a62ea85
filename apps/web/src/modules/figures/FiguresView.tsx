// The figures grid. For one dealer (always for a dealer user): a row per concept, the twelve
// months as columns (typed only in the enabled months), the year's total, the month's fee and
// compliance beside them, totals per unit below. For every dealer ('Todos'): a row per dealer
// with its state and a column per concept for the chosen month, with the network's totals.
import {
  aggregate,
  CONCEPT_UNITS,
  type ConceptRow,
  compliance,
  figureCalls,
  formatDay,
  type GridImportReport,
  MONTH_NAMES,
  MONTH_SHORT,
  messages,
  type PeriodState,
  periodName,
} from '@app/contracts';
import CloudSync from '@mui/icons-material/CloudSync';
import FileDownload from '@mui/icons-material/FileDownload';
import { Alert, Box, Button, LinearProgress, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { call, download } from '../../lib/http';
import { useCurrencySign } from '../../sheet/numbers';
import { Sheet, type SheetChange, type SheetColumn } from '../../sheet/Sheet';
import {
  conceptRules,
  measureDecimals,
  ReportDialog,
  StatusChip,
  statusName,
  UploadButton,
  unitKind,
  unitTotals,
} from './common';
import { PeriodActions } from './PeriodActions';

const unitName = new Map<string, string>(CONCEPT_UNITS.map((u) => [u.id, u.name]));
const DOT: Record<string, string> = { closed: '#bdbdbd', enabled: '#1976d2', confirmed: '#2e7d32' };

interface Props {
  year: number;
  month: number;
  dealerId: number;
  manufacturer: boolean;
  canUpdate: boolean;
  canExport: boolean;
}

type ConceptLine = ConceptRow & Record<string, unknown>;
type DealerLine = { dealer_id: number; dealer_name: string; status: string } & Record<string, unknown>;

function MonthTitle({ month, status }: { month: number; status?: string }) {
  return (
    <Tooltip title={`${MONTH_NAMES[month - 1]}: ${status ? statusName(status as never) : ''}`}>
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
        <Box
          component="span"
          sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: DOT[status ?? 'closed'] }}
        />
        {MONTH_SHORT[month - 1]}
      </Box>
    </Tooltip>
  );
}

export function FiguresView({ year, month, dealerId, manufacturer, canUpdate, canExport }: Props) {
  const queryClient = useQueryClient();
  const currency = useCurrencySign();
  const [dirty, setDirty] = useState(false);
  const [report, setReport] = useState<{ title: string; result: GridImportReport } | null>(null);
  const oneDealer = dealerId > 0;
  const query = { year, month: oneDealer ? undefined : month, dealer_id: dealerId || undefined };
  const answer = useQuery({
    queryKey: ['figures', query],
    queryFn: () => call(figureCalls.grid, { query }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['figures'] });
  const d = answer.data;
  const statusOf = useMemo(() => {
    const m = new Map<string, PeriodState>();
    for (const p of d?.figures.periods ?? []) m.set(`${p.dealer_id}:${p.month}`, p);
    return m;
  }, [d]);

  const save = async (
    values: { dealer_id?: number; concept_id: number; month: number; value: number | null }[],
  ) => {
    await call(figureCalls.batch, { body: { year, dealer_id: dealerId || undefined, values } });
    enqueueSnackbar(messages.saved, { variant: 'success' });
    await refresh();
  };

  const dealerGrid = useMemo(() => {
    if (!d || !oneDealer) return null;
    const dealer = d.figures.dealers[0];
    const value = new Map(d.figures.values.map((v) => [`${v.concept_id}:${v.month}`, v.value]));
    const fee = new Map(d.figures.fees.map((v) => [`${v.concept_id}:${v.month}`, v.value]));
    const rows: ConceptLine[] = d.list.map((c) => {
      const r: ConceptLine = { ...c, unit_name: unitName.get(c.unit ?? '') ?? '' };
      for (let m = 1; m <= 12; m++) {
        r[`m${m}`] = value.get(`${c.id}:${m}`) ?? null;
        r[`f${m}`] = fee.get(`${c.id}:${m}`) ?? null;
      }
      return r;
    });
    const editable = (m: number) => canUpdate && statusOf.get(`${dealer?.id}:${m}`)?.status === 'enabled';
    // Months 1..month that have both a figure and a fee: the accumulated compliance compares
    // the same months on both sides (a month without a fee leaves its figure out too).
    const paired = (r: ConceptLine, prefix: string) =>
      Array.from({ length: month }, (_, i) => {
        const fig = r[`m${i + 1}`];
        const fee = r[`f${i + 1}`];
        return typeof fig === 'number' && typeof fee === 'number' ? (r[`${prefix}${i + 1}`] as number) : null;
      });
    // A month column's cells follow their row's concept: its kind refuses, its range warns.
    const rules = conceptRules<ConceptLine>(
      (r) => r,
      (key) => `${MONTH_SHORT[Number(key.slice(1)) - 1]} ${year}`,
      currency,
    );
    const columns: SheetColumn<ConceptLine>[] = [
      { key: 'name', title: 'Concepto', type: 'label', width: 290 },
      { key: 'unit_name', title: 'Unidad', type: 'label', width: 90 },
      ...Array.from({ length: 12 }, (_, i) => ({
        key: `m${i + 1}`,
        title: <MonthTitle month={i + 1} status={statusOf.get(`${dealer?.id}:${i + 1}`)?.status} />,
        label: MONTH_NAMES[i],
        type: 'number' as const,
        // 'S/ 4,263,892.07' whole, with room on both sides.
        width: 150,
        kind: (r: ConceptLine) => unitKind(r.unit),
        decimals: measureDecimals,
        editable: editable(i + 1),
        ...rules,
      })),
      {
        key: `f${month}`,
        title: `Cuota ${MONTH_SHORT[month - 1]}`,
        type: 'number',
        width: 150,
        kind: (r) => unitKind(r.unit),
        decimals: measureDecimals,
      },
      {
        key: 'comp',
        title: `Cumpl. ${MONTH_SHORT[month - 1]}`,
        type: 'number',
        width: 110,
        kind: 'percent',
        empty: '—',
        total: false,
        compute: (r) =>
          pct(
            compliance(r[`m${month}`] as number | null, r[`f${month}`] as number | null, r.higher_is_better),
          ),
      },
      {
        key: 'ytd',
        title: 'Cumpl. acumulado',
        type: 'number',
        width: 130,
        kind: 'percent',
        empty: '—',
        total: false,
        compute: (r) =>
          pct(
            compliance(
              aggregate(paired(r, 'm'), r.aggregation),
              aggregate(paired(r, 'f'), r.aggregation),
              r.higher_is_better,
            ),
          ),
      },
    ];
    return { dealer, rows, columns };
  }, [d, oneDealer, canUpdate, statusOf, month, year, currency]);

  const networkGrid = useMemo(() => {
    if (!d || oneDealer) return null;
    const byDealer = new Map<number, DealerLine>(
      d.figures.dealers.map((x) => [
        x.id,
        {
          dealer_id: x.id,
          dealer_name: `${x.code} - ${x.name}`,
          status: statusName(statusOf.get(`${x.id}:${month}`)?.status ?? 'closed'),
        },
      ]),
    );
    for (const v of d.figures.values) {
      const row = byDealer.get(v.dealer_id);
      if (row) row[`c${v.concept_id}`] = v.value;
    }
    const rows = [...byDealer.values()];
    const columns: SheetColumn<DealerLine>[] = [
      { key: 'dealer_name', title: 'Concesionario', type: 'label', width: 260 },
      { key: 'status', title: 'Estado', type: 'label', width: 110 },
      ...d.list.map((c) => ({
        key: `c${c.id}`,
        // The concept's name, as a manager reads it (in up to three lines), its code on hover.
        title: (
          <Tooltip title={c.code}>
            <span className="sheet-head-wrap">{c.name}</span>
          </Tooltip>
        ),
        label: c.name,
        type: 'number' as const,
        width: c.unit === 'PEN' ? 155 : 120,
        kind: unitKind(c.unit),
        decimals: () => measureDecimals(c),
        total: c.aggregation === 'avg' ? ('avg' as const) : ('sum' as const),
        editable: (r: DealerLine) =>
          canUpdate && statusOf.get(`${r.dealer_id}:${month}`)?.status === 'enabled',
        ...conceptRules<DealerLine>(
          () => c,
          () => periodName(year, month),
          currency,
        ),
      })),
    ];
    return { rows, columns };
  }, [d, oneDealer, canUpdate, statusOf, month, year, currency]);

  const period =
    oneDealer && dealerGrid?.dealer ? (statusOf.get(`${dealerGrid.dealer.id}:${month}`) ?? null) : null;
  const exportFile = () =>
    download(figureCalls.export, `Cifras_${year}.xlsx`, {
      query: { year, dealer_id: dealerId || undefined },
    });
  const casis = async () => {
    try {
      const result = await call(figureCalls.casis, {
        body: { year, month, dealer_id: dealerId || undefined },
      });
      setReport({ title: `CASIS: ${periodName(year, month)}`, result });
      await refresh();
    } catch {
      // toast
    }
  };

  const toolbar = (
    <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      {period && (
        <>
          <Typography variant="body2">{`${periodName(year, month)}:`}</Typography>
          <StatusChip status={period.status} />
          {period.confirmed_at && (
            <Typography variant="caption" color="text.secondary">
              {`Confirmado por ${period.confirmed_by_name ?? '—'} el ${formatDay(period.confirmed_at)}`}
            </Typography>
          )}
          {period.status === 'enabled' && period.reopen_reason && (
            <Typography
              variant="caption"
              color="text.secondary"
            >{`Reabierto: ${period.reopen_reason}`}</Typography>
          )}
        </>
      )}
      <Box sx={{ flex: 1 }} />
      <PeriodActions
        year={year}
        month={month}
        period={period}
        dealerName={dealerGrid?.dealer?.name}
        manufacturer={manufacturer}
        canUpdate={canUpdate}
        dirty={dirty}
        onChanged={refresh}
        emptyConcepts={
          dealerGrid ? dealerGrid.rows.filter((r) => r[`m${month}`] === null).map((r) => r.name) : undefined
        }
      />
      {canExport && (
        <Button startIcon={<FileDownload />} onClick={exportFile}>
          Exportar
        </Button>
      )}
      {canUpdate && (
        <UploadButton
          upload={figureCalls.import}
          onDone={(result) => {
            setReport({ title: 'Carga de cifras', result });
            void refresh();
          }}
        />
      )}
      {canUpdate && (
        <Button startIcon={<CloudSync />} onClick={casis}>
          Traer de CASIS
        </Button>
      )}
    </Stack>
  );

  return (
    <Paper sx={{ p: 2 }}>
      {toolbar}
      {answer.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {d && !d.list.length && (
        <Alert severity="info">No hay conceptos habilitados: regístrelos en Conceptos.</Alert>
      )}
      {period?.status === 'closed' && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {manufacturer
            ? `${periodName(year, month)} está cerrado: habilítelo para que el concesionario registre sus cifras.`
            : `${periodName(year, month)} aún no está habilitado: el fabricante lo habilitará para registrar las cifras.`}
        </Alert>
      )}
      {dealerGrid && (
        <Sheet
          label="Cifras del concesionario"
          rows={dealerGrid.rows}
          columns={dealerGrid.columns}
          rowKey={(r) => String(r.id)}
          rowTotal={{
            title: `Total ${year}`,
            keys: Array.from({ length: 12 }, (_, i) => `m${i + 1}`),
            aggregate: (values, r) => aggregate(values, r.aggregation),
          }}
          totals={unitTotals<ConceptLine>(d!.list)}
          startColumn={`m${month}`}
          onDirtyChange={setDirty}
          onSave={
            canUpdate
              ? (changes: SheetChange<ConceptLine>[]) =>
                  save(
                    changes.map((c) => ({
                      concept_id: c.row.id,
                      month: Number(c.key.slice(1)),
                      value: c.value,
                    })),
                  )
              : undefined
          }
        />
      )}
      {networkGrid && (
        <Sheet
          label="Cifras de la red"
          headerHeight={58}
          rows={networkGrid.rows}
          columns={networkGrid.columns}
          rowKey={(r) => String(r.dealer_id)}
          totals={[{ label: 'Total red' }]}
          onDirtyChange={setDirty}
          onSave={
            canUpdate
              ? (changes: SheetChange<DealerLine>[]) =>
                  save(
                    changes.map((c) => ({
                      dealer_id: c.row.dealer_id,
                      concept_id: Number(c.key.slice(1)),
                      month,
                      value: c.value,
                    })),
                  )
              : undefined
          }
        />
      )}
      <ReportDialog
        title={report?.title ?? ''}
        result={report?.result ?? null}
        onClose={() => setReport(null)}
      />
    </Paper>
  );
}

/** Compliance as the grid's percent (85.3), or null. */
const pct = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);
