// Satisfaction surveys: the invitations, the public survey, the alerts and the statistics
// (modules/quiz on the server).

import { REPORT_QUERIES } from '../query';
import { alertReplySchema, publicAnswerSchema, publicQuizSchema, tableStatsSchema } from '../quiz';
import { salesQuizRequestSchema } from '../sales';
import { z } from '../zod';
import { defineCall } from './call';

/** An alert as saved (its row). */
const alertRow = z.looseObject({ id: z.int(), reply: z.string().nullable(), closed_at: z.unknown() });

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
    result: publicQuizSchema,
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
    result: tableStatsSchema,
  }),
  statsExport: defineCall({
    method: 'GET',
    path: '/api/table-stats/export',
    query: REPORT_QUERIES.tableStats,
    file: true,
  }),
};
