// A sale's survey: its invitations (sent, reminded, expiry) and the answers, each with the text
// of the question the buyer saw.
import { ratingLabel, salesCalls } from '@app/contracts';
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
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/http';
import { formatDateTime } from './OutboxDialog';

interface Answer {
  question_id: number;
  question: string;
  question_type: string;
  value: string | null;
  rating: number | null;
}
interface SaleResponses {
  sale_id: number;
  invitations: {
    id: number;
    quiz_title: string;
    email: string;
    sent_at: string | null;
    reminded_at: string | null;
    reminder_count: number;
    expires_at: string;
    answered_at: string | null;
    email_status: string;
    expired: boolean;
  }[];
  responses: {
    id: number;
    quiz_title: string;
    /** The questionnaire's names of ratings 1..4 (the public survey shows the same). */
    rating_labels?: string[];
    answered_at: string;
    answers: Answer[];
  }[];
}

const EMAIL_STATUS: Record<string, string> = {
  sent: 'Enviado',
  queued: 'En bandeja de salida',
  failed: 'Fallido',
};

export function answerText(a: Answer, labels?: readonly string[]): string {
  if (a.rating) return ratingLabel(a.rating, labels);
  return a.value ?? '—';
}

export function ResponsesDialog({
  sale,
  onClose,
}: {
  sale: Record<string, any> | null;
  onClose: () => void;
}) {
  const q = useQuery({
    queryKey: ['sale-responses', sale?.id],
    queryFn: () => call(salesCalls.responses, { params: { id: sale!.id } }) as Promise<SaleResponses>,
    enabled: !!sale,
  });
  const d = q.data;
  return (
    <Dialog open={!!sale} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>
        Encuesta de {sale?.buyer_name} · {sale?.vin}
      </DialogTitle>
      {q.isFetching && <LinearProgress />}
      <DialogContent dividers>
        <Typography variant="subtitle2" gutterBottom>
          Invitaciones
        </Typography>
        {d && d.invitations.length === 0 && <Alert severity="info">Aún no se envió la encuesta.</Alert>}
        {d && d.invitations.length > 0 && (
          <Table size="small" aria-label="Invitaciones">
            <TableHead>
              <TableRow>
                <TableCell>Encuesta</TableCell>
                <TableCell>Email</TableCell>
                <TableCell>Enviada</TableCell>
                <TableCell>Recordatorios</TableCell>
                <TableCell>Vence</TableCell>
                <TableCell>Estado</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {d.invitations.map((i) => (
                <TableRow key={i.id}>
                  <TableCell>{i.quiz_title}</TableCell>
                  <TableCell>
                    {i.email}
                    <Typography variant="caption" display="block" color="text.secondary">
                      {EMAIL_STATUS[i.email_status] ?? i.email_status}
                    </Typography>
                  </TableCell>
                  <TableCell>{formatDateTime(i.sent_at)}</TableCell>
                  <TableCell>{i.reminder_count}</TableCell>
                  <TableCell>{formatDateTime(i.expires_at)}</TableCell>
                  <TableCell>
                    {i.answered_at ? (
                      <Chip size="small" color="success" label="Respondida" />
                    ) : i.expired ? (
                      <Chip size="small" color="default" label="Vencida" />
                    ) : (
                      <Chip size="small" color="info" label="Pendiente" />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {d?.responses.map((r) => (
          <Box key={r.id} sx={{ mt: 3 }}>
            <Typography variant="subtitle2">
              {r.quiz_title} — respondida el {formatDateTime(r.answered_at)}
            </Typography>
            <Table size="small" aria-label={`Respuestas ${r.quiz_title}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Pregunta</TableCell>
                  <TableCell>Respuesta</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {r.answers.map((a) => (
                  <TableRow key={a.question_id}>
                    <TableCell>{a.question}</TableCell>
                    <TableCell sx={{ color: a.rating === 1 ? 'error.main' : undefined }}>
                      {answerText(a, r.rating_labels)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        ))}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}
