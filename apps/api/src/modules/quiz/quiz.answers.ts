// The answers of survey responses, in question order, attached to each response (the
// responses screen and a sale's responses both show them).
import type { DatabaseHandle } from '../../db/client';

export async function withAnswers<R extends { id: number }>(
  handle: DatabaseHandle,
  responses: R[],
): Promise<(R & { answers: Record<string, unknown>[] })[]> {
  const answers = responses.length
    ? await handle.query<{ response_id: number }>(
        `select a.response_id, a.question_id, a.question, a.question_type, a.value, a.rating
         from quiz_answers a left join quiz_questions qq on qq.id = a.question_id
         where a.response_id = any($1::int[]) order by a.response_id, coalesce(qq."order", 9999), a.id`,
        [responses.map((r) => r.id)],
      )
    : [];
  return responses.map((r) => ({
    ...r,
    answers: answers.filter((a) => a.response_id === r.id).map(({ response_id: _r, ...a }) => a),
  }));
}
