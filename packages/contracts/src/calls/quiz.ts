// Satisfaction surveys: the invitations, the public survey, the alerts and the statistics
// (modules/quiz on the server).

import { REPORT_QUERIES } from '../query';
import { alertReplySchema, publicAnswerSchema } from '../quiz';
import { salesQuizRequestSchema } from '../sales';
import { z } from '../zod';
import { defineCall } from './call';

/** An alert as saved (its row). */
const alertRow = z.looseObject({ id: z.int(), reply: z.string().nullable(), closed_at: z.unknown() });
const statsRows = z.array(z.looseObject({}));

export const quizCalls = {
  request: defineCall({
    method: 'POST',
    path: '/api/sales-quiz-request',
    body: salesQuizRequestSchema,
    result: z.object({
      invited: z.int(),
      reminded: z.int(),
      skipped: z.array(
        z.object({ sale_id: z.int(), buyer: z.string().nullable().optional(), reason: z.string() }),
      ),
    }),
  }),
  publicQuiz: defineCall({
    method: 'GET',
    path: '/api/public/quiz/:token',
    result: z.looseObject({
      quiz: z.looseObject({
        id: z.int(),
        title: z.string(),
        description: z.string().nullable(),
        kind: z.string(),
        rating_labels: z.array(z.string()),
        questions: z.array(z.looseObject({ id: z.int() })),
      }),
      dealer: z.looseObject({ name: z.string() }),
      vehicle: z.looseObject({}),
      buyer_name: z.string(),
      expires_at: z.string(),
    }),
  }),
  answer: defineCall({
    method: 'POST',
    path: '/api/public/quiz/:token',
    body: publicAnswerSchema,
    result: z.object({ saved: z.literal(true), response_id: z.int(), message: z.string() }),
  }),
  reply: defineCall({
    method: 'PUT',
    path: '/api/quiz-alerts/:id/reply',
    body: alertReplySchema,
    result: alertRow,
  }),
  close: defineCall({ method: 'PUT', path: '/api/quiz-alerts/:id/close', result: alertRow }),
  stats: defineCall({
    method: 'GET',
    path: '/api/table-stats',
    query: REPORT_QUERIES.tableStats,
    result: z.object({
      cobertura: statsRows,
      postventa: statsRows,
      ranking: z.object({ min_sample: z.int(), ranked: statsRows, insufficient: statsRows }),
    }),
  }),
  statsExport: defineCall({
    method: 'GET',
    path: '/api/table-stats/export',
    query: REPORT_QUERIES.tableStats,
    file: true,
  }),
};
