// The survey's declared resources (permission base 'Quizzes'): questionnaires and their
// questions, and, read-only, the responses (with their answers) and the alerts of a rating at
// the lowest level, both within the caller's dealer scope. A questionnaire may be saved whole:
// `questions` in the body replaces its questions in order (ids kept for questions sent with
// their id, so answers keep their link). The calls beyond these are in quiz.actions.ts.
import {
  alertContract,
  QUERY_LABELS,
  type QuizQuestion,
  questionContract,
  quizContract,
} from '@app/contracts';
import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, notInArray, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor, Tx } from '../../core/action';
import { ConflictError, ValidationError } from '../../core/errors';
import { type QueryParams, qs } from '../../core/http';
import { registerTableLabels } from '../../core/labels';
import { defineResource, fromContract, type Row } from '../../core/resource';
import { dealers, manufacturers, users } from '../../db/schema';
import { sales } from '../sales/sales.tables';
import { withAnswers } from './quiz.answers';
import { periodRange } from './quiz.stats';
import { quizAlerts, quizQuestions, quizResponses, quizzes } from './quiz.tables';

registerTableLabels('quiz_invitations', 'Invitaciones de encuesta', {
  sale_id: 'Venta',
  quiz_id: 'Encuesta',
});

export type QuestionIn = {
  id?: number;
  order?: number;
  text: string;
  type: string;
  options?: string[] | null;
  required?: boolean;
};

async function replaceQuestions(tx: Tx, quizId: number, questions: QuestionIn[]): Promise<void> {
  const keepIds = questions.map((q) => q.id).filter((id): id is number => !!id);
  // Questions removed from a questionnaire already answered keep their answers readable:
  // each answer holds its question's text (question_id becomes null).
  await tx
    .delete(quizQuestions)
    .where(
      keepIds.length
        ? and(eq(quizQuestions.quiz_id, quizId), notInArray(quizQuestions.id, keepIds))
        : eq(quizQuestions.quiz_id, quizId),
    );
  if (keepIds.length) {
    const own = await tx
      .select({ id: quizQuestions.id })
      .from(quizQuestions)
      .where(and(eq(quizQuestions.quiz_id, quizId), inArray(quizQuestions.id, keepIds)));
    if (own.length !== new Set(keepIds).size) {
      throw new ConflictError('Una de las preguntas enviadas no pertenece a esta encuesta');
    }
  }
  let order = 1;
  for (const q of questions) {
    const values = {
      quiz_id: quizId,
      order: order++,
      text: q.text,
      type: q.type,
      options: q.type === 'choice' ? (q.options ?? []) : null,
      required: q.required ?? true,
      updated_at: new Date(),
    };
    if (q.id) await tx.update(quizQuestions).set(values).where(eq(quizQuestions.id, q.id));
    else await tx.insert(quizQuestions).values(values);
  }
}

/** A questionnaire's questions in their order (the editor and the public survey). */
export async function questionsOf(db: Executor, quizId: number): Promise<QuizQuestion[]> {
  const rows = await db
    .select({
      id: quizQuestions.id,
      order: quizQuestions.order,
      text: quizQuestions.text,
      type: quizQuestions.type,
      options: quizQuestions.options,
      required: quizQuestions.required,
    })
    .from(quizQuestions)
    .where(eq(quizQuestions.quiz_id, quizId))
    .orderBy(asc(quizQuestions.order), asc(quizQuestions.id));
  return rows as QuizQuestion[];
}

export const quizResource = defineResource({
  ...fromContract(quizContract),
  table: quizzes,
  joins: [{ table: manufacturers, on: eq(quizzes.manufacturer_id, manufacturers.id) }],
  display: {
    manufacturer_name: sql<string>`coalesce(${manufacturers.name}, 'Todas')`,
    question_count: sql<number>`(select count(*)::int from quiz_questions qq where qq.quiz_id = ${quizzes.id})`,
  },
  listColumns: ['id', 'title', 'kind', 'manufacturer_name', 'question_count', 'active'],
  hooks: {
    beforeSave(data: Row) {
      delete data.questions;
      return data;
    },
    async afterSave(_row, ctx) {
      const questions = ctx.input.questions as QuestionIn[] | undefined;
      if (questions) await replaceQuestions(ctx.tx, ctx.id, questions);
    },
    async afterLoad(row, db) {
      return { ...row, questions: await questionsOf(db, row.id) };
    },
  },
});

export const questionResource = defineResource({
  ...fromContract(questionContract),
  table: quizQuestions,
  hooks: {
    beforeSave(data: Row) {
      if (data.type && data.type !== 'choice') data.options = null;
      if (data.type === 'choice' && (!Array.isArray(data.options) || data.options.length < 2)) {
        throw new ConflictError('Una pregunta de opción única necesita al menos 2 opciones');
      }
      return data;
    },
  },
});

/**
 * A whole-number filter given as `?name=` (the older form) or `filter[name]=`: checked like the
 * call always did (Spanish message naming the parameter); 0 means "no filter".
 */
function intFilter(name: string, label: string, min: number, max: number, apply: (n: number) => SQL) {
  return (v: string): SQL | undefined => {
    if (v === '') return undefined;
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max)
      throw ValidationError.field(name, `${label} no es válido`);
    const n = Number(v);
    return n === 0 ? undefined : apply(n);
  };
}

const MAX_ID = 2147483647;

