// /agreement (Seguimiento): the agreements list on the generic screen, filtered by zone, dealer
// (toolbar selector), level and status (column filters), due date range and 'Solo vencidos';
// the open ones by age above it; per row the history with comments and, for the manufacturer,
// the notice mailed to the dealer's contacts. A dealer user only moves its agreements' status.
import {
  AGREEMENT_DEFAULTS,
  agreementCalls,
  agreementContract,
  dealerContract,
  queryFor,
  REPORT_QUERIES,
  resourceCalls,
  zoneContract,
} from '@app/contracts';
import Forum from '@mui/icons-material/Forum';
import Send from '@mui/icons-material/Send';
import {
  Box,
  Chip,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { DateRangeFilter } from '../../fields/DateRangeFilter';
import { call } from '../../lib/http';
import { useUrlDateRange } from '../../lib/urlPeriod';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { useGlobalFilters } from '../../session/filters';
import { usePermission, useSession } from '../../session/session';
import { AgeChip, LevelChip, StatusChip } from './chips';
import { HistoryDialog } from './HistoryDialog';
import { NotifyDialog } from './NotifyDialog';

const columns = [
  'due_date',
  'zone_name',
  'dealer_name',
  'title',
  { field: 'level', render: (row: Record<string, any>) => <LevelChip level={row.level} /> },
  { field: 'status', render: (row: Record<string, any>) => <StatusChip status={row.status} /> },
  'responsible',
  { field: 'age_days', render: (row: Record<string, any>) => <AgeChip days={row.age_days} /> },
];

const FILTER_KEYS = ['due_from', 'due_to', 'overdue'];
const toBody = (values: Record<string, any>) =>
  Object.fromEntries(Object.entries(values).filter(([k]) => !FILTER_KEYS.includes(k)));

/** The manufacturer's dialog: what was agreed, with whom and by when (SPEC §3 defaults). */
export const agreementScreen = defineScreen({
  contract: agreementContract,
  columns,
  actionsWidth: 150,
  dialogWidth: 800,
  form: [
    {
      name: 'dealer_id',
      default: AGREEMENT_DEFAULTS.dealer_id,
      cols: 6,
      // The zone follows the dealer (the server files it so too, whatever is sent).
      fills: async (dealerId) => {
        if (!dealerId) return undefined;
        const d = (await call(
          resourceCalls(dealerContract).get,
          { params: { id: Number(dealerId) } },
          { silent: true },
        )) as { zone_id: number | null };
        return d.zone_id ? { zone_id: d.zone_id } : undefined;
      },
    },
    {
      name: 'zone_id',
      default: AGREEMENT_DEFAULTS.zone_id,
      cols: 6,
      readOnly: true,
      helperText: 'La zona del concesionario elegido',
    },
    'title',
    'detail',
    { name: 'level', default: AGREEMENT_DEFAULTS.level, cols: 4 },
    { name: 'status', default: AGREEMENT_DEFAULTS.status, cols: 4 },
    { name: 'due_date', cols: 4 },
    { name: 'responsible', cols: 6 },
    { name: 'dealer_contact_id', cols: 6 },
  ],
  toBody,
});

/** A dealer user's dialog: its agreement's progress only. */
const dealerScreen = defineScreen({
  contract: agreementContract,
  columns,
  actionsWidth: 150,
  form: ['status'],
  toBody,
});

function AgeSummary({ query }: { query: Record<string, string | number | undefined> }) {
  const summary = useQuery({
    // Under the list's key: a save or delete that refreshes the list refreshes this too.
    queryKey: ['list', 'agreements', 'summary', query],
    queryFn: () => call(agreementCalls.summary, { query }),
  });
  const s = summary.data;
  if (!s) return null;
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}
      aria-label="Acuerdos abiertos por antigüedad"
    >
      <Typography variant="body2" color="text.secondary">
        Abiertos: {s.open} · vencidos: {s.overdue}
      </Typography>
      {s.buckets.map((b) => (
        <Chip
          key={b.key}
          size="small"
          variant={b.key === 'on_time' || b.count === 0 ? 'outlined' : 'filled'}
          color={
            b.count === 0
              ? 'default'
              : b.key === 'on_time'
                ? 'success'
                : b.key === '1_30'
                  ? 'warning'
                  : 'error'
          }
          label={`${b.name}: ${b.count}`}
        />
      ))}
    </Stack>
  );
}

export default function AgreementScreen() {
  const isDealer = useSession((s) => !!s.info?.user?.isDealer);
  const canNotify = usePermission('Agreements.store');
  const { dealerId } = useGlobalFilters();
  const queryClient = useQueryClient();
  const [zoneId, setZoneId] = useState(0);
  // A link may name the due dates (?from&to), as the dashboard's does.
  const [range, setRange] = useState(useUrlDateRange());
  const [overdue, setOverdue] = useState(false);
  const [historyOf, setHistoryOf] = useState<Record<string, any> | null>(null);
  const [notifyOf, setNotifyOf] = useState<Record<string, any> | null>(null);
  const zones = useQuery({
    queryKey: ['zones-lookup'],
    queryFn: () =>
      call(resourceCalls(zoneContract).list, { query: { perPage: -1 } }) as Promise<
        { id: number; name: string }[]
      >,
    enabled: !isDealer,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['list', 'agreements'] });
  };

  const def = useMemo<ResourceScreenDef>(() => {
    const fixed: Record<string, string | number> = {};
    if (zoneId) fixed.zone_id = zoneId;
    if (range.from) fixed.due_from = range.from;
    if (range.to) fixed.due_to = range.to;
    if (overdue) fixed.overdue = 1;
    return {
      ...(isDealer ? dealerScreen : agreementScreen),
      fixedFilters: fixed,
      rowActions: (row) => (
        <>
          <Tooltip title="Historial y comentarios">
            <IconButton size="small" aria-label="Historial" onClick={() => setHistoryOf(row)}>
              <Forum fontSize="small" />
            </IconButton>
          </Tooltip>
          {canNotify && (
            <Tooltip title="Notificar al concesionario">
              <IconButton size="small" aria-label="Notificar" onClick={() => setNotifyOf(row)}>
                <Send fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </>
      ),
      header: (
        <Box sx={{ mb: 2 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}>
            {!isDealer && (
              <TextField
                select
                size="small"
                label="Zona"
                value={zoneId}
                onChange={(e) => setZoneId(Number(e.target.value))}
                sx={{ width: 180 }}
              >
                <MenuItem value={0}>Todas</MenuItem>
                {(zones.data ?? []).map((z) => (
                  <MenuItem key={z.id} value={z.id}>
                    {z.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
            <DateRangeFilter
              value={range}
              onChange={setRange}
              labels={['Vence desde', 'Vence hasta']}
              names={['due_from', 'due_to']}
              width={180}
            />
            <FormControlLabel
              control={<Switch checked={overdue} onChange={(e) => setOverdue(e.target.checked)} />}
              label="Solo vencidos"
            />
          </Box>
          <AgeSummary
            query={queryFor(REPORT_QUERIES.agreementsSummary, {
              dealer_id: dealerId || undefined,
              zone_id: zoneId || undefined,
            })}
          />
        </Box>
      ),
    };
  }, [isDealer, canNotify, zoneId, range, overdue, zones.data, dealerId]);

  return (
    <>
      <ResourceScreen def={def} />
      <HistoryDialog agreement={historyOf} onClose={() => setHistoryOf(null)} onChanged={refresh} />
      <NotifyDialog agreement={notifyOf} onClose={() => setNotifyOf(null)} onSent={refresh} />
    </>
  );
}
