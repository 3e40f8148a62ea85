// Info Taller beyond its resource (modules/workshop on the server): the import (its template,
// upload and JSON twin) and report-info with its .xlsx export.

import { REPORT_QUERIES } from '../query';
import { workshopBatchSchema } from '../resources/workshop';
import { importResultSchema } from '../sales';
import { z } from '../zod';
import { defineCall } from './call';

const num = z.number();
const nullNum = z.number().nullable();
/** A dealer's month summed over its branches, with the ratios (WorkshopFigures). */
const workshopFigures = {
  work_orders_opened: num,
  work_orders_closed: num,
  hours_sold: num,
  hours_worked: num,
  labour_revenue: num,
  parts_revenue: num,
  available_hours: nullNum,
  productivity: nullNum,
  efficiency: nullNum,
  labour_rate: nullNum,
  parts_per_order: nullNum,
};

/** One row of report-info (ReportInfoRow): a dealer's month and the same month a year before. */
export const reportInfoRowSchema = z.looseObject({
  ...workshopFigures,
  dealer_id: z.int(),
  dealer_code: z.string(),
  dealer_name: z.string(),
  year: z.int(),
  month: z.int(),
  previous: z.looseObject(workshopFigures).nullable(),
});

export const workshopCalls = {
  import: defineCall({
    method: 'POST',
    path: '/api/workshop-infos/import',
    upload: true,
    result: importResultSchema,
  }),
  template: defineCall({ method: 'GET', path: '/api/workshop-infos/template', file: true }),
  batch: defineCall({
    method: 'POST',
    path: '/api/workshop-infos/batch',
    body: workshopBatchSchema,
    result: importResultSchema,
  }),
  report: defineCall({
    method: 'GET',
    path: '/api/reports/report-info',
    query: REPORT_QUERIES.reportInfo,
    result: z.array(reportInfoRowSchema),
  }),
  reportExport: defineCall({
    method: 'GET',
    path: '/api/reports/report-info/export',
    query: REPORT_QUERIES.reportInfo,
    file: true,
  }),
};
