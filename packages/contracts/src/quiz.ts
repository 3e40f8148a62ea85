// Satisfaction surveys: questionnaires, their questions, the public answer and the statistics.
import { z } from 'zod';
import { defineContract, field } from './resources/fields';

export const QUIZ_KINDS = [
  { id: 'sales', name: 'Ventas' },
  { id: 'postventa', name: 'Postventa' },
] as const;
export type QuizKind = (typeof QUIZ_KINDS)[number]['id'];

export const QUESTION_TYPES = [
  { id: 'rating4', name: 'Calificacion (4 niveles)' },
  { id: 'yesno', name: 'Si / No' },
  { id: 'choice', name: 'Opcion unica' },
  { id: 'text', name: 'Texto libre' },
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number]['id'];

/** Rating levels: 1 is the lowest (raises an alert), 4 the top box. */
export const RATING_LEVELS = [
  { id: 1, name: 'Muy insatisfecho' },
  { id: 2, name: 'Insatisfecho' },
  { id: 3, name: 'Satisfecho' },
  { id: 4, name: 'Muy satisfecho' },
] as const;

export const QUIZ_MESSAGES = {
  alreadyAnswered: 'Esta encuesta ya fue respondida',
  expired: 'El enlace de la encuesta ha expirado',
  notFound: 'Encuesta no encontrada',
  insufficientSample: 'muestra insuficiente',
} as const;

const kindCodes = QUIZ_KINDS.map((k) => k.id) as unknown as [QuizKind, ...QuizKind[]];
const typeCodes = QUESTION_TYPES.map((t) => t.id) as unknown as [QuestionType, ...QuestionType[]];

const questionLabels = {
  quiz_id: 'Encuesta',
  order: 'Orden',
  text: 'Pregunta',
  type: 'Tipo',
  options: 'Opciones',
  required: 'Obligatoria',
};

const questionShape = {
  order: field.int(questionLabels.order, 0, 10_000).optional(),
  text: field.text(questionLabels.text, 500),
  type: z.enum(typeCodes, { error: () => `${questionLabels.type} no es valido` }),
  options: z
    .array(z.string().trim().min(1, 'Opcion vacia').max(200), { error: () => 'Opciones no es valido' })
    .max(20, 'Como maximo 20 opciones')
    .nullable()
    .optional(),
  required: field.bool(questionLabels.required),
};

const choiceNeedsOptions = (q: { type?: string; options?: string[] | null }) =>
  q.type !== 'choice' || (q.options?.length ?? 0) >= 2;
const choiceMessage = {
  message: 'Una pregunta de opcion unica necesita al menos 2 opciones',
  path: ['options'],
};

/** A question edited on its own (resource quiz-questions). */
export const questionContract = defineContract({
  path: 'quiz-questions',
  permission: 'Quizzes',
  title: 'Preguntas',
  labels: questionLabels,
  pageSize: 50,
  schema: z.object({ quiz_id: field.ref(questionLabels.quiz_id), ...questionShape }),
});

/** A question inside a questionnaire sent whole (quizzes create/update with `questions`). */
export const quizQuestionSchema = z
  .object({ id: z.number().int().positive().optional(), ...questionShape })
  .refine(choiceNeedsOptions, choiceMessage);
export type QuizQuestionInput = z.input<typeof quizQuestionSchema>;

const quizLabels = {
  title: 'Titulo',
  description: 'Descripcion',
  manufacturer_id: 'Marca',
  manufacturer_name: 'Marca',
  kind: 'Tipo',
  questions: 'Preguntas',
  question_count: 'Preguntas',
};

export const quizContract = defineContract({
  path: 'quizzes',
  permission: 'Quizzes',
  title: 'Encuestas',
  labels: quizLabels,
  pageSize: 5,
  schema: z.object({
    title: field.text(quizLabels.title, 200),
    description: field.optText(quizLabels.description, 1000),
    /** null or 0 = every brand. */
    manufacturer_id: field.optRef(quizLabels.manufacturer_id),
    kind: z.enum(kindCodes, { error: () => `${quizLabels.kind} no es valido` }),
    active: field.bool('Habilitado'),
    /** When present, replaces the questionnaire's questions in this order. */
    questions: z.array(quizQuestionSchema).max(100, 'Como maximo 100 preguntas').optional(),
  }),
});
export type QuizInput = z.input<typeof quizContract.schema>;

export interface QuizQuestion {
  id: number;
  order: number;
  text: string;
  type: QuestionType;
  options: string[] | null;
  required: boolean;
}

/** GET /api/public/quiz/{token}. */
export interface PublicQuiz {
  quiz: { id: number; title: string; description: string | null; kind: QuizKind; questions: QuizQuestion[] };
  dealer: { name: string };
  vehicle: { brand: string; model: string; year: number; vin: string };
  buyer_name: string;
  expires_at: string;
}

/** POST /api/public/quiz/{token} body. */
export const publicAnswerSchema = z.object({
  answers: z
    .array(
      z.object({
        question_id: z
          .number({ error: () => 'question_id no es valido' })
          .int()
          .positive(),
        value: z.union([
          z.string().max(2000, 'Respuesta demasiado larga'),
          z.number(),
          z.boolean(),
          z.null(),
        ]),
      }),
      { error: () => 'Respuestas es obligatorio' },
    )
    .max(200),
});
export type PublicAnswerInput = z.infer<typeof publicAnswerSchema>;

export const alertReplySchema = z.object({
  reply: z
    .string({ error: () => 'Respuesta es obligatorio' })
    .trim()
    .min(1, 'Respuesta es obligatorio')
    .max(4000, 'Respuesta admite como maximo 4000 caracteres'),
});

/** GET /api/table-stats. */
export interface CoberturaRow {
  dealer_id: number;
  dealer_name: string;
  sales: number;
  invitations: number;
  responses: number;
  response_rate: number;
  invalid_contacts: number;
  invalid_contact_rate: number;
}
export interface PostventaRow {
  dealer_id: number;
  dealer_name: string;
  responses: number;
  average: number | null;
  top_box: number | null;
  questions: { question: string; answers: number; average: number | null; top_box: number | null }[];
}
export interface RankingRow {
  position?: number;
  dealer_id: number;
  dealer_name: string;
  responses: number;
  rating_answers: number;
  top_box: number | null;
  average: number | null;
  label?: string;
}
export interface TableStats {
  cobertura: CoberturaRow[];
  postventa: PostventaRow[];
  ranking: { min_sample: number; ranked: RankingRow[]; insufficient: RankingRow[] };
}