const responseLabels = {
  quiz_id: 'Encuesta',
  quiz_title: 'Encuesta',
  quiz_kind: 'Tipo',
  sale_id: 'Venta',
  vin: 'VIN',
  buyer_name: 'Cliente',
  model_name: 'Modelo',
  dealer_id: QUERY_LABELS.dealer,
  dealer_name: QUERY_LABELS.dealer,
  answered_at: 'Respondida',
};

/** Survey responses, each with its answers in question order (the answers screen, a sale's survey). */
export const responseResource = defineResource({
  name: 'quiz-responses',
  path: 'quiz-responses',
  table: quizResponses,
  schema: z.object({}),
  readOnly: true,
  permission: 'Quizzes',
  label: 'Respuestas de encuesta',
  labels: responseLabels,
  pageSize: 10,
  hidden: ['invitation_id'],
  joins: [
    { table: quizzes, on: eq(quizResponses.quiz_id, quizzes.id) },
    { table: sales, on: eq(quizResponses.sale_id, sales.id) },
    { table: dealers, on: eq(quizResponses.dealer_id, dealers.id) },
  ],
  display: {
    quiz_title: quizzes.title,
    quiz_kind: quizzes.kind,
    vin: sales.vin,
    buyer_name: sales.buyer_name,
    model_name: sales.model_name,
    dealer_name: dealers.name,
  },
  searchable: ['vin', 'buyer_name', 'dealer_name', 'quiz_title'],
  sortable: ['id', 'answered_at', 'quiz_title', 'vin', 'buyer_name', 'dealer_name'],
  defaultSort: { field: 'answered_at', order: 'desc' },
  filters: ['quiz_kind'],
  filterHandlers: {
    dealer_id: intFilter('dealer_id', QUERY_LABELS.dealer, 0, MAX_ID, (n) => eq(quizResponses.dealer_id, n)),
    quiz_id: intFilter('quiz_id', 'Encuesta', 0, MAX_ID, (n) => eq(quizResponses.quiz_id, n)),
    sale_id: intFilter('sale_id', 'Venta', 0, MAX_ID, (n) => eq(quizResponses.sale_id, n)),
    // The period is the sale's date, as in the statistics.
    year: intFilter('year', 'Año', 2000, 2100, (n) => {
      const [from, to] = periodRange(n);
      return and(gte(sales.sale_date, from), lt(sales.sale_date, to))!;
    }),
    month: intFilter('month', 'Mes', 0, 12, (n) => sql`extract(month from ${sales.sale_date}) = ${n}`),
  },
  plainFilters: ['dealer_id', 'quiz_id', 'sale_id', 'year', 'month'],
  dealerScoped: 'dealer_id',
  listColumns: ['id', 'answered_at', 'dealer_name', 'quiz_title', 'vin', 'buyer_name', 'model_name'],
  async extendList(result, { db }) {
    return { ...result, data: await withAnswers(db, result.data as { id: number }[]) };
  },
});

const ALERT_STATUS: Record<string, SQL | undefined> = {
  open: isNull(quizAlerts.closed_at),
  closed: isNotNull(quizAlerts.closed_at),
  all: undefined,
};

/** Without page or perPage the alerts list answers the bare array, as it did before paging. */
const unpaged = (query: QueryParams) => qs(query, 'page') === undefined && qs(query, 'perPage') === undefined;

/**
 * Alerts of a rating at the lowest level, with their age in days; open ones unless `status`
 * says closed or all. The dealer replies and closes them (actions in quiz.actions.ts).
 */
export const alertResource = defineResource({
  ...fromContract(alertContract),
  table: quizAlerts,
  readOnly: true,
  // The unpaged answer (see extendList) holds up to this many alerts, as before paging.
  pageSize: 1000,
  joins: [
    { table: dealers, on: eq(quizAlerts.dealer_id, dealers.id) },
    { table: sales, on: eq(quizAlerts.sale_id, sales.id) },
    { table: manufacturers, on: eq(manufacturers.id, sales.manufacturer_id) },
    { table: users, on: eq(quizAlerts.closed_by, users.id) },
  ],
  display: {
    dealer_name: dealers.name,
    vin: sales.vin,
    buyer_name: sales.buyer_name,
    email: sales.email,
    phone: sales.phone,
    model_name: sales.model_name,
    manufacturer_name: manufacturers.name,
    closed_by_name: users.full_name,
    age_days: sql<number>`floor(extract(epoch from (coalesce(${quizAlerts.closed_at}, now()) - ${quizAlerts.opened_at})) / 86400)::int`,
  },
  filterHandlers: {
    status: (v) => {
      if (v === '') return undefined;
      if (!Object.hasOwn(ALERT_STATUS, v))
        throw ValidationError.field('status', 'Estado no es válido (open, closed, all)');
      return ALERT_STATUS[v];
    },
    dealer_id: intFilter('dealer_id', QUERY_LABELS.dealer, 0, MAX_ID, (n) => eq(quizAlerts.dealer_id, n)),
  },
  plainFilters: ['status', 'dealer_id'],
  defaultFilters: { status: 'open' },
  dealerScoped: 'dealer_id',
  listColumns: [
    'id',
    'opened_at',
    'age_days',
    'dealer_name',
    'buyer_name',
    'email',
    'phone',
    'manufacturer_name',
    'model_name',
    'vin',
    'detail',
    'reply',
    'closed_at',
    'closed_by_name',
  ],
  extendList: (result, { query }) => (unpaged(query) ? result.data : result),
});
