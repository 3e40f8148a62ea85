// The dashboard's calls (modules/dashboard on the server) that the screens make: one widget group
// for the filters.

import { DASHBOARD_SCHEMAS } from '../dashboard';
import { defineQuery, REPORT_QUERIES } from '../query';
import { z } from '../zod';
import { defineCall } from './call';

const schemaMessage = `El grupo debe ser uno de: ${DASHBOARD_SCHEMAS.join(', ')}`;

/** The query of /api/dashboard/summary: the filters and the group named. */
export const dashboardSummaryQuery = defineQuery({
  ...REPORT_QUERIES.dashboard.shape,
  schema: z.preprocess(
    (v) => (Array.isArray(v) ? v[v.length - 1] : v),
    z.enum(DASHBOARD_SCHEMAS, { error: schemaMessage }),
  ),
});

const nullInt = z.int().nullable();

export const dashboardCalls = {
  summary: defineCall({
    method: 'GET',
    path: '/api/dashboard/summary',
    query: dashboardSummaryQuery,
    result: z.object({
      schema: z.enum(DASHBOARD_SCHEMAS),
      filter: z.object({ year: z.int(), month: nullInt, dealer_id: nullInt, manufacturer_id: nullInt }),
      period: z.object({
        from: z.string(),
        to: z.string(),
        prev_from: z.string(),
        prev_to: z.string(),
        figures_month: z.int(),
      }),
      /** The group named by `schema` (DashboardGroups[schema]). */
      result: z.looseObject({}),
    }),
  }),
};
