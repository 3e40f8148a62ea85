// The buttons of a dealer's month on the figures screen: the manufacturer enables it (this
// dealer or all) and reopens a confirmed one with a reason; the dealer confirms it (after its
// changes are saved). Each answer refreshes the grid; wrong transitions come back as the
// server's 409 message in a toast.
import { figureCalls, messages, type PeriodState, periodName } from '@app/contracts';
import LockOpen from '@mui/icons-material/LockOpen';
import PlaylistAddCheck from '@mui/icons-material/PlaylistAddCheck';
import TaskAlt from '@mui/icons-material/TaskAlt';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call } from '../../lib/http';
import { ConfirmDialog } from '../../resources/ConfirmDialog';

interface Props {
  year: number;
  month: number;
  /** The dealer's month (null: every dealer, 'Todos'). */
  period: PeriodState | null;
  dealerName?: string;
  manufacturer: boolean;
  canUpdate: boolean;
  /** Unsaved cells: confirming waits until they are saved. */
  dirty: boolean;
  onChanged: () => void;
  /** The 'enable for every dealer' button (off in a row of the periods table). */
  allButton?: boolean;
  /** The concepts of the month still without a value (said before confirming), when known. */
  emptyConcepts?: string[];
}

/** What confirming leaves empty: 'Quedan 2 conceptos sin valor: A, B.' */
export function emptyConceptsText(names: string[]): string {
  if (!names.length) return 'Todos los conceptos tienen valor.';
  const list = names.slice(0, 8).join(', ') + (names.length > 8 ? ` y ${names.length - 8} más` : '');
  return names.length === 1
    ? `Queda 1 concepto sin valor: ${list}.`
    : `Quedan ${names.length} conceptos sin valor: ${list}.`;
}

export function PeriodActions(props: Props) {
  const {
    year,
    month,
    period,
    dealerName,
    manufacturer,
    canUpdate,
    dirty,
    onChanged,
    allButton = true,
    emptyConcepts,
  } = props;
  const [ask, setAsk] = useState<'confirm' | 'all' | 'reopen' | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const label = periodName(year, month);

  const run = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      enqueueSnackbar(done, { variant: 'success' });
      setAsk(null);
      setReason('');
      onChanged();
    } catch {
      // the toast of the client says why
    } finally {
      setBusy(false);
    }
  };
  const enable = (all: boolean) =>
    run(
      () =>
        call(figureCalls.enable, {
          body: all ? { year, month, all: true } : { year, month, dealer_ids: [period!.dealer_id] },
        }),
      all ? `${label} habilitado para todos los concesionarios` : `${label} habilitado`,
    );

  return (
    <>
      {manufacturer && period?.status === 'closed' && (
        <Button startIcon={<LockOpen />} onClick={() => enable(false)} disabled={busy}>
          Habilitar mes
        </Button>
      )}
      {manufacturer && allButton && (
        <Button startIcon={<PlaylistAddCheck />} onClick={() => setAsk('all')} disabled={busy}>
          Habilitar a todos
        </Button>
      )}
      {manufacturer && period?.status === 'confirmed' && (
        <Button onClick={() => setAsk('reopen')} disabled={busy}>
          Reabrir mes
        </Button>
      )}
      {canUpdate && period?.status === 'enabled' && (
        <Button
          variant="outlined"
          color="success"
          startIcon={<TaskAlt />}
          onClick={() => setAsk('confirm')}
          disabled={busy || dirty}
          title={dirty ? 'Guarde los cambios antes de confirmar' : undefined}
        >
          Confirmar mes
        </Button>
      )}
      <ConfirmDialog
        open={ask === 'confirm'}
        title="Confirmar cifras"
        busy={busy}
        onNo={() => setAsk(null)}
        onYes={() =>
          run(
            () => call(figureCalls.confirm, { body: { year, month, dealer_id: period!.dealer_id } }),
            `${label} confirmado`,
          )
        }
      >
        {emptyConcepts && `${emptyConceptsText(emptyConcepts)} `}
        {`¿Confirma las cifras de ${label}${dealerName ? ` de ${dealerName}` : ''}? Después no se podrán modificar.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={ask === 'all'}
        title="Habilitar a todos"
        busy={busy}
        onNo={() => setAsk(null)}
        onYes={() => enable(true)}
      >
        {`¿Habilitar ${label} para todos los concesionarios? Los meses ya habilitados o confirmados no cambian.`}
      </ConfirmDialog>
      <Dialog open={ask === 'reopen'} onClose={() => setAsk(null)} maxWidth="xs" fullWidth>
        <DialogTitle>{`Reabrir ${label}`}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            required
            multiline
            minRows={2}
            label="Motivo"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            slotProps={{ htmlInput: { maxLength: 300 } }}
            sx={{ mt: 1 }}
            helperText={reason.trim() ? ' ' : messages.required('Motivo')}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsk(null)}>{messages.confirmNo}</Button>
          <Button
            variant="contained"
            disabled={busy || !reason.trim()}
            onClick={() =>
              run(
                () =>
                  call(figureCalls.reopen, {
                    params: { id: Number(period?.id) },
                    body: { reason: reason.trim() },
                  }),
                `${label} reabierto`,
              )
            }
          >
            Reabrir
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
