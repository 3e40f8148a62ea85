// The dealers' state for a month (figure-dealers): who has it closed, enabled or confirmed, how
// many concepts each has filled, when it was enabled, confirmed and reminded. The manufacturer
// enables the chosen dealers (or all), reopens a confirmed month and mails a reminder to those
// still to confirm.
import { figureCalls, type PeriodStatus, periodName } from '@app/contracts';
import MailOutline from '@mui/icons-material/MailOutline';
import {
  Alert,
  Box,
  Button,
  Checkbox,
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
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call } from '../../lib/http';
import { StatusChip } from './common';
import { PeriodActions } from './PeriodActions';

const when = (iso: string | null, who?: string | null) =>
  iso ? `${new Date(iso).toLocaleDateString('es-PE')}${who ? ` · ${who}` : ''}` : '—';

export function PeriodsView({
  year,
  month,
  manufacturer,
}: {
  year: number;
  month: number;
  manufacturer: boolean;
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const query = { year, month };
  const rows = useQuery({
    queryKey: ['figure-dealers', query],
    queryFn: () => call(figureCalls.dealers, { query }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    setChosen([]);
    void queryClient.invalidateQueries({ queryKey: ['figure-dealers'] });
    void queryClient.invalidateQueries({ queryKey: ['figures'] });
  };
  const list = rows.data ?? [];
  const count = (s: PeriodStatus) => list.filter((r) => r.status === s).length;
  const late = list.filter((r) => r.status === 'enabled');
  const label = periodName(year, month);

  const act = async (call: () => Promise<unknown>, done: (r: any) => string) => {
    setBusy(true);
    try {
      enqueueSnackbar(done(await call()), { variant: 'success' });
      refresh();
    } catch {
      // toast of the client
    } finally {
      setBusy(false);
    }
  };
  const closedChosen = chosen.filter((id) => list.find((r) => r.dealer_id === id)?.status === 'closed');

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Typography variant="body2" sx={{ flex: 1 }}>
          {`${label}: ${count('confirmed')} confirmados, ${count('enabled')} pendientes de confirmar, ${count('closed')} cerrados`}
        </Typography>
        {manufacturer && (
          <>
            <Button
              disabled={busy || !closedChosen.length}
              onClick={() =>
                act(
                  () => call(figureCalls.enable, { body: { year, month, dealer_ids: closedChosen } }),
                  (r) => `${r.enabled} concesionario(s) habilitado(s)`,
                )
              }
            >
              {`Habilitar seleccionados (${closedChosen.length})`}
            </Button>
            <PeriodActions
              year={year}
              month={month}
              period={null}
              manufacturer
              canUpdate={false}
              dirty={false}
              onChanged={refresh}
            />
            <Button
              variant="outlined"
              startIcon={<MailOutline />}
              disabled={busy || !late.length}
              onClick={() =>
                act(
                  () => call(figureCalls.remind, { body: { year, month } }),
                  (r) =>
                    `Recordatorio enviado a ${r.reminded} concesionario(s) (${r.mails} correo(s))${r.without_recipients.length ? `; sin usuarios: ${r.without_recipients.join(', ')}` : ''}`,
                )
              }
            >
              {`Recordar a pendientes (${late.length})`}
            </Button>
          </>
        )}
      </Stack>
      {rows.isFetching && <LinearProgress sx={{ mb: 1 }} />}
      {!list.length && !rows.isFetching && <Alert severity="info">No hay concesionarios habilitados.</Alert>}
      {/* A scrolling table takes focus, so a keyboard scrolls it (axe: scrollable-region-focusable). */}
      <Box tabIndex={0} role="group" aria-label="Tabla de periodos" sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Periodos por concesionario">
          <TableHead>
            <TableRow>
              {manufacturer && (
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={!!list.length && chosen.length === list.length}
                    indeterminate={!!chosen.length && chosen.length < list.length}
                    onChange={(e) => setChosen(e.target.checked ? list.map((r) => r.dealer_id) : [])}
                    slotProps={{ input: { 'aria-label': 'Seleccionar todos' } }}
                  />
                </TableCell>
              )}
              <TableCell>Concesionario</TableCell>
              <TableCell>Estado</TableCell>
              <TableCell align="right">Avance</TableCell>
              <TableCell>Habilitado</TableCell>
              <TableCell>Confirmado</TableCell>
              <TableCell>Recordado</TableCell>
              <TableCell>Reapertura</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((r) => (
              <TableRow key={r.dealer_id} hover>
                {manufacturer && (
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={chosen.includes(r.dealer_id)}
                      onChange={(e) =>
                        setChosen((c) =>
                          e.target.checked ? [...c, r.dealer_id] : c.filter((x) => x !== r.dealer_id),
                        )
                      }
                      slotProps={{ input: { 'aria-label': r.dealer_name } }}
                    />
                  </TableCell>
                )}
                <TableCell>{`${r.dealer_code} - ${r.dealer_name}`}</TableCell>
                <TableCell>
                  <StatusChip status={r.status} />
                </TableCell>
                <TableCell align="right">{`${r.filled} / ${r.concepts}`}</TableCell>
                <TableCell>{when(r.enabled_at, r.enabled_by_name)}</TableCell>
                <TableCell>{when(r.confirmed_at, r.confirmed_by_name)}</TableCell>
                <TableCell>{when(r.reminded_at)}</TableCell>
                <TableCell sx={{ maxWidth: 220 }}>
                  {r.reopen_reason ? `${when(r.reopened_at)}: ${r.reopen_reason}` : '—'}
                </TableCell>
                <TableCell>
                  {manufacturer && r.status === 'confirmed' && (
                    <PeriodActions
                      year={year}
                      month={month}
                      period={r}
                      dealerName={r.dealer_name}
                      manufacturer={manufacturer && r.status === 'confirmed'}
                      allButton={false}
                      canUpdate={false}
                      dirty={false}
                      onChanged={refresh}
                    />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Paper>
  );
}
