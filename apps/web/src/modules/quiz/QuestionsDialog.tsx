// The questions of a questionnaire, in order: add, edit (text, type, options, required), move up
// or down (the kit's sortable list rule) and remove; saved whole with the questionnaire.
import {
  DEFAULT_RATING_LABELS,
  messages,
  QUESTION_TYPES,
  type QuestionType,
  quizContract,
  resourceCalls,
} from '@app/contracts';
import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Delete from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  LinearProgress,
  MenuItem,
  Paper,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { move } from '../../fields/inputs/ListInputs';
import { call, HttpError } from '../../lib/http';

export interface EditedQuestion {
  /** Client key (stable while editing). */
  key: string;
  id?: number;
  text: string;
  type: QuestionType;
  /** One option per line (choice). */
  optionsText: string;
  required: boolean;
}

let seq = 0;
const newKey = () => `n${++seq}`;

/** The questions as PUT /quizzes/{id} takes them, in the shown order. */
export function toQuestionsBody(items: EditedQuestion[]) {
  return items.map((q) => ({
    ...(q.id ? { id: q.id } : {}),
    text: q.text.trim(),
    type: q.type,
    options:
      q.type === 'choice'
        ? q.optionsText
            .split('\n')
            .map((o) => o.trim())
            .filter(Boolean)
        : null,
    required: q.required,
  }));
}

interface Props {
  quizId: number | null;
  readOnly: boolean;
  onClose: () => void;
}

