// Preferencias → Correos programados: the two scheduled mails (the monthly Resumen Comparativo on
// a dealer's confirmation, the weekly dashboard summary on a day and hour in Lima), each saved
// by PUT /api/mail-schedules/:id with its field errors shown on its fields, their last mailings,
// and the last messages of the outbox (where they wait without SMTP).
import {
  MAIL_SCHEDULE_LABELS,
  type MailScheduleView,
  messages,
  preferenceCalls,
  WEEKDAYS,
} from '@app/contracts';
import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Grid,
  LinearProgress,
  MenuItem,
  Paper,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { call, HttpError } from '../../lib/http';
import { usePermission } from '../../session/session';

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  status: 'pending' | 'sent' | 'failed';
  created_at: string;
  attachment_names: string | null;
}

const STATUS: Record<OutboxRow['status'], { name: string; color: 'warning' | 'success' | 'error' }> = {
  pending: { name: 'Pendiente', color: 'warning' },
  sent: { name: 'Enviado', color: 'success' },
  failed: { name: 'Fallido', color: 'error' },
};

const when = (iso: string) =>
  new Date(iso).toLocaleString('es-PE', { dateStyle: 'short', timeStyle: 'short' });
const HOURS = Array.from({ length: 24 }, (_, h) => h);

function ScheduleCard({ s, canSave }: { s: MailScheduleView; canSave: boolean }) {
  const client = useQueryClient();
  const weekly = s.kind === 'tablero_semanal';
  const [enabled, setEnabled] = useState(s.enabled);
  const [weekday, setWeekday] = useState<number | ''>(s.weekday ?? '');
  const [hour, setHour] = useState<number | ''>(s.hour ?? '');
  const [recipients, setRecipients] = useState(s.recipients ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    setErrors({});
    try {
      await call(
        preferenceCalls.saveMailSchedule,
        {
          params: { id: s.id },
          body: weekly
            ? {
                enabled,
                weekday: weekday === '' ? null : weekday,
                hour: hour === '' ? null : hour,
                recipients,
              }
            : { enabled },
        },
        { fieldErrors: true },
      );
      enqueueSnackbar(messages.saved, { variant: 'success' });
      await client.invalidateQueries({ queryKey: ['mail-schedules'] });
    } catch (err) {
      const list = err instanceof HttpError ? (err.error?.validationErrors ?? []) : [];
      setErrors(Object.fromEntries(list.map((e) => [e.field, e.message])));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper sx={{ p: 2, mb: 2 }} component="section" aria-label={s.title}>
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {s.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {s.description}
      </Typography>
      <FormControlLabel
        control={
          <Switch checked={enabled} disabled={!canSave} onChange={(e) => setEnabled(e.target.checked)} />
        }
        label={MAIL_SCHEDULE_LABELS.enabled}
      />
      {weekly && (
        <Grid container spacing={2} sx={{ mt: 1 }}>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              fullWidth
              label={MAIL_SCHEDULE_LABELS.weekday}
              value={weekday}
              disabled={!canSave}
              onChange={(e) => setWeekday(Number(e.target.value))}
              error={!!errors.weekday}
              helperText={errors.weekday || ' '}
            >
              {WEEKDAYS.map((d) => (
                <MenuItem key={d.id} value={d.id}>
                  {d.name}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 3 }}>
            <TextField
              select
              fullWidth
              label={MAIL_SCHEDULE_LABELS.hour}
              value={hour}
              disabled={!canSave}
              onChange={(e) => setHour(Number(e.target.value))}
              error={!!errors.hour}
              helperText={errors.hour || ' '}
            >
              {HOURS.map((h) => (
                <MenuItem key={h} value={h}>
                  {`${String(h).padStart(2, '0')}:00`}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <TextField
              fullWidth
              label={MAIL_SCHEDULE_LABELS.recipients}
              value={recipients}
              disabled={!canSave}
              onChange={(e) => setRecipients(e.target.value)}
              error={!!errors.recipients}
              helperText={errors.recipients || `Separados por comas. Vacío: ${s.default_recipients}`}
            />
          </Grid>
        </Grid>
      )}
      {!weekly && (
        <Typography variant="body2" sx={{ mb: 1 }}>
          Destinatarios: {s.default_recipients}.
        </Typography>
      )}
      {canSave && (
        <Button
          variant="contained"
          startIcon={<SaveIcon />}
          onClick={() => void save()}
          disabled={saving}
          sx={{ mt: 1 }}
        >
          Guardar
        </Button>
      )}
      <Typography variant="body2" sx={{ mt: 2, fontWeight: 600 }}>
        Últimos envíos
      </Typography>
      {s.runs.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          Aún no se ha enviado.
        </Typography>
      ) : (
        // It scrolls sideways on a phone: a keyboard must reach it (scrollable-region-focusable).
        <Box
          tabIndex={0}
          role="group"
          aria-label={`Tabla de últimos envíos: ${s.title}`}
          sx={{ overflowX: 'auto' }}
        >
          <Table size="small" aria-label={`Últimos envíos: ${s.title}`}>
            <TableHead>
              <TableRow>
                <TableCell>Fecha</TableCell>
                <TableCell>Periodo</TableCell>
                {!weekly && <TableCell>Concesionario</TableCell>}
                <TableCell align="right">Correos</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {s.runs.map((r) => (
                <TableRow key={r.key}>
                  <TableCell>{when(r.created_at)}</TableCell>
                  <TableCell>{r.period}</TableCell>
                  {!weekly && <TableCell>{r.dealer_name ?? ''}</TableCell>}
                  <TableCell align="right">{r.mails}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}

export function MailSchedules() {
  const canSave = usePermission('Admin.Preferences.update');
  const q = useQuery({
    queryKey: ['mail-schedules'],
    queryFn: () => call(preferenceCalls.mailSchedules),
  });
  const outbox = useQuery({
    queryKey: ['mail-schedules', 'outbox'],
    queryFn: () =>
      call(preferenceCalls.outbox, { query: { perPage: 10, sort: 'id', order: 'desc' } }) as Promise<
        OutboxRow[] | { data: OutboxRow[] }
      >,
  });
  return (
    <Box>
      {(q.isFetching || outbox.isFetching) && <LinearProgress sx={{ mb: 1 }} />}
      {q.data?.map((s) => (
        <ScheduleCard key={`${s.id}-${s.updated_at}`} s={s} canSave={canSave} />
      ))}
      <Paper sx={{ p: 2 }} component="section" aria-label="Bandeja de salida">
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
          Bandeja de salida (últimos 10)
        </Typography>
        <Alert severity="info" sx={{ mb: 1 }}>
          Sin SMTP configurado los correos quedan pendientes aquí y salen cuando se configura.
        </Alert>
        {/* It scrolls sideways on a phone: a keyboard must reach it (scrollable-region-focusable). */}
        <Box tabIndex={0} role="group" aria-label="Tabla de la bandeja de salida" sx={{ overflowX: 'auto' }}>
          <Table size="small" aria-label="Bandeja de salida">
            <TableHead>
              <TableRow>
                <TableCell>Fecha</TableCell>
                <TableCell>Para</TableCell>
                <TableCell>Asunto</TableCell>
                <TableCell>Adjuntos</TableCell>
                <TableCell>Estado</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(Array.isArray(outbox.data) ? outbox.data : (outbox.data?.data ?? [])).map((m) => (
                <TableRow key={m.id}>
                  <TableCell>{when(m.created_at)}</TableCell>
                  <TableCell>{m.to}</TableCell>
                  <TableCell>{m.subject}</TableCell>
                  <TableCell>{m.attachment_names ?? ''}</TableCell>
                  <TableCell>
                    <Chip size="small" label={STATUS[m.status].name} color={STATUS[m.status].color} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      </Paper>
    </Box>
  );
}
