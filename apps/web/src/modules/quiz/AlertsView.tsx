// Alerts raised by a rating at the lowest level: the generic list of the alerts resource (paged,
// searched, sorted and exported on the server; open ones first, oldest first), with their age, and
// the dealer's reply and close as row buttons.
import { alertContract, messages, quizCalls } from '@app/contracts';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { maskPhone } from '../../fields/masks';
import { call, HttpError } from '../../lib/http';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';

type Row = Record<string, any>;
type Status = 'open' | 'closed' | 'all';

export const ageText = (days: number) => (days === 0 ? 'Hoy' : days === 1 ? '1 día' : `${days} dias`);

const caption = (text: string) => (
  <Typography variant="caption" display="block" color="text.secondary" noWrap>
    {text}
  </Typography>
);

const alertScreen = defineScreen({
  contract: alertContract,
  readOnly: true,
  autoRowHeight: true,
  dealerFilter: 'dealer_id',
  actionsWidth: 200,
  columns: [
    {
      field: 'age_days',
      render: (a) => (
        <Chip
          size="small"
          label={ageText(a.age_days)}
          color={a.closed_at ? 'default' : a.age_days > 7 ? 'error' : 'warning'}
          variant={a.closed_at ? 'outlined' : 'filled'}
        />
      ),
    },
    'dealer_name',
    {
      field: 'buyer_name',
      render: (a) => (
        <Box sx={{ py: 0.5, minWidth: 0 }}>
          {a.buyer_name}
          {caption([a.email, a.phone && maskPhone(a.phone)].filter(Boolean).join(' · '))}
        </Box>
      ),
    },
    {
      field: 'model_name',
      render: (a) => (
        <Box sx={{ py: 0.5, minWidth: 0 }}>
          {[a.manufacturer_name, a.model_name].filter(Boolean).join(' ')}
          {caption(a.vin ?? '')}
        </Box>
      ),
    },
    'detail',
    {
      field: 'reply',
      render: (a) => (
        <Box sx={{ py: 0.5, minWidth: 0 }}>
          {a.reply ?? '—'}
          {a.closed_at && caption(`Cerrada${a.closed_by_name ? ` por ${a.closed_by_name}` : ''}`)}
        </Box>
      ),
    },
  ],
  form: [],
});

export default function AlertsView() {
  const [status, setStatus] = useState<Status>('open');
  const [replying, setReplying] = useState<{ alert: Row; refresh: () => void } | null>(null);
  const [reply, setReply] = useState('');
  const [replyError, setReplyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const sendReply = async () => {
    if (!replying) return;
    if (!reply.trim()) {
      setReplyError(messages.required('Respuesta'));
      return;
    }
    setBusy(true);
    try {
      await call(
        quizCalls.reply,
        { params: { id: replying.alert.id }, body: { reply: reply.trim() } },
        { silent: true },
      );
      enqueueSnackbar(messages.saved, { variant: 'success' });
      replying.refresh();
      setReplying(null);
    } catch (e) {
      setReplyError(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const close = async (a: Row, refresh: () => void) => {
    setBusy(true);
    try {
      await call(quizCalls.close, { params: { id: a.id } });
      enqueueSnackbar('Alerta cerrada', { variant: 'success' });
      refresh();
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: close() reads only setters and the row it is given
  const def: ResourceScreenDef = useMemo(
    () => ({
      ...alertScreen,
      fixedFilters: { status },
      header: (
        <Box sx={{ mb: 2 }}>
          <TextField
            select
            label="Estado"
            value={status}
            onChange={(e) => setStatus(e.target.value as Status)}
            sx={{ width: 160 }}
            fullWidth={false}
          >
            <MenuItem value="open">Abiertas</MenuItem>
            <MenuItem value="closed">Cerradas</MenuItem>
            <MenuItem value="all">Todas</MenuItem>
          </TextField>
        </Box>
      ),
      rowActions: (a, { refresh }) =>
        a.closed_at ? null : (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              size="small"
              onClick={() => {
                setReplying({ alert: a, refresh });
                setReply(a.reply ?? '');
                setReplyError(null);
              }}
            >
              Responder
            </Button>
            <Button
              size="small"
              color="success"
              disabled={!a.reply || busy}
              onClick={() => void close(a, refresh)}
            >
              Cerrar
            </Button>
          </Box>
        ),
    }),
    [status, busy],
  );

  return (
    <>
      <ResourceScreen def={def} />
      <Dialog open={!!replying} onClose={busy ? undefined : () => setReplying(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Responder alerta</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', mb: 2 }}>
            {replying?.alert.buyer_name} — {replying?.alert.detail}
          </Typography>
          <TextField
            label="Respuesta"
            multiline
            minRows={3}
            value={reply}
            onChange={(e) => {
              setReply(e.target.value);
              setReplyError(null);
            }}
            error={!!replyError}
            helperText={replyError ?? 'Acciones tomadas con el cliente'}
            slotProps={{ htmlInput: { maxLength: 4000 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setReplying(null)} disabled={busy}>
            Cancelar
          </Button>
          <Button variant="contained" onClick={() => void sendReply()} disabled={busy}>
            Guardar
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
