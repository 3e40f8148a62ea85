// The Info Taller calls beyond CRUD, declared on the engine: the template, the .xlsx import and
// the JSON batch (all or nothing, a report per row), and report-info with its .xlsx export.
import { MONTH_NAMES, type ReportInfoRow, WORKSHOP_FILES, workshopBatchSchema } from '@app/contracts';
import type { Db } from '../../core/action';
import { defineAction } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ValidationError } from '../../core/errors';
import type { QueryParams } from '../../core/http';
import { readInt, readPeriod, readRef } from '../../core/period';
import { withUploadedFile } from '../../core/upload';
import { sendXlsxBuffer, sendXlsxReport } from '../../core/xlsx';
import { requestedDealer } from '../figures/figures.scope';
import { SALES_UPLOAD } from '../sales/sales.xlsx';
import { readWorkshopRows, rowsFromObjects, saveWorkshopRows, workshopTemplate } from './workshop.import';
import { reportInfo } from './workshop.summary';

const tags = ['Info Taller'];

const template = defineAction({
  method: 'GET',
  path: '/api/workshop-infos/template',
  summary: 'Plantilla vacía Plantilla_Info_Taller.xlsx',
  tags,
  access: { permission: 'WorkshopInfos.view' },
  download: true,
  raw: true,
  async handler({ reply }) {
    return sendXlsxBuffer(reply, WORKSHOP_FILES.template, await workshopTemplate());
  },
});

const importFile = defineAction({
  method: 'POST',
  path: '/api/workshop-infos/import',
  summary: 'Información de taller desde la plantilla .xlsx (campo file); todo o nada, con reporte por fila',
  tags,
  access: { permission: 'WorkshopInfos.store' },
  rateLimit: 'upload',
  // The audit row (who, how many) is written by saveWorkshopRows in the transaction of the rows.
  async handler({ request, user, db }) {
    return withUploadedFile(request, SALES_UPLOAD, async (upload) =>
      saveWorkshopRows(db, await readWorkshopRows(upload.file, upload.bytes), user, 'import'),
    );
  },
});

const batch = defineAction({
  method: 'POST',
  path: '/api/workshop-infos/batch',
  summary: 'Información de taller como JSON {rows}; mismas reglas que la carga, en una transacción',
  tags,
  access: { permission: 'WorkshopInfos.store' },
  body: workshopBatchSchema,
  bodyLimit: 20 * 1024 * 1024,
  async handler({ body, user, db }) {
    return saveWorkshopRows(db, rowsFromObjects(body.rows), user, 'batch');
  },
});

const reportQuery = {
  year: { type: 'integer', description: 'Año (por defecto el actual)' },
  month_from: { type: 'integer', description: '1..12 (por defecto 1)' },
  month_to: { type: 'integer', description: '1..12 (por defecto 12)' },
  dealer_id: {
    type: 'integer',
    description: 'Concesionario; ausente o 0: todos (un usuario de concesionario: el suyo)',
  },
};

/** The period and dealer of a report-info query; a dealer outside the caller's scope is 404. */
async function readReportQuery(db: Db, user: CurrentUser, query: QueryParams) {
  const { year, month } = readPeriod(query);
  const monthFrom = readInt(query, 'month_from', 'Mes desde', 1, 12) ?? month ?? 1;
  const monthTo = readInt(query, 'month_to', 'Mes hasta', 1, 12) ?? month ?? 12;
  if (monthFrom > monthTo)
    throw ValidationError.field('month_to', 'Mes hasta no puede ser anterior a Mes desde');
  const requested = readRef(query, ['dealer_id', 'dealer'], 'Concesionario');
  const dealer = await requestedDealer(db, user, requested);
  return { year, monthFrom, monthTo, dealerId: dealer?.id ?? null, dealer };
}

const report = defineAction({
  method: 'GET',
  path: '/api/reports/report-info',
  summary:
    'Productividad, eficiencia, tarifa efectiva de mano de obra y repuestos por OT por concesionario y mes, con el mismo mes del año anterior',
  tags,
  access: { permission: 'WorkshopInfos.view' },
  query: reportQuery,
  async handler({ query, user, db }) {
    return reportInfo(db, user, await readReportQuery(db, user, query));
  },
});

