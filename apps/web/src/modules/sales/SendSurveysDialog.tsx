// 'Enviar encuestas': invitations for the chosen sales or for every sale of the current filters;
// as a reminder, only to invitations not answered yet. The answer lists the sales left out.
import {
  QUIZ_KINDS,
  quizCalls,
  quizContract,
  resourceCalls,
  type SalesFilter,
  type SalesQuizRequestResult,
  SURVEY_STATUSES,
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
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useTypeName } from '../../lib/generalTypes';
import { call, HttpError } from '../../lib/http';

interface Props {
  open: boolean;
  filters: SalesFilter;
  selected: number[];
  onClose: () => void;
}

/** An active questionnaire the dialog offers. */
interface QuizOption {
  id: number;
  title: string;
  kind: string;
  manufacturer_name?: string | null;
}

export function quizOptionLabel(q: QuizOption): string {
  const kind = QUIZ_KINDS.find((k) => k.id === q.kind)?.name ?? q.kind;
  return `${q.title} (${kind}${q.manufacturer_name ? `, ${q.manufacturer_name}` : ''})`;
}

const compiledStatus = (id: string) => SURVEY_STATUSES.find((s) => s.id === id)?.name ?? id;

export function describeFilters(f: SalesFilter, statusName: (id: string) => string = compiledStatus): string {
  const parts: string[] = [];
  if (f.date_from || f.date_to) parts.push(`fecha ${f.date_from ?? '…'} a ${f.date_to ?? '…'}`);
  if (f.manufacturer_id) parts.push('la marca elegida');
  if (f.dealer_id) parts.push('el concesionario elegido');
  if (f.survey_status) parts.push(`encuesta "${statusName(f.survey_status)}"`);
  return parts.length ? `Ventas con ${parts.join(', ')}` : 'Todas las ventas (sin filtros)';
}

const sentNothing = (r: SalesQuizRequestResult) => r.invited + r.reminded === 0;

/** What a send did: never a green '0 enviados' when nothing went out. */
export function outcomeText(r: SalesQuizRequestResult): string {
  const skipped = r.skipped.length;
  const notSent = `${skipped} ${skipped === 1 ? 'venta sin enviar' : 'ventas sin enviar'}`;
  if (sentNothing(r))
    return skipped === 1
      ? `No se envió ningún correo: ${r.skipped[0].buyer || `Venta #${r.skipped[0].sale_id}`} · ${r.skipped[0].reason}.`
      : `No se envió ningún correo: ${notSent}.`;
  return `Invitaciones: ${r.invited}. Recordatorios: ${r.reminded}. Sin enviar: ${skipped}.`;
}

export function SendSurveysDialog({ open, filters, selected, onClose }: Props) {
  const [scope, setScope] = useState<'selection' | 'filters'>('filters');
  const [reminder, setReminder] = useState(false);
  // 0: the sales questionnaire of each sale's brand (the server's default).
  const [quizId, setQuizId] = useState(0);
  const quizzes = useQuery({
    queryKey: ['options', 'quizzes'],
    queryFn: () =>
      call(resourceCalls(quizContract).list, { query: { perPage: -1 } }) as Promise<QuizOption[]>,
    enabled: open,
  });
  const statusName = useTypeName('SURVEY_STATUSES', SURVEY_STATUSES);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SalesQuizRequestResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (open) {
      setScope(selected.length ? 'selection' : 'filters');
      setResult(null);
      setFailure(null);
    }
  }, [open, selected.length]);

  const send = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const chosen = quizId > 0 ? { quiz_id: quizId } : {};
      const body =
        scope === 'selection'
          ? { sale_ids: selected, reminder, ...chosen }
          : { filters, reminder, ...chosen };
      const r = await call(quizCalls.request, { body }, { silent: true });
      setResult(r);
      enqueueSnackbar(
        r.invited + r.reminded === 0
          ? 'No se envió ningún correo: vea el motivo de cada venta'
          : reminder
            ? `Recordatorios enviados: ${r.reminded}. Invitaciones nuevas: ${r.invited}`
            : `Invitaciones enviadas: ${r.invited}`,
        { variant: r.invited + r.reminded === 0 ? 'warning' : 'success' },
      );
      await queryClient.invalidateQueries({ queryKey: ['list', 'sales'] });
    } catch (e) {
      setFailure(e instanceof HttpError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>Enviar encuestas</DialogTitle>
      {busy && <LinearProgress />}
      <DialogContent dividers>
        <RadioGroup value={scope} onChange={(e) => setScope(e.target.value as 'selection' | 'filters')}>
          <FormControlLabel
            value="selection"
            disabled={!selected.length}
            control={<Radio />}
            label={`Ventas seleccionadas (${selected.length})`}
          />
          <FormControlLabel
            value="filters"
            control={<Radio />}
            label={describeFilters(filters, statusName)}
          />
        </RadioGroup>
        <TextField
          select
          label="Encuesta"
          value={quizId}
          onChange={(e) => setQuizId(Number(e.target.value))}
          sx={{ mt: 1.5, mb: 1 }}
          slotProps={{ htmlInput: { 'data-testid': 'quiz-select' } }}
        >
          <MenuItem value={0}>La encuesta de ventas de la marca de cada venta</MenuItem>
          {(quizzes.data ?? []).map((q) => (
            <MenuItem key={q.id} value={q.id}>
              {quizOptionLabel(q)}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Checkbox checked={reminder} onChange={(e) => setReminder(e.target.checked)} />}
          label="Recordatorio: volver a enviar a quienes no respondieron"
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Cada comprador recibe por correo un enlace personal de un solo uso. Las ventas ya invitadas no se
          vuelven a invitar; un recordatorio envía un enlace nuevo solo a quienes aún no respondieron.
        </Typography>
        {failure && (
          <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        )}
        {result && (
          <>
            <Alert severity={sentNothing(result) ? 'warning' : 'success'} sx={{ mt: 2 }}>
              {outcomeText(result)}
            </Alert>
            {result.skipped.length > 0 && (
              <List dense aria-label="Ventas sin enviar" sx={{ maxHeight: 240, overflow: 'auto' }}>
                {result.skipped.slice(0, 300).map((s) => (
                  <ListItem key={`${s.sale_id}-${s.reason}`} divider>
                    <ListItemText primary={s.buyer || `Venta #${s.sale_id}`} secondary={s.reason} />
                  </ListItem>
                ))}
              </List>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cerrar
        </Button>
        <Button variant="contained" onClick={() => void send()} disabled={busy}>
          {reminder ? 'Enviar recordatorios' : 'Enviar'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
