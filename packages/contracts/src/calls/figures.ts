// Figures (cifras), fees (cuotas), capacities and the Resumen Comparativo (modules/figures on the
// server): the grids with their batch saves, exports and uploads, the period transitions, the
// dealers' state of a month with its reminder, and the CASIS pull.

import {
  capacityBatchSchema,
  capacityRowSchema,
  casisRequestSchema,
  feesAnswerSchema,
  figureConceptSchema,
  figureConfirmSchema,
  figureDealerRowSchema,
  figureEnableSchema,
  figureRemindSchema,
  figureReopenSchema,
  figuresAnswerSchema,
  gridBatchSchema,
  gridImportReportSchema,
  resumenAnswerSchema,
} from '../figures';
import {
  dealerParam,
  defineQuery,
  monthParam,
  REPORT_QUERIES,
  requiredMonthParam,
  yearParam,
} from '../query';
import { z } from '../zod';
import { defineCall } from './call';
import { backgroundJobSchema } from './shell';

/** The query of a grid call: year (up to next year, for fees planned ahead), month, dealer_id. */
export const gridQuery = defineQuery({
  year: yearParam({ lastYear: 'next' }),
  month: monthParam(),
  dealer_id: dealerParam(),
});

/** The query of a one-month grid call (capacities): the month must be given. */
export const monthGridQuery = defineQuery({
  year: yearParam({ lastYear: 'next' }),
  month: requiredMonthParam(),
  dealer_id: dealerParam(),
});

/** The query of a year grid call (fees): year and dealer_id. */
export const yearGridQuery = defineQuery({ year: yearParam({ lastYear: 'next' }), dealer_id: dealerParam() });

/** A grid upload's answer: its per-row report, or (a big file, 202) the job that runs it. */
const gridUpload = z.union([gridImportReportSchema, backgroundJobSchema]);

/** What a grid save answers: the cells written (and how many were given). */
const gridSaved = z.looseObject({ cells: z.int() });

export const figureCalls = {
  grid: defineCall({ method: 'GET', path: '/api/figures', query: gridQuery, result: figuresAnswerSchema }),
  batch: defineCall({ method: 'PUT', path: '/api/figure-batch', body: gridBatchSchema, result: gridSaved }),
  concept: defineCall({
    method: 'PUT',
    path: '/api/figure-concept',
    body: figureConceptSchema,
    result: gridSaved,
  }),
  export: defineCall({ method: 'GET', path: '/api/figures/export', query: gridQuery, file: true }),
  import: defineCall({ method: 'POST', path: '/api/figures/import', upload: true, result: gridUpload }),
  enable: defineCall({
    method: 'POST',
    path: '/api/figures/enable',
    body: figureEnableSchema,
    result: z.object({
      enabled: z.int(),
      /** Dealers left as they were (only with `all`): already enabled or confirmed. */
      skipped: z.array(z.object({ dealer_id: z.int(), dealer_code: z.string(), status: z.string() })),
    }),
  }),
  confirm: defineCall({
    method: 'POST',
    path: '/api/figures/confirm',
    body: figureConfirmSchema,
    result: z.looseObject({ id: z.int() }),
  }),
  reopen: defineCall({
    method: 'POST',
    path: '/api/figure-periods/:id/reopen',
    body: figureReopenSchema,
    result: z.looseObject({ id: z.int() }),
  }),
  dealers: defineCall({
    method: 'GET',
    path: '/api/figure-dealers',
    query: defineQuery({ year: yearParam({ lastYear: 'next' }), month: requiredMonthParam() }),
    result: z.array(figureDealerRowSchema),
  }),
  remind: defineCall({
    method: 'POST',
    path: '/api/figure-dealers/remind',
    body: figureRemindSchema,
    result: z.object({
      reminded: z.int(),
      mails: z.int(),
      without_recipients: z.array(z.string()),
      not_late: z.int(),
    }),
  }),
  casis: defineCall({
    method: 'POST',
    path: '/api/casis-api',
    body: casisRequestSchema,
    result: gridImportReportSchema,
  }),
  resumen: defineCall({
    method: 'GET',
    path: '/api/resumen-comparativo',
    query: REPORT_QUERIES.resumen,
    result: resumenAnswerSchema,
  }),
  resumenExport: defineCall({
    method: 'GET',
    path: '/api/resumen-comparativo/export',
    query: REPORT_QUERIES.resumen,
    file: true,
  }),
};

export const feeCalls = {
  grid: defineCall({ method: 'GET', path: '/api/fees', query: yearGridQuery, result: feesAnswerSchema }),
  batch: defineCall({ method: 'PUT', path: '/api/fees-batch', body: gridBatchSchema, result: gridSaved }),
  export: defineCall({ method: 'GET', path: '/api/fees/export', query: yearGridQuery, file: true }),
  import: defineCall({ method: 'POST', path: '/api/fees/import', upload: true, result: gridUpload }),
};

export const capacityCalls = {
  grid: defineCall({
    method: 'GET',
    path: '/api/capacities',
    query: monthGridQuery,
    result: z.array(capacityRowSchema),
  }),
  batch: defineCall({
    method: 'PUT',
    path: '/api/capacity-batch',
    body: capacityBatchSchema,
    result: z.object({ saved: z.int(), removed: z.int() }),
  }),
  /** Names the file (SPEC §7: `result.filename`) and where to download it (`result.url`). */
  export: defineCall({
    method: 'GET',
    path: '/api/capacities/export',
    query: monthGridQuery,
    result: z.object({ filename: z.string(), url: z.string(), rows: z.int() }),
  }),
  download: defineCall({
    method: 'GET',
    path: '/api/capacities/download',
    query: monthGridQuery,
    file: true,
  }),
};
