// An agreement's history (created, comments, status changes, notices: who and when) and the box
// to add a comment, optionally moving the agreement to another status.
import {
  AGREEMENT_EVENT_KINDS,
  AGREEMENT_STATUSES,
  type AgreementEvent,
  agreementCalls,
  agreementCommentSchema,
} from '@app/contracts';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call } from '../../lib/http';
import { usePermission } from '../../session/session';
import { StatusChip, statusName } from './chips';

const when = (iso: string) =>
  new Date(iso).toLocaleString('es-PE', { dateStyle: 'medium', timeStyle: 'short' });

function describe(e: AgreementEvent): string {
  switch (e.kind) {
    case 'created':
      return 'Registro el acuerdo';
    case 'status':
      return `Cambió el estado de ${statusName(e.from_status)} a ${statusName(e.to_status)}`;
    case 'notify':
      return `Envió el acuerdo por correo a ${(e.recipients ?? []).map((r: any) => `${r.name} <${r.email}>`).join(', ')}`;
    default:
      return AGREEMENT_EVENT_KINDS.find((k) => k.id === e.kind)?.name ?? e.kind;
  }
}

export function HistoryDialog({
  agreement,
  onClose,
  onChanged,
}: {
  agreement: Record<string, any> | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const canComment = usePermission('Agreements.update');
  const [comment, setComment] = useState('');
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The status after a comment moved it (the row the dialog opened with is a snapshot). */
  const [current, setCurrent] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const id = agreement?.id;
  const history = useQuery({
    queryKey: ['agreement-history', id],
    queryFn: () => call(agreementCalls.history, { params: { id: id! } }),
    enabled: !!id,
  });
  const close = () => {
    setComment('');
    setStatus('');
    setError(null);
    setCurrent(null);
    onClose();
  };
  const send = async () => {
    const parsed = agreementCommentSchema.safeParse({ comment, status: status || undefined });
    if (!parsed.success) {
      setError(parsed.error.issues[0].message);
      return;
    }
    setBusy(true);
    try {
      const r = await call(agreementCalls.comment, { params: { id: id! }, body: parsed.data });
      setCurrent(r.agreement.status);
      enqueueSnackbar('Guardado Correctamente', { variant: 'success' });
      setComment('');
      setStatus('');
      setError(null);
      await queryClient.invalidateQueries({ queryKey: ['agreement-history', id] });
      onChanged();
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!agreement} onClose={close} maxWidth="md" fullWidth>
      <DialogTitle>Historial: {agreement?.title}</DialogTitle>
      {(history.isFetching || busy) && <LinearProgress />}
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary">
            {agreement?.dealer_name} · vence {agreement?.due_date}
          </Typography>
          {agreement && <StatusChip status={current ?? agreement.status} />}
        </Box>
        <List dense aria-label="Historial del acuerdo">
          {(history.data ?? []).map((e) => (
            <ListItem key={e.id} divider alignItems="flex-start">
              <ListItemText
                primary={e.comment && e.kind === 'comment' ? `“${e.comment}”` : describe(e)}
                secondary={`${e.user_name ?? 'Sistema'} · ${when(e.created_at)}${
                  e.kind === 'notify' && e.comment ? ` · Mensaje: ${e.comment}` : ''
                }`}
              />
            </ListItem>
          ))}
        </List>
        {canComment && (
          <Box sx={{ display: 'flex', gap: 1, mt: 2, alignItems: 'flex-start' }}>
            <TextField
              label="Comentario"
              value={comment}
              onChange={(e) => setComment(e.target.value)}
              multiline
              minRows={2}
              fullWidth
              error={!!error}
              helperText={error ?? ' '}
            />
            <TextField
              select
              label="Nuevo estado"
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              sx={{ minWidth: 170 }}
            >
              <MenuItem value="">(sin cambio)</MenuItem>
              {AGREEMENT_STATUSES.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.name}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cerrar</Button>
        {canComment && (
          <Button variant="contained" onClick={() => void send()} disabled={busy}>
            Agregar comentario
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
