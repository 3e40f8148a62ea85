// The calls of dispatches, objectives and daily sales beyond CRUD, declared on the engine: the SIMA
// pull and brands, the summaries, objectives (JSON, upload, template), the daily grid (read, save,
// template, upload) and the named reports of SPEC §7.
import {
  brandParam,
  DISPATCH_FILES,
  dateParam,
  dealerParam,
  defineQuery,
  monthParam,
  optionalYearParam,
  REPORT_QUERIES,
  reportRequestSchema,
  type SimaPullResult,
  yearParam,
} from '@app/contracts';
import { fetchSimaBrands } from '../../connectors/sima';
import { defineAction } from '../../core/action';
import { limaToday } from '../../core/lima';
import { sendXlsxBuffer, sendXlsxReport } from '../../core/xlsx';
import { dailySalesImport, dailyTemplate } from './daily-sales';
import { loadLookups, readBrand } from './dispatches.lookups';
import {
  dailyReport,
  dispatchReport,
  dynamicReport,
  internalDailyReport,
  internalReport,
} from './dispatches.reports';
import { fetchAndCheck, pullPeriod, upsertLines } from './dispatches.sima';
import { dailyGrid, dealerModels, objectivesSummary, transactionSummary } from './dispatches.summary';
import { objectivesImport } from './objectives';

const tags = ['Despachos'];
const dailyTags = ['Venta diaria'];

// The queries of the module's calls: a period (objectives are loaded up to next year), the brand
// (?manufacturer, or ?manufacturer_id) and the dealer (?dealer_id, or ?dealer).
const _planYear = () => yearParam({ lastYear: 'next' });
const filters = { manufacturer: brandParam(), dealer_id: dealerParam() };
const aliases = { dealer: 'dealer_id', manufacturer_id: 'manufacturer' } as const;
const yearMonthsQuery = REPORT_QUERIES.transactionSummary;
const monthQuery = REPORT_QUERIES.dailySales;

/** The brand (looked up: an unknown one is a 422) and dealer of a parsed query. */
async function readFilters(
  db: Parameters<typeof readBrand>[0],
  query: { manufacturer?: string; dealer_id: number | null },
) {
  const brand = await readBrand(db, query.manufacturer);
  return { brand, manufacturerId: brand?.id, dealerId: query.dealer_id ?? undefined };
}

const pull = defineAction({
  method: 'GET',
  path: '/api/transaction-api',
  summary: 'Trae los despachos de SIMA del periodo (por mes) y los guarda; repetir el periodo no duplica',
  tags,
  access: { permission: 'Transactions.store' },
  query: defineQuery({
    date_from: dateParam('Desde'),
    date_to: dateParam('Hasta'),
    year: optionalYearParam({ lastYear: 'next' }),
    month: monthParam(),
  }),
  audit: { resource: 'transactions', action: 'sima' },
  async handler({ query, db, write }): Promise<SimaPullResult> {
    const p = pullPeriod({ ...query, month: query.month ?? undefined });
    const { months, report, lines } = await fetchAndCheck(db, p);
    const failed = report.filter((r) => !r.ok).length;
    const result: SimaPullResult = {
      received: report.length,
      added: 0,
      updated: 0,
      unchanged: 0,
      failed,
      months,
      report,
    };
    if (failed > 0 || lines.length === 0) return result;
    const written = await write(
      (tx) => upsertLines(tx, lines),
      (w) => ({ after: { period: `${p.date_from} a ${p.date_to}`, received: report.length, ...w } }),
    );
    return { ...result, ...written, unchanged: report.length - written.added - written.updated };
  },
});

const simaBrands = defineAction({
  method: 'GET',
  path: '/api/transaction/manufacturers-sima',
  summary: 'Marcas de SIMA, con la marca local que les corresponde',
  tags,
  access: { permission: 'Transactions.view' },
  async handler({ db }) {
    const l = await loadLookups(db);
    return (await fetchSimaBrands(db)).map((b) => {
      const local = l.brands.get(b.code.toUpperCase()) ?? l.brands.get(b.name.toUpperCase());
      return { ...b, manufacturer_id: local?.id ?? null, manufacturer_name: local?.name ?? null };
    });
  },
});

const summary = defineAction({
  method: 'GET',
  path: '/api/transaction-summary',
  summary: 'Unidades despachadas por concesionario y mes, con totales',
  tags,
  access: { permission: 'Transactions.view' },
  query: yearMonthsQuery,
  async handler({ query, user, db }) {
    return transactionSummary(db, user, {
      year: query.year,
      months: query.months,
      ...(await readFilters(db, query)),
    });
  },
});

const models = defineAction({
  method: 'GET',
  path: '/api/transaction/dealer-models',
  summary: 'Modelos despachados a un concesionario (los del catálogo), con sus unidades',
  tags,
  access: { permission: 'Transactions.view', or: ['DailySales.view'] },
  query: defineQuery({ year: optionalYearParam({ lastYear: 'next' }), ...filters }, aliases),
  async handler({ query, user, db }) {
    return { data: await dealerModels(db, user, { year: query.year, ...(await readFilters(db, query)) }) };
  },
});

