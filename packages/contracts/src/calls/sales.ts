// CEM sales beyond their resource: the import, its template and JSON twin, the pull from the
// external sales system, the dealers with sales and a sale's survey answers (modules/sales).

import { intParam } from '../period';
import { defineQuery, optionalYearParam, QUERY_LABELS } from '../query';
import { importResultSchema, salesApiRequestSchema, salesBatchSchema } from '../sales';
import { z } from '../zod';
import { defineCall } from './call';

export const salesCalls = {
  import: defineCall({ method: 'POST', path: '/api/sales/import', upload: true, result: importResultSchema }),
  template: defineCall({ method: 'GET', path: '/api/sales/template', file: true }),
  batch: defineCall({
    method: 'POST',
    path: '/api/sales/batch',
    body: salesBatchSchema,
    result: importResultSchema,
  }),
  pull: defineCall({
    method: 'POST',
    path: '/api/sales-api',
    body: salesApiRequestSchema,
    result: importResultSchema,
  }),
  dealers: defineCall({
    method: 'GET',
    path: '/api/sale-dealers',
    query: defineQuery({
      year: optionalYearParam({ lastYear: 'next' }),
      month: intParam(QUERY_LABELS.month, 1, 12).meta({ type: 'integer', description: '1..12' }),
    }),
    result: z.array(z.object({ id: z.int(), code: z.string(), name: z.string(), sales: z.int() })),
  }),
  responses: defineCall({
    method: 'GET',
    path: '/api/sales/:id/responses',
    result: z.object({
      sale_id: z.int(),
      invitations: z.array(z.looseObject({ id: z.int() })),
      responses: z.array(z.looseObject({ id: z.int() })),
    }),
  }),
};
