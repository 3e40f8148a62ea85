// The answers of survey responses, in question order, attached to each response (the
// responses screen and a sale's responses both show them).
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { quizAnswers, quizQuestions } from './quiz.tables';

export async function withAnswers<R extends { id: number }>(
  db: Executor,
  responses: R[],
): Promise<(R & { answers: Record<string, unknown>[] })[]> {
  const answers = responses.length
    ? await db
        .select({
          response_id: quizAnswers.response_id,
          question_id: quizAnswers.question_id,
          question: quizAnswers.question,
          question_type: quizAnswers.question_type,
          value: quizAnswers.value,
          rating: quizAnswers.rating,
        })
        .from(quizAnswers)
        .leftJoin(quizQuestions, eq(quizQuestions.id, quizAnswers.question_id))
        .where(
          inArray(
            quizAnswers.response_id,
            responses.map((r) => r.id),
          ),
        )
        .orderBy(
          asc(quizAnswers.response_id),
          sql`coalesce(${quizQuestions.order}, 9999)`,
          asc(quizAnswers.id),
        )
    : [];
  return responses.map((r) => ({
    ...r,
    answers: answers.filter((a) => a.response_id === r.id).map(({ response_id: _r, ...a }) => a),
  }));
}
