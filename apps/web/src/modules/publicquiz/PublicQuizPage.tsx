// /encuesta?token=… — the public satisfaction survey (no login, phone first): the questionnaire
// of the buyer's personal link, then a thank-you page; expired, unknown and already answered
// links get their own clear page.
import {
  DEFAULT_RATING_LABELS,
  type PublicQuiz,
  QUIZ_MESSAGES,
  type QuizQuestion,
  quizCalls,
  ratingLabel,
} from '@app/contracts';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import EventBusy from '@mui/icons-material/EventBusy';
import HelpOutline from '@mui/icons-material/HelpOutline';
import TaskAlt from '@mui/icons-material/TaskAlt';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, HttpError } from '../../lib/http';

type Value = string | number | null;
type State =
  | { kind: 'loading' }
  | { kind: 'form'; data: PublicQuiz }
  | { kind: 'done'; message: string }
  | { kind: 'closed'; status: number; message: string };

function Frame({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{ minHeight: '100vh', bgcolor: 'background.default', py: { xs: 2, sm: 4 }, px: { xs: 1.5, sm: 2 } }}
    >
      <Box sx={{ maxWidth: 680, mx: 'auto' }}>
        <Typography
          component="h1"
          variant="h5"
          color="primary"
          sx={{ textAlign: 'center', fontWeight: 600, mb: 2 }}
        >
          Encuesta de Satisfacción
        </Typography>
        {children}
      </Box>
    </Box>
  );
}

function ClosedPage({ status, message }: { status: number; message: string }) {
  const icon =
    status === 410 ? (
      <EventBusy sx={{ fontSize: 56 }} color="warning" />
    ) : status === 409 ? (
      <TaskAlt sx={{ fontSize: 56 }} color="success" />
    ) : (
      <HelpOutline sx={{ fontSize: 56 }} color="action" />
    );
  const hint =
    status === 410
      ? 'El plazo para responder esta encuesta terminó. Si desea darnos su opinión, comuníquese con su concesionario.'
      : status === 409
        ? 'Ya recibimos sus respuestas. Gracias por su tiempo.'
        : status === 404
          ? 'Revise que el enlace este completo, tal como llegó en el correo.'
          : 'Intente nuevamente en unos minutos.';
  return (
    <Paper sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }} data-testid="survey-closed">
      {icon}
      <Typography variant="h6" sx={{ mt: 1 }}>
        {message}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {hint}
      </Typography>
    </Paper>
  );
}

export function missingRequired(questions: QuizQuestion[], values: Record<number, Value>): number[] {
  return questions
    .filter((q) => q.required && (values[q.id] === undefined || values[q.id] === null || values[q.id] === ''))
    .map((q) => q.id);
}