const objectives = defineAction({
  method: 'GET',
  path: '/api/objectives-summary',
  summary: 'Unidades contra objetivo y cumplimiento por concesionario y marca; avance del mes a la fecha',
  tags,
  access: { permission: 'Transactions.view' },
  query: REPORT_QUERIES.objectivesSummary,
  async handler({ query, user, db }) {
    const { year, month, as_of: asOf } = query;
    return objectivesSummary(db, user, {
      year,
      month: month ?? undefined,
      asOf,
      ...(await readFilters(db, query)),
    });
  },
});

const grid = defineAction({
  method: 'GET',
  path: '/api/daily-sales',
  summary: 'Venta diaria del mes: una fila por concesionario y modelo, una columna por día',
  tags: dailyTags,
  access: { permission: 'DailySales.view' },
  query: monthQuery,
  async handler({ query, user, db }) {
    const { year, month } = query;
    return dailyGrid(db, user, { year, month, ...(await readFilters(db, query)) });
  },
});

const dailyFile = defineAction({
  method: 'GET',
  path: '/api/daily-sales/template',
  summary: 'Plantilla Formato_Daily_{año}_{mes}.xlsx con lo ya registrado',
  tags: dailyTags,
  access: { permission: 'DailySales.view' },
  query: monthQuery,
  download: true,
  raw: true,
  async handler({ query, user, db, reply }) {
    const { year, month } = query;
    const buf = await dailyTemplate(db, user, { year, month, ...(await readFilters(db, query)) });
    return sendXlsxBuffer(reply, DISPATCH_FILES.dailyTemplate(year, month), buf);
  },
});

const dailyReportFile = defineAction({
  method: 'GET',
  path: '/api/daily-sales-report',
  summary: 'Reporte_Daily_{marca}_{año}_{mes}.xlsx: unidades por concesionario y día',
  tags: dailyTags,
  access: { permission: 'DailySales.export' },
  query: monthQuery,
  download: true,
  raw: true,
  async handler({ query, user, db, reply }) {
    const f = await readFilters(db, query);
    return sendXlsxReport(reply, await dailyReport(db, user, { year: query.year, month: query.month, ...f }));
  },
});

const dispatchReportFile = defineAction({
  method: 'GET',
  path: '/api/transaction/report-export',
  summary: 'Reporte-Despachos-{marca}-{año}-{meses}.xlsx: despachos por concesionario y mes contra objetivo',
  tags,
  access: { permission: 'Transactions.export' },
  query: yearMonthsQuery,
  download: true,
  raw: true,
  async handler({ query, user, db, reply }) {
    const f = await readFilters(db, query);
    return sendXlsxReport(
      reply,
      await dispatchReport(db, user, { year: query.year, months: query.months, ...f }),
    );
  },
});

const dynamicReportFile = defineAction({
  method: 'POST',
  path: '/api/transaction/export-dynamic-report',
  summary: 'Reporte dinámico: los meses elegidos como columnas (nombre title_download, por defecto Reporte)',
  tags,
  access: { permission: 'Transactions.export' },
  body: reportRequestSchema,
  raw: true,
  async handler({ body, user, db, reply }) {
    const brand = await readBrand(db, body.manufacturer);
    return sendXlsxReport(reply, await dynamicReport(db, user, body, brand));
  },
});

/** The year, month and brand of a report body (month defaults to this month). */
async function reportPeriod(
  db: Parameters<typeof readBrand>[0],
  body: { year?: number; month?: number; manufacturer?: string | number; dealer?: number },
) {
  const today = limaToday();
  return {
    year: body.year ?? Number(today.slice(0, 4)),
    month: body.month ?? Number(today.slice(5, 7)),
    brand: await readBrand(db, body.manufacturer),
    dealerId: body.dealer || undefined,
  };
}

const internalReportFile = defineAction({
  method: 'POST',
  path: '/api/transaction/export-internal-report',
  summary:
    'Reporte interno: objetivo, despachos y cumplimiento del mes y acumulado, por concesionario y marca',
  tags,
  access: { permission: 'Transactions.export' },
  body: reportRequestSchema,
  raw: true,
  async handler({ body, user, db, reply }) {
    return sendXlsxReport(reply, await internalReport(db, user, await reportPeriod(db, body)));
  },
});

const internalDailyReportFile = defineAction({
  method: 'POST',
  path: '/api/transaction/export-internal-daily-report',
  summary:
    'Reporte interno de venta diaria: objetivo a la fecha, venta, avance y proyección por concesionario',
  tags,
  access: { permission: 'Transactions.export' },
  body: reportRequestSchema,
  raw: true,
  async handler({ body, user, db, reply }) {
    return sendXlsxReport(reply, await internalDailyReport(db, user, await reportPeriod(db, body)));
  },
});

export const dispatchActions = [
  pull,
  simaBrands,
  summary,
  models,
  ...objectivesImport.actions,
  objectives,
  grid,
  ...dailySalesImport.actions,
  dailyFile,
  dailyReportFile,
  dispatchReportFile,
  dynamicReportFile,
  internalReportFile,
  internalDailyReportFile,
];
