// Alerts raised by a rating at the lowest level: listed with their age (open first, oldest
// first); the dealer replies and then closes them.
import { messages } from '@app/contracts';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { HttpError, http } from '../../api/http';
import { useGlobalFilters } from '../../shell/filters';

export interface QuizAlert {
  id: number;
  dealer_id: number;
  dealer_name: string;
  sale_id: number;
  vin: string;
  buyer_name: string;
  email: string | null;
  phone: string | null;
  model_name: string;
  manufacturer_name: string;
  detail: string;
  opened_at: string;
  reply: string | null;
  replied_at: string | null;
  closed_at: string | null;
  closed_by_name: string | null;
  age_days: number;
}

export const ageText = (days: number) => (days === 0 ? 'Hoy' : days === 1 ? '1 dia' : `${days} dias`);

export default function AlertsView() {
  const [status, setStatus] = useState<'open' | 'closed' | 'all'>('open');
  const { dealerId } = useGlobalFilters();
  const [replying, setReplying] = useState<QuizAlert | null>(null);
  const [reply, setReply] = useState('');
  const [replyError, setReplyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = useQuery({
    queryKey: ['quiz-alerts', status, dealerId],
    queryFn: () => http.get<QuizAlert[]>('/quiz-alerts', { status, dealer_id: dealerId || undefined }),
    placeholderData: keepPreviousData,
  });

  const sendReply = async () => {
    if (!replying) return;
    if (!reply.trim()) {
      setReplyError(messages.required('Respuesta'));
      return;
    }
    setBusy(true);
    try {
      await http.put(`/quiz-alerts/${replying.id}/reply`, { reply: reply.trim() }, { silent: true });
      enqueueSnackbar(messages.saved, { variant: 'success' });
      setReplying(null);
      await list.refetch();
    } catch (e) {
      setReplyError(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const close = async (a: QuizAlert) => {
    setBusy(true);
    try {
      await http.put(`/quiz-alerts/${a.id}/close`);
      enqueueSnackbar('Alerta cerrada', { variant: 'success' });
      await list.refetch();
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
    }
  };

  const rows = list.data ?? [];
  return (
    <Paper sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h6" sx={{ flex: 1 }}>
          Alertas de satisfaccion
        </Typography>
        <TextField
          select
          label="Estado"
          value={status}
          onChange={(e) => setStatus(e.target.value as typeof status)}
          sx={{ width: 160 }}
          fullWidth={false}
        >
          <MenuItem value="open">Abiertas</MenuItem>
          <MenuItem value="closed">Cerradas</MenuItem>
          <MenuItem value="all">Todas</MenuItem>
        </TextField>
      </Box>
      {(list.isFetching || busy) && <LinearProgress />}
      {list.data && rows.length === 0 && (
        <Alert severity="success">{status === 'open' ? 'No hay alertas abiertas.' : 'No hay alertas.'}</Alert>
      )}
      {rows.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Alertas">
            <TableHead>
              <TableRow>
                <TableCell>Antigüedad</TableCell>
                <TableCell>Concesionario</TableCell>
                <TableCell>Cliente</TableCell>
                <TableCell>Vehiculo</TableCell>
                <TableCell>Calificado con 1</TableCell>
                <TableCell>Respuesta</TableCell>
                <TableCell width={200}>Acciones</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((a) => (
                <TableRow key={a.id}>
                  <TableCell>
                    <Chip
                      size="small"
                      label={ageText(a.age_days)}
                      color={a.closed_at ? 'default' : a.age_days > 7 ? 'error' : 'warning'}
                      variant={a.closed_at ? 'outlined' : 'filled'}
                    />
                  </TableCell>
                  <TableCell>{a.dealer_name}</TableCell>
                  <TableCell>
                    {a.buyer_name}
                    <Typography variant="caption" display="block" color="text.secondary">
                      {[a.email, a.phone].filter(Boolean).join(' · ')}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {a.manufacturer_name} {a.model_name}
                    <Typography variant="caption" display="block" color="text.secondary">
                      {a.vin}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-line' }}>{a.detail}</TableCell>
                  <TableCell sx={{ whiteSpace: 'pre-line' }}>
                    {a.reply ?? '—'}
                    {a.closed_at && (
                      <Typography variant="caption" display="block" color="text.secondary">
                        Cerrada{a.closed_by_name ? ` por ${a.closed_by_name}` : ''}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    {!a.closed_at && (
                      <Box sx={{ display: 'flex', gap: 1 }}>
                        <Button
                          size="small"
                          onClick={() => {
                            setReplying(a);
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
                          onClick={() => void close(a)}
                        >
                          Cerrar
                        </Button>
                      </Box>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <Dialog open={!!replying} onClose={busy ? undefined : () => setReplying(null)} maxWidth="sm" fullWidth>
        <DialogTitle>Responder alerta</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-line', mb: 2 }}>
            {replying?.buyer_name} — {replying?.detail}
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
    </Paper>
  );
}
