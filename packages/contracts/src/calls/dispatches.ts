// Dispatches, objectives and daily sales (modules/dispatches on the server).

import {
  dailyGridSchema,
  dailySalesBatchSchema,
  objectivesBatchSchema,
  objectivesSummarySchema,
  reportRequestSchema,
  simaPullResultSchema,
  transactionSummarySchema,
} from '../dispatches';
import {
  brandParam,
  dateParam,
  dealerParam,
  defineQuery,
  monthParam,
  optionalYearParam,
  REPORT_QUERIES,
  requiredMonthParam,
  yearParam,
} from '../query';
import { importResultSchema } from '../sales';
import { z } from '../zod';
import { defineCall } from './call';
import { backgroundJobOf } from './shell';

const dealerQuery = defineQuery(
  { year: optionalYearParam({ lastYear: 'next' }), manufacturer: brandParam(), dealer_id: dealerParam() },
  { dealer: 'dealer_id', manufacturer_id: 'manufacturer' },
);

export const dispatchCalls = {
  simaPull: defineCall({
    method: 'GET',
    path: '/api/transaction-api',
    query: defineQuery({
      date_from: dateParam('Desde'),
      date_to: dateParam('Hasta'),
      year: optionalYearParam({ lastYear: 'next' }),
      month: monthParam(),
    }),
    /** Answered 202: the pull runs as a background job (its result, a SimaPullResult, on GET /api/jobs/:id). */
    result: backgroundJobOf(simaPullResultSchema),
  }),
  simaBrands: defineCall({
    method: 'GET',
    path: '/api/transaction/manufacturers-sima',
    result: z.array(
      z.looseObject({
        code: z.string(),
        name: z.string(),
        manufacturer_id: z.int().nullable(),
        manufacturer_name: z.string().nullable(),
      }),
    ),
  }),
  summary: defineCall({
    method: 'GET',
    path: '/api/transaction-summary',
    query: REPORT_QUERIES.transactionSummary,
    result: transactionSummarySchema,
  }),
  dealerModels: defineCall({
    method: 'GET',
    path: '/api/transaction/dealer-models',
    query: dealerQuery,
    result: z.object({
      data: z.array(
        z.object({
          manufacturer_model_id: z.int(),
          model_name: z.string(),
          manufacturer_id: z.int(),
          manufacturer_name: z.string(),
          units: z.number(),
        }),
      ),
    }),
  }),
  objectivesSummary: defineCall({
    method: 'GET',
    path: '/api/objectives-summary',
    query: REPORT_QUERIES.objectivesSummary,
    result: objectivesSummarySchema,
  }),
  objectivesImport: defineCall({
    method: 'POST',
    path: '/api/dispatches-objectives/import',
    upload: true,
    result: importResultSchema,
  }),
  objectivesTemplate: defineCall({ method: 'GET', path: '/api/dispatches-objectives/template', file: true }),
  objectivesBatch: defineCall({
    method: 'POST',
    path: '/api/dispatches-objectives',
    body: objectivesBatchSchema,
    result: importResultSchema,
  }),
  daily: defineCall({
    method: 'GET',
    path: '/api/daily-sales',
    query: REPORT_QUERIES.dailySales,
    result: dailyGridSchema,
  }),
  dailyImport: defineCall({
    method: 'POST',
    path: '/api/daily-sales/import',
    /** The file's month (a job keeps it). */
    query: defineQuery({ year: yearParam({ lastYear: 'next' }), month: requiredMonthParam() }),
    upload: true,
    result: importResultSchema,
  }),
  dailySave: defineCall({
    method: 'POST',
    path: '/api/daily-sales',
    body: dailySalesBatchSchema,
    result: importResultSchema,
  }),
  dailyTemplate: defineCall({
    method: 'GET',
    path: '/api/daily-sales/template',
    query: REPORT_QUERIES.dailySales,
    file: true,
  }),
  dailyReport: defineCall({
    method: 'GET',
    path: '/api/daily-sales-report',
    query: REPORT_QUERIES.dailySales,
    file: true,
  }),
  report: defineCall({
    method: 'GET',
    path: '/api/transaction/report-export',
    query: REPORT_QUERIES.transactionSummary,
    file: true,
  }),
  dynamicReport: defineCall({
    method: 'POST',
    path: '/api/transaction/export-dynamic-report',
    body: reportRequestSchema,
    file: true,
  }),
  internalReport: defineCall({
    method: 'POST',
    path: '/api/transaction/export-internal-report',
    body: reportRequestSchema,
    file: true,
  }),
  internalDailyReport: defineCall({
    method: 'POST',
    path: '/api/transaction/export-internal-daily-report',
    body: reportRequestSchema,
    file: true,
  }),
};
