// The calls of dispatches, objectives and daily sales beyond CRUD, declared on the engine: the SIMA
// pull and brands, the summaries, objectives (JSON, upload, template), the daily grid (read, save,
// template, upload) and the named reports of SPEC §7.
import { dispatchCalls as calls, DISPATCH_FILES, type SimaPullResult } from '@app/contracts';
import { fetchSimaBrands, requireSimaConfigured } from '../../connectors/sima';
import { defineAction } from '../../core/action';
import { writeAudit } from '../../core/audit';
import { defineJob, type JobDef, jobView } from '../../core/jobs';
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
import { fetchAndCheck, monthsOf, type Period, pullPeriod, upsertLines } from './dispatches.sima';
import { dailyGrid, dealerModels, objectivesSummary, transactionSummary } from './dispatches.summary';
import { objectivesImport } from './objectives';

const tags = ['Despachos'];
const dailyTags = ['Venta diaria'];

// The queries of the module's calls: a period (objectives are loaded up to next year), the brand
// (?manufacturer, or ?manufacturer_id) and the dealer (?dealer_id, or ?dealer).

/** The brand of a parsed query (looked up: an unknown one is a 422); its dealer is the call's scope. */
async function readFilters(db: Parameters<typeof readBrand>[0], query: { manufacturer?: string }) {
  const brand = await readBrand(db, query.manufacturer);
  return { brand, manufacturerId: brand?.id };
}

/** The steps the SIMA pull's job shows. */
export const SIMA_STEPS = {
  asking: (done: number, total: number) => `Pidiendo los despachos a SIMA: mes ${done + 1} de ${total}`,
  saving: (n: number) => `Guardando ${n} despachos`,
} as const;

/**
 * The SIMA pull as a background job (issue 24): asking SIMA month by month, checking the lines and
 * writing them run off the request path, on whichever server takes the job, with its progress
 * (months asked) and its owner told when it ends. All or nothing as before: one transaction with
 * the one audit row.
 */
export const simaPullJob = defineJob<{ period: Period }>({
  kind: 'sima-pull',
  permission: 'Transactions.store',
  title: 'Despachos de SIMA',
  type: 'import',
  name: 'Despachos de SIMA',
  link: '/main/dispatches',
  summary(result) {
    const r = result as Partial<SimaPullResult> | null;
    if (!r || typeof r.received !== 'number') return null;
    return r.failed
      ? `${r.failed} de ${r.received} líneas con errores; no se guardó ninguna`
      : `${r.received} líneas: ${r.added ?? 0} nuevas, ${r.updated ?? 0} actualizadas, ${r.unchanged ?? 0} sin cambios`;
  },
  async run({ app, user, data, progress }) {
    const db = app.ctx.handle.db;
    const p = data.period;
    const total = monthsOf(p).length;
    await progress(0, total, SIMA_STEPS.asking(0, total));
    const { months, report, lines } = await fetchAndCheck(db, p, (done, n) =>
      progress(done, n, done < n ? SIMA_STEPS.asking(done, n) : undefined),
    );
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
    if (failed > 0 || lines.length === 0) return { result };
    await progress(total, total, SIMA_STEPS.saving(lines.length));
    const written = await db.transaction(async (tx) => {
      const w = await upsertLines(tx, lines);
      await writeAudit(tx, {
        user,
        resource: 'transactions',
        recordId: null,
        action: 'sima',
        after: { period: `${p.date_from} a ${p.date_to}`, received: report.length, ...w },
      });
      return w;
    });
    return { result: { ...result, ...written, unchanged: report.length - written.added - written.updated } };
  },
});

const pull = defineAction({
  ...calls.simaPull,
  summary:
    'Trae los despachos de SIMA del periodo (por mes) y los guarda, como trabajo en segundo plano: responde 202 con el trabajo (GET /api/jobs/:id, su resultado al terminar); repetir el periodo no duplica',
  tags,
  access: { permission: 'Transactions.store' },
  job: true,
  audit: { pipeline: 'el trabajo sima-pull escribe los despachos y su fila de auditoría en una transacción' },
  async handler({ app, query, db, user, reply }) {
    // Judged here: a wrong period or an unconfigured SIMA answers at once, nothing is queued.
    const period = pullPeriod({ ...query, month: query.month ?? undefined });
    await requireSimaConfigured(db);
    const row = await app.ctx.jobs.submit(
      user,
      simaPullJob as JobDef<never>,
      { period },
      undefined,
      monthsOf(period).length,
    );
    reply.status(202);
    return jobView(row);
  },
});

const simaBrands = defineAction({
  ...calls.simaBrands,
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
  ...calls.summary,
  summary: 'Unidades despachadas por concesionario y mes, con totales',
  tags,
  access: { permission: 'Transactions.view' },
  async handler({ query, scope, db }) {
    return transactionSummary(db, scope, {
      year: query.year,
      months: query.months,
      ...(await readFilters(db, query)),
    });
  },
});

