// /main/fee: the monthly targets (cuotas) of a year, a row per dealer and concept with the twelve
// months and the year's total, totals per unit below. The manufacturer types or pastes them,
// exports the grid and uploads the same file back; a dealer user reads its own.
import {
  aggregate,
  CONCEPT_UNITS,
  type ConceptAggregation,
  type ConceptRow,
  feeCalls,
  type GridImportReport,
  MONTH_SHORT,
  messages,
} from '@app/contracts';
import FileDownload from '@mui/icons-material/FileDownload';
import { Box, Button, LinearProgress, Paper, Stack, Typography } from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { call, download } from '../../lib/http';
import { useGlobalFilters } from '../../session/filters';
import { usePermission, useSession } from '../../session/session';
import { useCurrencySign } from '../../sheet/numbers';
import { Sheet, type SheetColumn } from '../../sheet/Sheet';
import {
  conceptRules,
  lastMonth,
  measureDecimals,
  ReportDialog,
  UploadButton,
  unitKind,
  unitTotals,
  YearPicker,
} from './common';

const unitName = new Map<string, string>(CONCEPT_UNITS.map((u) => [u.id, u.name]));
type FeeLine = {
  key: string;
  dealer_id: number;
  dealer_name: string;
  concept_id: number;
  name: string;
  unit: string | null;
  aggregation: ConceptAggregation;
  unit_name: string;
  concept: ConceptRow;
} & Record<string, unknown>;

export default function FeeScreen() {
  const [year, setYear] = useState(lastMonth().year);
  const [report, setReport] = useState<GridImportReport | null>(null);
  const { dealerId } = useGlobalFilters();
  const isDealer = useSession((s) => !!s.info?.user?.isDealer);
  const canUpdate = usePermission('Fees.update') && !isDealer;
  const canExport = usePermission('Fees.export');
  const queryClient = useQueryClient();
  const currency = useCurrencySign();
  const query = { year, dealer_id: dealerId || undefined };
  const answer = useQuery({
    queryKey: ['fees', query],
    queryFn: () => call(feeCalls.grid, { query }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['fees'] });
  const d = answer.data;
  const oneDealer = (d?.fees.dealers.length ?? 0) === 1;

  const grid = useMemo(() => {
    if (!d) return null;
    const value = new Map(d.fees.values.map((v) => [`${v.dealer_id}:${v.concept_id}:${v.month}`, v.value]));
    const rows: FeeLine[] = d.fees.dealers.flatMap((dealer) =>
      d.list.map((c) => {
        const r: FeeLine = {
          key: `${dealer.id}:${c.id}`,
          dealer_id: dealer.id,
          dealer_name: `${dealer.code} - ${dealer.name}`,
          concept_id: c.id,
          name: c.name,
          unit: c.unit,
          aggregation: c.aggregation,
          unit_name: unitName.get(c.unit ?? '') ?? '',
          concept: c,
        };
        for (let m = 1; m <= 12; m++) r[`m${m}`] = value.get(`${dealer.id}:${c.id}:${m}`) ?? null;
        return r;
      }),
    );
    const columns: SheetColumn<FeeLine>[] = [
      ...(oneDealer
        ? []
        : [{ key: 'dealer_name', title: 'Concesionario', type: 'label' as const, width: 230 }]),
      { key: 'name', title: 'Concepto', type: 'label', width: 290 },
      { key: 'unit_name', title: 'Unidad', type: 'label', width: 90 },
      ...MONTH_SHORT.map((title, i) => ({
        key: `m${i + 1}`,
        title,
        type: 'number' as const,
        width: 150,
        kind: (r: FeeLine) => unitKind(r.unit),
        decimals: (r: FeeLine) => measureDecimals(r.concept),
        editable: canUpdate,
        ...conceptRules<FeeLine>(
          (r) => r.concept,
          (key) => `${MONTH_SHORT[Number(key.slice(1)) - 1]} ${year}`,
          currency,
        ),
      })),
    ];
    return { rows, columns };
  }, [d, oneDealer, canUpdate, year, currency]);

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="h6" sx={{ mr: 1 }}>
          Cuotas
        </Typography>
        <YearPicker value={year} onChange={setYear} />
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {oneDealer ? d?.fees.dealers[0]?.name : 'Todos los concesionarios'}
        </Typography>
        {canExport && (
          <Button
            startIcon={<FileDownload />}
            onClick={() => download(feeCalls.export, `Cuotas_${year}.xlsx`, { query })}
          >
            Exportar
          </Button>
        )}
        {canUpdate && (
          <UploadButton
            upload={feeCalls.import}
            onDone={(r) => {
              setReport(r);
              void refresh();
            }}
          />
        )}
      </Stack>
      {answer.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {grid && d && (
        <Box>
          <Sheet
            label="Cuotas"
            rows={grid.rows}
            columns={grid.columns}
            rowKey={(r) => r.key}
            rowTotal={{
              title: `Total ${year}`,
              keys: MONTH_SHORT.map((_, i) => `m${i + 1}`),
              aggregate: (values, r) => aggregate(values, r.aggregation),
            }}
            totals={unitTotals<FeeLine>(d.list)}
            onSave={
              canUpdate
                ? async (changes) => {
                    await call(feeCalls.batch, {
                      body: {
                        year,
                        values: changes.map((c) => ({
                          dealer_id: c.row.dealer_id,
                          concept_id: c.row.concept_id,
                          month: Number(c.key.slice(1)),
                          value: c.value,
                        })),
                      },
                    });
                    enqueueSnackbar(messages.saved, { variant: 'success' });
                    await refresh();
                  }
                : undefined
            }
          />
        </Box>
      )}
      <ReportDialog title="Carga de cuotas" result={report} onClose={() => setReport(null)} />
    </Paper>
  );
}