const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : v * 100);

/** A report row as the export's cells (ratios as percents, the year before beside them). */
function exportRow(r: ReportInfoRow): Record<string, unknown> {
  const p = r.previous;
  return {
    dealer_code: r.dealer_code,
    dealer_name: r.dealer_name,
    month: MONTH_NAMES[r.month - 1],
    work_orders_closed: r.work_orders_closed,
    hours_sold: r.hours_sold,
    hours_worked: r.hours_worked,
    available_hours: r.available_hours,
    labour_revenue: r.labour_revenue,
    parts_revenue: r.parts_revenue,
    productivity: pct(r.productivity),
    prev_productivity: pct(p?.productivity),
    efficiency: pct(r.efficiency),
    prev_efficiency: pct(p?.efficiency),
    labour_rate: r.labour_rate,
    prev_labour_rate: p?.labour_rate ?? null,
    parts_per_order: r.parts_per_order,
    prev_parts_per_order: p?.parts_per_order ?? null,
  };
}

const reportExport = defineAction({
  method: 'GET',
  path: '/api/reports/report-info/export',
  summary: 'Reporte de Info Taller (report-info) en .xlsx',
  tags,
  access: { permission: 'WorkshopInfos.export' },
  query: reportQuery,
  download: true,
  raw: true,
  async handler({ query, user, db, reply }) {
    const q = await readReportQuery(db, user, query);
    const rows = await reportInfo(db, user, q);
    const prev = q.year - 1;
    return sendXlsxReport(reply, {
      filename: WORKSHOP_FILES.report(q.year),
      sheetName: 'Info Taller',
      title: 'Reporte de Info Taller',
      info: [
        ['Concesionario', q.dealer ? `${q.dealer.code} ${q.dealer.name}` : 'Todos'],
        ['Periodo', `${MONTH_NAMES[q.monthFrom - 1]} a ${MONTH_NAMES[q.monthTo - 1]} ${q.year}`],
      ],
      columns: [
        { key: 'dealer_code', header: 'Código', width: 10 },
        { key: 'dealer_name', header: 'Concesionario', width: 28 },
        { key: 'month', header: 'Mes', width: 12 },
        { key: 'work_orders_closed', header: 'OT cerradas', type: 'int', total: true },
        { key: 'hours_sold', header: 'Horas vendidas', type: 'number', total: true },
        { key: 'hours_worked', header: 'Horas trabajadas', type: 'number', total: true },
        { key: 'available_hours', header: 'Horas disponibles', type: 'number', total: true },
        { key: 'labour_revenue', header: 'Venta mano de obra', type: 'money', total: true, width: 18 },
        { key: 'parts_revenue', header: 'Venta repuestos', type: 'money', total: true, width: 18 },
        { key: 'productivity', header: 'Productividad', type: 'percent' },
        { key: 'prev_productivity', header: `Productividad ${prev}`, type: 'percent' },
        { key: 'efficiency', header: 'Eficiencia', type: 'percent' },
        { key: 'prev_efficiency', header: `Eficiencia ${prev}`, type: 'percent' },
        { key: 'labour_rate', header: 'Tarifa efectiva MO', type: 'money' },
        { key: 'prev_labour_rate', header: `Tarifa efectiva MO ${prev}`, type: 'money' },
        { key: 'parts_per_order', header: 'Repuestos por OT', type: 'money' },
        { key: 'prev_parts_per_order', header: `Repuestos por OT ${prev}`, type: 'money' },
      ],
      rows: [rows.map(exportRow)],
      totalsLabel: 'Total',
      totalsFrom: (s) => ({
        productivity: s.available_hours ? (s.hours_worked / s.available_hours) * 100 : null,
        efficiency: s.hours_worked ? (s.hours_sold / s.hours_worked) * 100 : null,
        labour_rate: s.hours_sold ? s.labour_revenue / s.hours_sold : null,
        parts_per_order: s.work_orders_closed ? s.parts_revenue / s.work_orders_closed : null,
      }),
      freezeColumns: 3,
    });
  },
});

export const workshopActions = [template, importFile, batch, report, reportExport];