const models = defineAction({
  ...calls.dealerModels,
  summary: 'Modelos despachados a un concesionario (los del catálogo), con sus unidades',
  tags,
  access: { permission: 'Transactions.view', or: ['DailySales.view'] },
  async handler({ query, scope, db }) {
    return { data: await dealerModels(db, scope, { year: query.year, ...(await readFilters(db, query)) }) };
  },
});

const objectives = defineAction({
  ...calls.objectivesSummary,
  summary: 'Unidades contra objetivo y cumplimiento por concesionario y marca; avance del mes a la fecha',
  tags,
  access: { permission: 'Transactions.view' },
  async handler({ query, scope, db }) {
    const { year, month, as_of: asOf } = query;
    return objectivesSummary(db, scope, {
      year,
      month: month ?? undefined,
      asOf,
      ...(await readFilters(db, query)),
    });
  },
});

const grid = defineAction({
  ...calls.daily,
  summary: 'Venta diaria del mes: una fila por concesionario y modelo, una columna por día',
  tags: dailyTags,
  access: { permission: 'DailySales.view' },
  async handler({ query, scope, db }) {
    const { year, month } = query;
    return dailyGrid(db, scope, { year, month, ...(await readFilters(db, query)) });
  },
});

const dailyFile = defineAction({
  ...calls.dailyTemplate,
  summary: 'Plantilla Formato_Daily_{año}_{mes}.xlsx con lo ya registrado',
  tags: dailyTags,
  access: { permission: 'DailySales.view' },
  download: true,
  raw: true,
  async handler({ query, scope, db, reply }) {
    const { year, month } = query;
    const buf = await dailyTemplate(db, scope, { year, month, ...(await readFilters(db, query)) });
    return sendXlsxBuffer(reply, DISPATCH_FILES.dailyTemplate(year, month), buf);
  },
});

const dailyReportFile = defineAction({
  ...calls.dailyReport,
  summary: 'Reporte_Daily_{marca}_{año}_{mes}.xlsx: unidades por concesionario y día',
  tags: dailyTags,
  access: { permission: 'DailySales.export' },
  download: true,
  raw: true,
  async handler({ query, scope, db, reply }) {
    const f = await readFilters(db, query);
    return sendXlsxReport(
      reply,
      await dailyReport(db, scope, { year: query.year, month: query.month, ...f }),
    );
  },
});

const dispatchReportFile = defineAction({
  ...calls.report,
  summary: 'Reporte-Despachos-{marca}-{año}-{meses}.xlsx: despachos por concesionario y mes contra objetivo',
  tags,
  access: { permission: 'Transactions.export' },
  download: true,
  raw: true,
  async handler({ query, scope, db, reply }) {
    const f = await readFilters(db, query);
    return sendXlsxReport(
      reply,
      await dispatchReport(db, scope, { year: query.year, months: query.months, ...f }),
    );
  },
});

const dynamicReportFile = defineAction({
  ...calls.dynamicReport,
  summary: 'Reporte dinámico: los meses elegidos como columnas (nombre title_download, por defecto Reporte)',
  tags,
  access: { permission: 'Transactions.export' },
  raw: true,
  async handler({ body, scope, db, reply }) {
    const brand = await readBrand(db, body.manufacturer);
    return sendXlsxReport(reply, await dynamicReport(db, scope, body, brand));
  },
});

/** The year, month and brand of a report body (month defaults to this month; its dealer is the scope). */
async function reportPeriod(
  db: Parameters<typeof readBrand>[0],
  body: { year?: number; month?: number; manufacturer?: string | number },
) {
  const today = limaToday();
  return {
    year: body.year ?? Number(today.slice(0, 4)),
    month: body.month ?? Number(today.slice(5, 7)),
    brand: await readBrand(db, body.manufacturer),
  };
}

const internalReportFile = defineAction({
  ...calls.internalReport,
  summary:
    'Reporte interno: objetivo, despachos y cumplimiento del mes y acumulado, por concesionario y marca',
  tags,
  access: { permission: 'Transactions.export' },
  raw: true,
  async handler({ body, scope, db, reply }) {
    return sendXlsxReport(reply, await internalReport(db, scope, await reportPeriod(db, body)));
  },
});

const internalDailyReportFile = defineAction({
  ...calls.internalDailyReport,
  summary:
    'Reporte interno de venta diaria: objetivo a la fecha, venta, avance y proyección por concesionario',
  tags,
  access: { permission: 'Transactions.export' },
  raw: true,
  async handler({ body, scope, db, reply }) {
    return sendXlsxReport(reply, await internalDailyReport(db, scope, await reportPeriod(db, body)));
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
