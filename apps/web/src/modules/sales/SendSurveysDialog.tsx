// 'Enviar encuestas': invitations for the chosen sales or for every sale of the current filters;
// as a reminder, only to invitations not answered yet. The answer lists the sales left out.
import { type SalesFilter, type SalesQuizRequestResult, SURVEY_STATUSES } from '@app/contracts';
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
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { HttpError, http } from '../../api/http';

interface Props {
  open: boolean;
  filters: SalesFilter;
  selected: number[];
  onClose: () => void;
}

export function describeFilters(f: SalesFilter): string {
  const parts: string[] = [];
  if (f.date_from || f.date_to) parts.push(`fecha ${f.date_from ?? '…'} a ${f.date_to ?? '…'}`);
  if (f.manufacturer_id) parts.push('la marca elegida');
  if (f.dealer_id) parts.push('el concesionario elegido');
  if (f.survey_status)
    parts.push(
      `encuesta "${SURVEY_STATUSES.find((s) => s.id === f.survey_status)?.name ?? f.survey_status}"`,
    );
  return parts.length ? `Ventas con ${parts.join(', ')}` : 'Todas las ventas (sin filtros)';
}

export function SendSurveysDialog({ open, filters, selected, onClose }: Props) {
  const [scope, setScope] = useState<'selection' | 'filters'>('filters');
  const [reminder, setReminder] = useState(false);
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
      const body = scope === 'selection' ? { sale_ids: selected, reminder } : { filters, reminder };
      const r = await http.post<SalesQuizRequestResult>('/sales-quiz-request', body, { silent: true });
      setResult(r);
      enqueueSnackbar(
        reminder
          ? `Recordatorios enviados: ${r.reminded}. Invitaciones nuevas: ${r.invited}`
          : `Invitaciones enviadas: ${r.invited}`,
        { variant: 'success' },
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
          <FormControlLabel value="filters" control={<Radio />} label={describeFilters(filters)} />
        </RadioGroup>
        <FormControlLabel
          control={<Checkbox checked={reminder} onChange={(e) => setReminder(e.target.checked)} />}
          label="Recordatorio: volver a enviar a quienes no respondieron"
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Cada comprador recibe por correo un enlace personal de un solo uso. Las ventas ya invitadas no se
          vuelven a invitar; un recordatorio envia un enlace nuevo solo a quienes aun no respondieron.
        </Typography>
        {failure && (
          <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        )}
        {result && (
          <>
            <Alert severity="success" sx={{ mt: 2 }}>
              Invitaciones: {result.invited}. Recordatorios: {result.reminded}. Sin enviar:{' '}
              {result.skipped.length}.
            </Alert>
            {result.skipped.length > 0 && (
              <List dense aria-label="Ventas sin enviar" sx={{ maxHeight: 240, overflow: 'auto' }}>
                {result.skipped.slice(0, 300).map((s) => (
                  <ListItem key={`${s.sale_id}-${s.reason}`} divider>
                    <ListItemText primary={`Venta #${s.sale_id}`} secondary={s.reason} />
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
