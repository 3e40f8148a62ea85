// Seguimiento's calls beyond its resource (modules/agreements on the server).

import { REPORT_QUERIES } from '../query';
import {
  agreementAgeSummarySchema,
  agreementCommentSchema,
  agreementEventSchema,
  agreementNotifyResultSchema,
  agreementNotifySchema,
} from '../resources/agreements';
import { z } from '../zod';
import { defineCall } from './call';

/** A fixed list's entries: the stored id and its Spanish name. */
const idNames = z.array(z.object({ id: z.string(), name: z.string() }));

export const agreementCalls = {
  levels: defineCall({ method: 'GET', path: '/api/agreements-levels', result: idNames }),
  statuses: defineCall({ method: 'GET', path: '/api/agreements-statuses', result: idNames }),
  history: defineCall({
    method: 'GET',
    path: '/api/agreements/:id/history',
    result: z.array(agreementEventSchema),
  }),
  comment: defineCall({
    method: 'POST',
    path: '/api/agreements/:id/comments',
    body: agreementCommentSchema,
    result: z.object({
      agreement: z.looseObject({ id: z.int(), status: z.string() }),
      history: z.array(agreementEventSchema),
    }),
  }),
  notify: defineCall({
    method: 'POST',
    path: '/api/agreements-noty',
    body: agreementNotifySchema,
    result: agreementNotifyResultSchema,
  }),
  summary: defineCall({
    method: 'GET',
    path: '/api/agreements-summary',
    query: REPORT_QUERIES.agreementsSummary,
    result: agreementAgeSummarySchema,
  }),
};