function QuestionInput({
  q,
  value,
  onChange,
  labels,
}: {
  q: QuizQuestion;
  /** The questionnaire's names of ratings 1..4 (the back office shows the same). */
  labels: readonly string[];
  value: Value;
  onChange: (v: Value) => void;
}) {
  if (q.type === 'rating4')
    return (
      <ToggleButtonGroup
        exclusive
        fullWidth
        color="primary"
        value={value}
        onChange={(_, v) => v !== null && onChange(v)}
        aria-label={q.text}
        sx={{ mt: 1 }}
      >
        {[1, 2, 3, 4].map((n) => (
          <ToggleButton
            key={n}
            value={n}
            aria-label={ratingLabel(n, labels)}
            sx={{ flexDirection: 'column', py: 1, px: 0.5, textTransform: 'none', lineHeight: 1.2 }}
          >
            <Typography component="span" sx={{ fontSize: 20, fontWeight: 600 }}>
              {n}
            </Typography>
            {/* A space between number and word (no box in a flex column): the text reads "1 Muy
                insatisfecho", as its name "1 - Muy insatisfecho" (axe: label-content-name-mismatch). */}{' '}
            <Typography component="span" sx={{ fontSize: 11 }}>
              {labels[n - 1] ?? DEFAULT_RATING_LABELS[n - 1]}
            </Typography>
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
    );
  if (q.type === 'yesno')
    return (
      <RadioGroup row value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-label={q.text}>
        <FormControlLabel value="Si" control={<Radio />} label="Sí" />
        <FormControlLabel value="No" control={<Radio />} label="No" />
      </RadioGroup>
    );
  if (q.type === 'choice')
    return (
      <RadioGroup value={value ?? ''} onChange={(e) => onChange(e.target.value)} aria-label={q.text}>
        {(q.options ?? []).map((o) => (
          <FormControlLabel key={o} value={o} control={<Radio />} label={o} />
        ))}
      </RadioGroup>
    );
  return (
    <TextField
      multiline
      minRows={3}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value)}
      placeholder="Escriba su respuesta"
      slotProps={{ htmlInput: { maxLength: 2000, 'aria-label': q.text } }}
      sx={{ mt: 1 }}
    />
  );
}

function SurveyForm({
  token,
  data,
  onDone,
}: {
  token: string;
  data: PublicQuiz;
  onDone: (s: State) => void;
}) {
  const [values, setValues] = useState<Record<number, Value>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const questions = [...data.quiz.questions].sort((a, b) => a.order - b.order);

  const submit = async () => {
    const missing = missingRequired(questions, values);
    if (missing.length) {
      const e: Record<number, string> = {};
      for (const id of missing) e[id] = 'Esta pregunta es obligatoria';
      setErrors(e);
      document.getElementById(`q-${missing[0]}`)?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const answers = questions
        .filter((q) => values[q.id] !== undefined && values[q.id] !== '')
        .map((q) => ({ question_id: q.id, value: values[q.id] ?? null }));
      const r = await call(quizCalls.answer, { params: { token }, body: { answers } }, { silent: true });
      onDone({ kind: 'done', message: r?.message ?? 'Gracias por responder la encuesta' });
    } catch (err) {
      if (err instanceof HttpError && [404, 409, 410].includes(err.status)) {
        onDone({ kind: 'closed', status: err.status, message: err.error?.message ?? err.message });
        return;
      }
      if (err instanceof HttpError && err.validationErrors.length) {
        const e: Record<number, string> = {};
        for (const v of err.validationErrors) {
          const id = Number(v.field.replace(/^answers\./, ''));
          if (id) e[id] = v.message;
        }
        setErrors(e);
      }
      setFailure(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      noValidate
    >
      <Paper sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
        <Typography variant="h6">{data.quiz.title}</Typography>
        <Typography sx={{ mt: 1 }}>
          Estimado(a) {data.buyer_name}, gracias por su compra en <strong>{data.dealer.name}</strong>.
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mt: 0.5 }}>
          {data.vehicle.brand} {data.vehicle.model} {data.vehicle.year} · VIN {data.vehicle.vin}
        </Typography>
        {data.quiz.description && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {data.quiz.description}
          </Typography>
        )}
      </Paper>
      {questions.map((q, i) => (
        <Paper key={q.id} id={`q-${q.id}`} sx={{ p: { xs: 2, sm: 3 }, mb: 1.5 }}>
          <FormControl error={!!errors[q.id]} fullWidth component="fieldset">
            <FormLabel component="legend" sx={{ color: 'text.primary', fontWeight: 500 }}>
              {i + 1}. {q.text}
              {q.required && (
                <Box component="span" sx={{ color: 'error.main' }}>
                  {' '}
                  *
                </Box>
              )}
            </FormLabel>
            <QuestionInput
              q={q}
              labels={data.quiz.rating_labels ?? DEFAULT_RATING_LABELS}
              value={values[q.id] ?? null}
              onChange={(v) => {
                setValues((s) => ({ ...s, [q.id]: v }));
                setErrors(({ [q.id]: _, ...rest }) => rest);
              }}
            />
            {errors[q.id] && <FormHelperText>{errors[q.id]}</FormHelperText>}
          </FormControl>
        </Paper>
      ))}
      {failure && (
        <Alert severity="error" sx={{ mb: 2, whiteSpace: 'pre-line' }}>
          {failure}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" fullWidth disabled={busy} sx={{ py: 1.5 }}>
        {busy ? <CircularProgress size={24} color="inherit" /> : 'Enviar respuestas'}
      </Button>
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ display: 'block', textAlign: 'center', mt: 1 }}
      >
        * Pregunta obligatoria
      </Typography>
    </Box>
  );
}

export default function PublicQuizPage() {
  const [sp] = useSearchParams();
  const token = sp.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    if (!token) {
      setState({ kind: 'closed', status: 404, message: QUIZ_MESSAGES.notFound });
      return;
    }
    let alive = true;
    setState({ kind: 'loading' });
    call(quizCalls.publicQuiz, { params: { token } }, { silent: true })
      .then((data) => alive && setState({ kind: 'form', data }))
      .catch((err) => {
        if (!alive) return;
        const status = err instanceof HttpError ? err.status : 0;
        const message =
          err instanceof HttpError && err.error?.message
            ? err.error.message
            : status === 404
              ? QUIZ_MESSAGES.notFound
              : err instanceof Error
                ? err.message
                : String(err);
        setState({ kind: 'closed', status, message });
      });
    return () => {
      alive = false;
    };
  }, [token]);

  return (
    <Frame>
      {state.kind === 'loading' && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
          <CircularProgress />
        </Box>
      )}
      {state.kind === 'form' && <SurveyForm token={token} data={state.data} onDone={setState} />}
      {state.kind === 'closed' && <ClosedPage status={state.status} message={state.message} />}
      {state.kind === 'done' && (
        <Paper sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }} data-testid="survey-done">
          <CheckCircleOutline sx={{ fontSize: 56 }} color="success" />
          <Typography variant="h6" sx={{ mt: 1 }}>
            {state.message}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Su opinión nos ayuda a mejorar la atención de nuestra red de concesionarios.
          </Typography>
        </Paper>
      )}
    </Frame>
  );
}