export function QuestionsDialog({ quizId, readOnly, onClose }: Props) {
  const [quiz, setQuiz] = useState<Record<string, any> | null>(null);
  const [items, setItems] = useState<EditedQuestion[]>([]);
  const [labels, setLabels] = useState<string[]>([...DEFAULT_RATING_LABELS]);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const queryClient = useQueryClient();

  useEffect(() => {
    setQuiz(null);
    setItems([]);
    setErrors([]);
    if (!quizId) return;
    (call(resourceCalls(quizContract).get, { params: { id: quizId } }) as Promise<Record<string, any>>)
      .then((q) => {
        setQuiz(q);
        setLabels(q.rating_labels?.length === 4 ? q.rating_labels : [...DEFAULT_RATING_LABELS]);
        setItems(
          (q.questions ?? []).map((x: any) => ({
            key: `q${x.id}`,
            id: x.id,
            text: x.text,
            type: x.type,
            optionsText: (x.options ?? []).join('\n'),
            required: !!x.required,
          })),
        );
      })
      .catch(onClose);
  }, [quizId, onClose]);

  const set = (i: number, patch: Partial<EditedQuestion>) => {
    setErrors([]);
    setItems((s) => s.map((q, j) => (j === i ? { ...q, ...patch } : q)));
  };

  const save = async () => {
    if (!quiz) return;
    const local: string[] = [];
    items.forEach((q, i) => {
      if (!q.text.trim()) local.push(`Pregunta ${i + 1}: el texto es obligatorio`);
      if (q.type === 'choice' && toQuestionsBody([q])[0].options!.length < 2)
        local.push(`Pregunta ${i + 1}: una pregunta de opción única necesita al menos 2 opciones`);
    });
    labels.forEach((l, i) => {
      if (!l.trim()) local.push(`Etiqueta de la calificación ${i + 1} es obligatorio`);
    });
    setErrors(local);
    if (local.length) return;
    setBusy(true);
    try {
      await call(
        resourceCalls(quizContract).update,
        {
          params: { id: quiz.id },
          body: {
            title: quiz.title,
            description: quiz.description ?? null,
            manufacturer_id: quiz.manufacturer_id ?? null,
            kind: quiz.kind,
            active: quiz.active,
            rating_labels: labels.map((l) => l.trim()),
            questions: toQuestionsBody(items),
          },
        },
        { silent: true },
      );
      enqueueSnackbar(messages.saved, { variant: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['list', 'quizzes'] });
      onClose();
    } catch (e) {
      if (e instanceof HttpError) {
        const v = e.validationErrors;
        setErrors(
          v.length
            ? v.map((x) => {
                const m = /^questions\.(\d+)/.exec(x.field);
                return m ? `Pregunta ${Number(m[1]) + 1}: ${x.message}` : x.message;
              })
            : [e.message],
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={quizId !== null} onClose={busy ? undefined : onClose} maxWidth="md" fullWidth>
      <DialogTitle>Preguntas{quiz ? ` · ${quiz.title}` : ''}</DialogTitle>
      {(busy || (quizId && !quiz)) && <LinearProgress />}
      <DialogContent dividers sx={{ bgcolor: 'grey.50' }}>
        {quiz && (
          <Paper sx={{ p: 2, mb: 1.5 }} role="group" aria-label="Etiquetas de calificación">
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              Etiquetas de calificación (encuesta pública y resultados)
            </Typography>
            <Box
              sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(4, 1fr)' } }}
            >
              {labels.map((l, i) => (
                <TextField
                  // biome-ignore lint/suspicious/noArrayIndexKey: the four fixed levels
                  key={i}
                  label={`Calificación ${i + 1}`}
                  value={l}
                  onChange={(e) => {
                    setErrors([]);
                    setLabels((s) => s.map((x, j) => (j === i ? e.target.value : x)));
                  }}
                  slotProps={{ htmlInput: { maxLength: 40, readOnly } }}
                />
              ))}
            </Box>
          </Paper>
        )}
        {quiz && items.length === 0 && <Alert severity="info">La encuesta aún no tiene preguntas.</Alert>}
        {items.map((q, i) => (
          <Paper key={q.key} sx={{ p: 2, mb: 1.5 }} aria-label={`Pregunta ${i + 1}`} role="group">
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Typography sx={{ pt: 1, minWidth: 24, fontWeight: 600 }}>{i + 1}.</Typography>
              <Box
                sx={{
                  flex: 1,
                  display: 'grid',
                  gap: 1.5,
                  gridTemplateColumns: { xs: '1fr', sm: '1fr 220px' },
                }}
              >
                <TextField
                  label="Pregunta"
                  value={q.text}
                  onChange={(e) => set(i, { text: e.target.value })}
                  slotProps={{ htmlInput: { maxLength: 500, readOnly } }}
                />
                <TextField
                  select
                  label="Tipo"
                  value={q.type}
                  onChange={(e) => set(i, { type: e.target.value as QuestionType })}
                  disabled={readOnly}
                >
                  {QUESTION_TYPES.map((t) => (
                    <MenuItem key={t.id} value={t.id}>
                      {t.name}
                    </MenuItem>
                  ))}
                </TextField>
                {q.type === 'choice' && (
                  <TextField
                    label="Opciones (una por línea)"
                    multiline
                    minRows={2}
                    value={q.optionsText}
                    onChange={(e) => set(i, { optionsText: e.target.value })}
                    slotProps={{ htmlInput: { readOnly } }}
                    sx={{ gridColumn: '1 / -1' }}
                  />
                )}
              </Box>
              <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
                <Tooltip title="Subir">
                  <span>
                    <IconButton
                      size="small"
                      aria-label={`Subir pregunta ${i + 1}`}
                      disabled={readOnly || i === 0}
                      onClick={() => setItems((s) => move(s, i, -1))}
                    >
                      <ArrowUpward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Bajar">
                  <span>
                    <IconButton
                      size="small"
                      aria-label={`Bajar pregunta ${i + 1}`}
                      disabled={readOnly || i === items.length - 1}
                      onClick={() => setItems((s) => move(s, i, 1))}
                    >
                      <ArrowDownward fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </Box>
            </Box>
            <Box sx={{ display: 'flex', alignItems: 'center', pl: 4 }}>
              <FormControlLabel
                control={
                  <Switch
                    checked={q.required}
                    disabled={readOnly}
                    onChange={(e) => set(i, { required: e.target.checked })}
                  />
                }
                label="Obligatoria"
              />
              <Box sx={{ flex: 1 }} />
              {!readOnly && (
                <Button
                  size="small"
                  color="error"
                  startIcon={<Delete />}
                  onClick={() => setItems((s) => s.filter((_, j) => j !== i))}
                >
                  Quitar
                </Button>
              )}
            </Box>
          </Paper>
        ))}
        {quiz && !readOnly && (
          <Button
            startIcon={<Add />}
            onClick={() =>
              setItems((s) => [
                ...s,
                { key: newKey(), text: '', type: 'rating4', optionsText: '', required: true },
              ])
            }
          >
            Agregar pregunta
          </Button>
        )}
        {errors.length > 0 && (
          <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-line' }}>
            {errors.join('\n')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {readOnly ? 'Cerrar' : 'Cancelar'}
        </Button>
        {!readOnly && (
          <Button variant="contained" onClick={() => void save()} disabled={busy || !quiz}>
            Guardar
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
