// POST /api/agreements-noty: mails the agreement to the dealer's contacts (all active ones with an
// email, or those chosen), with an optional message; the result says to whom it went.
import {
  type AgreementNotifyResult,
  agreementCalls,
  dealerContactContract,
  resourceCalls,
} from '@app/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/http';

interface Contact {
  id: number;
  name: string;
  email: string | null;
  position: string | null;
}

const STATUS_TEXT = { sent: 'enviado', pending: 'en la bandeja de salida', failed: 'fallido' } as const;

export function NotifyDialog({
  agreement,
  onClose,
  onSent,
}: {
  agreement: Record<string, any> | null;
  onClose: () => void;
  onSent: () => void;
}) {
  const [message, setMessage] = useState('');
  const [chosen, setChosen] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AgreementNotifyResult | null>(null);
  const contacts = useQuery({
    queryKey: ['agreement-contacts', agreement?.dealer_id],
    queryFn: () =>
      call(resourceCalls(dealerContactContract).list, {
        query: { perPage: 100, 'filter[dealer_id]': agreement?.dealer_id, 'filter[active]': 'true' },
      }) as Promise<{ data: Contact[] }>,
    enabled: !!agreement,
  });
  const withEmail = (contacts.data?.data ?? []).filter((c) => c.email);
  const selected = chosen ?? withEmail.map((c) => c.id);
  const close = () => {
    setMessage('');
    setChosen(null);
    setResult(null);
    onClose();
  };
  const send = async () => {
    setBusy(true);
    try {
      const r = await call(agreementCalls.notify, {
        body: { agreement_id: agreement?.id, contact_ids: selected, message },
      });
      setResult(r);
      onSent();
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!agreement} onClose={busy ? undefined : close} maxWidth="sm" fullWidth>
      <DialogTitle>Notificar al concesionario</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="body2" gutterBottom>
          {agreement?.title} · {agreement?.dealer_name}
        </Typography>
        {result ? (
          <Alert severity={result.failed ? 'warning' : 'success'}>
            Acuerdo enviado a{' '}
            {result.recipients.map((r) => `${r.name} (${STATUS_TEXT[r.status]})`).join(', ')}.
          </Alert>
        ) : (
          <>
            {withEmail.length === 0 && !contacts.isFetching && (
              <Alert severity="warning">El concesionario no tiene contactos activos con email.</Alert>
            )}
            <FormGroup aria-label="Destinatarios">
              {withEmail.map((c) => (
                <FormControlLabel
                  key={c.id}
                  control={
                    <Checkbox
                      checked={selected.includes(c.id)}
                      onChange={(e) =>
                        setChosen(e.target.checked ? [...selected, c.id] : selected.filter((x) => x !== c.id))
                      }
                    />
                  }
                  label={`${c.name}${c.position ? ` (${c.position})` : ''} <${c.email}>`}
                />
              ))}
            </FormGroup>
            <TextField
              label="Mensaje (opcional)"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              multiline
              minRows={2}
              fullWidth
              sx={{ mt: 2 }}
              slotProps={{ htmlInput: { maxLength: 2000 } }}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy}>
          Cerrar
        </Button>
        {!result && (
          <Button variant="contained" onClick={() => void send()} disabled={busy || selected.length === 0}>
            Enviar
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
