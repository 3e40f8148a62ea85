// Questionnaires and their questions, declared as resources (permission base 'Quizzes').
// A questionnaire may be saved whole: `questions` in the body replaces its questions in order
// (ids kept for questions sent with their id, so answers keep their link).
import { questionContract, quizContract } from '@app/contracts';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { ConflictError } from '../../core/errors';
import { registerTableLabels } from '../../core/labels';
import { defineResource, fromContract, type Row } from '../../core/resource';
import { manufacturers } from '../../db/schema';
import { quizQuestions, quizzes } from './quiz.tables';

registerTableLabels('quiz_invitations', 'Invitaciones de encuesta', {
  sale_id: 'Venta',
  quiz_id: 'Encuesta',
});
registerTableLabels('quiz_responses', 'Respuestas de encuesta', { quiz_id: 'Encuesta' });

export type QuestionIn = {
  id?: number;
  order?: number;
  text: string;
  type: string;
  options?: string[] | null;
  required?: boolean;
};

async function replaceQuestions(tx: any, quizId: number, questions: QuestionIn[]): Promise<void> {
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

async function loadQuestions(db: any, quizId: number) {
  return db
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
}

export const quizResource = defineResource({
  ...fromContract(quizContract),
  table: quizzes,
  joins: [{ table: manufacturers, on: eq(quizzes.manufacturer_id, manufacturers.id) }],
  display: {
    manufacturer_name: sql<string>`coalesce(${manufacturers.name}, 'Todas')`,
    question_count: sql<number>`(select count(*)::int from quiz_questions qq where qq.quiz_id = ${quizzes.id})`,
  },
  defaultSort: 'title',
  lookupOrder: 'title',
  lookup: 'authenticated',
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
      return { ...row, questions: await loadQuestions(db, row.id) };
    },
  },
});

export const questionResource = defineResource({
  ...fromContract(questionContract),
  table: quizQuestions,
  defaultSort: 'order',
  hooks: {
    beforeSave(data: Row) {
      if (data.type && data.type !== 'choice') data.options = null;
      if (data.type === 'choice' && (!Array.isArray(data.options) || data.options.length < 2)) {
        throw new ConflictError('Una pregunta de opcion unica necesita al menos 2 opciones');
      }
      return data;
    },
  },
});
