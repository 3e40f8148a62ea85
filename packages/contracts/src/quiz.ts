// Satisfaction surveys: questionnaires, their questions, the public answer and the statistics.

import { defineContract, f, field } from './resources/fields';
import { z } from './zod';

export const QUIZ_KINDS = [
  { id: 'sales', name: 'Ventas' },
  { id: 'postventa', name: 'Postventa' },
] as const;
export type QuizKind = (typeof QUIZ_KINDS)[number]['id'];

export const QUESTION_TYPES = [
  { id: 'rating4', name: 'Calificación (4 niveles)' },
  { id: 'yesno', name: 'Sí / No' },
  { id: 'choice', name: 'Opción única' },
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

/** The names of ratings 1..4 a new questionnaire starts with (each questionnaire keeps its own). */
export const DEFAULT_RATING_LABELS = RATING_LEVELS.map((r) => r.name) as readonly string[];

/** The label of a rating as the back office shows it: '4 - Muy satisfecho'. */
export function ratingLabel(rating: number, labels: readonly string[] = DEFAULT_RATING_LABELS): string {
  const name = labels[rating - 1] ?? DEFAULT_RATING_LABELS[rating - 1] ?? '';
  return name ? `${rating} - ${name}` : String(rating);
}

export const QUIZ_MESSAGES = {
  alreadyAnswered: 'Esta encuesta ya fue respondida',
  expired: 'El enlace de la encuesta ha expirado',
  notFound: 'Encuesta no encontrada',
  insufficientSample: 'muestra insuficiente',
} as const;

const kindCodes = QUIZ_KINDS.map((k) => k.id) as unknown as [QuizKind, ...QuizKind[]];
const typeCodes = QUESTION_TYPES.map((t) => t.id) as unknown as [QuestionType, ...QuestionType[]];

const questionShape = {
  order: field.int('Orden', 0, 10_000).optional(),
  text: field.text('Pregunta', 500),
  type: field.choice('Tipo', typeCodes),
  options: z
    .array(z.string().trim().min(1, 'Opción vacía').max(200), { error: () => 'Opciones no es válido' })
    .max(20, 'Como máximo 20 opciones')
    .nullable()
    .optional(),
  required: field.bool('Obligatoria'),
};

const choiceNeedsOptions = (q: { type?: string; options?: string[] | null }) =>
  q.type !== 'choice' || (q.options?.length ?? 0) >= 2;
const choiceMessage = {
  message: 'Una pregunta de opción única necesita al menos 2 opciones',
  path: ['options'],
};

/**
 * A question edited on its own (resource quiz-questions); a questionnaire's questions are edited
 * on one page (the questions dialog), not paged by 5.
 */
export const questionContract = defineContract(
  { path: 'quiz-questions', permission: 'Quizzes', title: 'Preguntas', pageSize: 50, sort: 'order' },
  {
    quiz_id: f.ref('Encuesta', 'quizzes', { filter: true }),
    order: { label: 'Orden', rule: questionShape.order, sort: true },
    text: { label: 'Pregunta', rule: questionShape.text, search: true, sort: true },
    type: { label: 'Tipo', rule: questionShape.type, sort: true, filter: true, options: QUESTION_TYPES },
    options: { label: 'Opciones', rule: questionShape.options },
    required: { label: 'Obligatoria', rule: questionShape.required },
  },
);

/** A question inside a questionnaire sent whole (quizzes create/update with `questions`). */
export const quizQuestionSchema = z
  .object({ id: z.number().int().positive().optional(), ...questionShape })
  .refine(choiceNeedsOptions, choiceMessage);

export const quizContract = defineContract(
  {
    path: 'quizzes',
    permission: 'Quizzes',
    title: 'Encuestas',
    sort: 'title',
    lookup: 'authenticated',
    lookupOrder: 'title',
  },
  {
    title: f.text('Título', 200, { search: true, sort: true, column: { flex: 2 } }),
    description: f.optText('Descripción', 1000, { search: true, input: 'textarea' }),
    /** null or 0 = every brand. */
    manufacturer_id: f.optRef('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { sort: true, column: true }),
    kind: f.rule('Tipo', (l) => field.choice(l, kindCodes), {
      sort: true,
      filter: true,
      options: QUIZ_KINDS,
      column: { width: 120 },
    }),
    question_count: f.display('Preguntas', { column: { width: 110, type: 'number' } }),
    /** The names of ratings 1..4 (public survey and back office). */
    rating_labels: {
      label: 'Etiquetas de calificación',
      rule: z
        .array(
          z
            .string()
            .trim()
            .min(1, 'Etiqueta de calificación es obligatorio')
            .max(40, 'Etiqueta de calificación admite como máximo 40 caracteres'),
          {
            error: () => 'Etiquetas de calificación no es válido',
          },
        )
        .length(4, 'Indique las 4 etiquetas de calificación')
        .optional(),
      input: false,
    },
    active: f.active(),
    created_at: f.created(),
    /** When present, replaces the questionnaire's questions in this order. */
    questions: {
      label: 'Preguntas',
      rule: z.array(quizQuestionSchema).max(100, 'Como máximo 100 preguntas').optional(),
      input: false,
    },
  },
);

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
  quiz: {
    id: number;
    title: string;
    description: string | null;
    kind: QuizKind;
    /** The names of ratings 1..4 of this questionnaire. */
    rating_labels: string[];
    questions: QuizQuestion[];
  };
  dealer: { name: string };
  vehicle: { brand: string; model: string; year: number; vin: string };
  buyer_name: string;
  expires_at: string;
}

/**
 * GET /api/public/quiz/{token}'s result, held to PublicQuiz (loose objects: a result schema is
 * documentation and the fuzzer's check, never a filter of the answer).
 */
export const publicQuizSchema: z.ZodType<PublicQuiz> = z.looseObject({
  quiz: z.looseObject({
    id: z.int(),
    title: z.string(),
    description: z.string().nullable(),
    kind: z.enum(kindCodes),
    rating_labels: z.array(z.string()),
    questions: z.array(
      z.looseObject({
        id: z.int(),
        order: z.int(),
        text: z.string(),
        type: z.enum(typeCodes),
        options: z.array(z.string()).nullable(),
        required: z.boolean(),
      }),
    ),
  }),
  dealer: z.looseObject({ name: z.string() }),
  vehicle: z.looseObject({ brand: z.string(), model: z.string(), year: z.int(), vin: z.string() }),
  buyer_name: z.string(),
  expires_at: z.string(),
});

/** POST /api/public/quiz/{token} body. */
export const publicAnswerSchema = z.object({
  answers: z
    .array(
      z.object({
        question_id: z
          .number({ error: () => 'question_id no es válido' })
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
    .max(4000, 'Respuesta admite como máximo 4000 caracteres'),
});

/**
 * An alert of a rating at the lowest level (resource quiz-alerts): read-only but for the
 * dealer's reply (alertReplySchema), then its close; both are audited under this contract.
 */
export const alertContract = defineContract(
  {
    path: 'quiz-alerts',
    permission: 'Quizzes',
    title: 'Alertas de encuesta',
    // Oldest first: with the default status (open), the one waiting longest leads.
    sort: { field: 'opened_at', order: 'asc' },
  },
  {
    opened_at: f.display('Abierta', { sort: true }),
    age_days: f.display('Antigüedad (días)', { sort: true, column: { width: 110, header: 'Antigüedad' } }),
    dealer_id: f.display('Concesionario'),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 1 } }),
    sale_id: f.display('Venta'),
    vin: f.display('VIN', { search: true }),
    buyer_name: f.display('Cliente', { search: true, sort: true, column: { flex: 1.2 } }),
    email: f.display('Email'),
    phone: f.display('Teléfono'),
    manufacturer_name: f.display('Marca'),
    model_name: f.display('Modelo', { search: true, column: { flex: 1.2, header: 'Vehículo' } }),
    response_id: f.display('Respuesta de encuesta'),
    detail: f.display('Calificado con 1', { search: true, column: { flex: 1.5 } }),
    reply: f.rule('Respuesta', () => alertReplySchema.shape.reply, { search: true, column: { flex: 1.5 } }),
    replied_at: f.display('Respondida'),
    replied_by: f.display('Respondida por'),
    closed_at: f.display('Cerrada', { sort: true }),
    closed_by: f.display('Cerrada por'),
    closed_by_name: f.display('Cerrada por'),
  },
);

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

const rankingRowSchema = z.looseObject({
  position: z.int().optional(),
  dealer_id: z.int(),
  dealer_name: z.string(),
  responses: z.int(),
  rating_answers: z.int(),
  top_box: z.number().nullable(),
  average: z.number().nullable(),
  label: z.string().optional(),
});

/** GET /api/table-stats' result, held to TableStats (loose objects, as publicQuizSchema). */
export const tableStatsSchema: z.ZodType<TableStats> = z.looseObject({
  cobertura: z.array(
    z.looseObject({
      dealer_id: z.int(),
      dealer_name: z.string(),
      sales: z.int(),
      invitations: z.int(),
      responses: z.int(),
      response_rate: z.number(),
      invalid_contacts: z.int(),
      invalid_contact_rate: z.number(),
    }),
  ),
  postventa: z.array(
    z.looseObject({
      dealer_id: z.int(),
      dealer_name: z.string(),
      responses: z.int(),
      average: z.number().nullable(),
      top_box: z.number().nullable(),
      questions: z.array(
        z.looseObject({
          question: z.string(),
          answers: z.int(),
          average: z.number().nullable(),
          top_box: z.number().nullable(),
        }),
      ),
    }),
  ),
  ranking: z.looseObject({
    min_sample: z.int(),
    ranked: z.array(rankingRowSchema),
    insufficient: z.array(rankingRowSchema),
  }),
});

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const QUIZ_CONTRACTS = [quizContract, questionContract, alertContract] as const;
