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
const nullNum = z.number().nullable();

// The answers of the dashboard's widget calls (the interfaces of ../dashboard, as schemas):
// looseObjects naming every key the screens read, so /api/docs says them and the fuzzer checks them.
const filterSchema = z.object({
  year: z.int(),
  month: nullInt,
  dealer_id: nullInt,
  manufacturer_id: nullInt,
});
const periodSchema = z.object({
  from: z.string(),
  to: z.string(),
  prev_from: z.string(),
  prev_to: z.string(),
  figures_month: z.int(),
});
const numberSchema = z.looseObject({ value: nullNum, previous: nullNum, target: nullNum.optional() });
const monthSchema = z.looseObject({
  month: z.int(),
  value: nullNum,
  previous: nullNum,
  target: nullNum.optional(),
});
const rankedDealer = z.looseObject({
  dealer_id: z.int(),
  dealer_name: z.string(),
  top_box: nullNum,
  position: z.int().optional(),
});

export const dashboardGroupSchemas = {
  ventas: z.looseObject({
    sales: numberSchema,
    daily: numberSchema,
    by_month: z.array(monthSchema),
    by_brand: z.array(
      z.looseObject({ manufacturer_id: z.int(), name: z.string(), value: z.number(), previous: z.number() }),
    ),
  }),
  encuestas: z.looseObject({
    sales: z.number(),
    invitations: z.number(),
    responses: z.number(),
    coverage: numberSchema,
    top_box: numberSchema,
    coverage_by_month: z.array(monthSchema),
    top_box_by_month: z.array(monthSchema),
    best: z.array(rankedDealer),
    worst: z.array(rankedDealer),
  }),
  despachos: z.looseObject({
    dispatched: numberSchema,
    sold: numberSchema,
    objective: z.number(),
    objective_to_date: z.number(),
    pacing: nullNum,
    compliance: nullNum,
    status: z.string().nullable(),
    days_elapsed: z.number(),
    days_total: z.number(),
    by_month: z.array(monthSchema),
    behind: z.array(
      z.looseObject({
        dealer_id: z.int(),
        dealer_name: z.string(),
        manufacturer_name: z.string(),
        pacing: nullNum,
      }),
    ),
  }),
  cifras: z.looseObject({
    year: z.int(),
    month: z.int(),
    compliance: numberSchema,
    concepts: z.array(
      z.looseObject({
        concept_id: z.int(),
        code: z.string(),
        name: z.string(),
        unit: z.string().nullable(),
        ytd: nullNum,
        ytd_prev: nullNum,
        ytd_fee: nullNum,
        ytd_compliance: nullNum,
        compliance: nullNum,
      }),
    ),
  }),
  seguimiento: z.looseObject({
    open_agreements: numberSchema,
    overdue_agreements: z.number(),
    agreements_by_age: z.array(z.looseObject({ key: z.string(), name: z.string(), count: z.number() })),
    open_alerts: numberSchema,
    alerts_by_age: z.array(z.looseObject({ bucket: z.string(), count: z.number() })),
  }),
  taller: z.looseObject({
    productivity: numberSchema,
    efficiency: numberSchema,
    hours_worked: z.number(),
    available_hours: nullNum,
    months_reported: z.number(),
    by_month: z.array(monthSchema),
  }),
} as const;

const g = dashboardGroupSchemas;

/** The widget calls' answers (GET /api/dash-widgets, /api/dash-figures, /api/widget-*, ...). */
export const dashboardResults = {
  /** /api/dash-widgets: every group; one of a module the user cannot view is null. */
  widgets: z.object({
    filter: filterSchema,
    period: periodSchema,
    groups: z.object({
      ventas: g.ventas.nullable(),
      encuestas: g.encuestas.nullable(),
      despachos: g.despachos.nullable(),
      cifras: g.cifras.nullable(),
      seguimiento: g.seguimiento.nullable(),
      taller: g.taller.nullable(),
    }),
  }),
  /** /api/dash-figures: the headline cards (null: a group the user cannot view). */
  figures: z.object({
    filter: filterSchema,
    period: periodSchema,
    cards: z.object({
      sales: numberSchema.nullable(),
      dispatched: numberSchema.nullable(),
      pacing: nullNum,
      coverage: numberSchema.nullable(),
      top_box: numberSchema.nullable(),
      compliance: numberSchema.nullable(),
      open_agreements: numberSchema.nullable(),
      open_alerts: numberSchema.nullable(),
      productivity: numberSchema.nullable(),
    }),
  }),
  /** /api/dashboard/indicators: the cards as a list, this period and the year before. */
  indicators: z.object({
    filter: filterSchema,
    period: periodSchema,
    rows: z.array(
      z.object({
        name: z.string(),
        unit: z.enum(['unidades', '%', 'registros']),
        value: nullNum,
        previous: nullNum,
        variation: nullNum,
      }),
    ),
  }),
  /** /api/chart-compliance: each concept with a year-to-date compliance. */
  compliance: z.array(
    z.object({ concept_id: z.int(), name: z.string(), compliance: z.number(), month: nullNum }),
  ),
} as const;

export const dashboardCalls = {
  summary: defineCall({
    method: 'GET',
    path: '/api/dashboard/summary',
    query: dashboardSummaryQuery,
    result: z.object({
      schema: z.enum(DASHBOARD_SCHEMAS),
      filter: filterSchema,
      period: periodSchema,
      /** The group named by `schema` (DashboardGroups[schema]). */
      result: z.looseObject({}),
    }),
  }),
};
