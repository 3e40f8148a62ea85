// The .xlsx export of a declared resource (GET /api/<path>/export): the list's rows under its
// filters, in its order, as the screen shows them; a big one runs as a job.
import path from 'node:path';
import { PgColumn } from 'drizzle-orm/pg-core';
import { assertPermission, currentUser, DOWNLOAD_ROUTE, requireAuth } from './auth';
import { ok } from './envelope';
import { ValidationError } from './errors';
import { type QueryParams, qs } from './http';
import { defineJob, jobView } from './jobs';
import { limaToday } from './lima';
import { XLSX_TYPE } from './openapi';
import type { Resource, Row } from './resource';
import { fieldLabel, listConditions, orderBy } from './resource-query';
import type { ResourceRoutes } from './resource-routes-kit';
import { dateCell, exportFileName, sendXlsx, writeXlsxFile, type XlsxColumn, type XlsxExport } from './xlsx';

const EXPORT_BATCH = 500;
const EXPORT_CAP = 200_000;
/** What a running export job says it is doing. */
const EXPORT_STEP = 'Escribiendo las filas';

type Conditions = Awaited<ReturnType<typeof listConditions>>;

/**
 * How the export writes a field, as the screen shows it: a fixed list's name for its code
 * ('Sin enviar', not 'sin_enviar') and a date-only column as an Excel date, not text.
 */
function exportFormat(res: Resource, key: string): Pick<XlsxColumn, 'cell' | 'numFmt'> {
  const spec = res.fields && Object.hasOwn(res.fields, key) ? res.fields[key] : undefined;
  if (spec?.options) {
    const names = new Map(spec.options.map((o) => [String(o.id), o.name]));
    return { cell: (v) => (v === null || v === undefined ? v : (names.get(String(v)) ?? v)) };
  }
  const column = res.selection[key];
  const dateOnly =
    (column instanceof PgColumn &&
      (column.columnType === 'PgDateString' || column.columnType === 'PgDate')) ||
    (typeof spec?.column === 'object' && spec.column.type === 'date') ||
    spec?.input === 'date';
  return dateOnly ? { cell: dateCell, numFmt: 'yyyy-mm-dd' } : {};
}

/** The export's workbook: the list's rows under `cond`, in its order, batch by batch. */
function exportSpec(
  { res, reader, orderKey }: ResourceRoutes,
  cond: Conditions,
  query: QueryParams,
  keys: string[],
  progress?: (done: number) => Promise<void>,
): XlsxExport {
  const page = { cond, order: orderBy(res, query), orderKey: orderKey(query), limit: EXPORT_BATCH, keys };
  async function* batches() {
    for (let offset = 0; offset < EXPORT_CAP; offset += EXPORT_BATCH) {
      const rows = await reader.page({ ...page, offset });
      if (rows.length) yield rows as Row[];
      await progress?.(offset + rows.length);
      if (rows.length < EXPORT_BATCH) return;
    }
  }
  return {
    filename: `${res.label}_${limaToday()}.xlsx`,
    sheetName: res.label,
    columns: keys.map((k) => ({ key: k, header: fieldLabel(res, k), ...exportFormat(res, k) })),
    rows: batches(),
  };
}

/** The job a big export runs as: the file is written off the request path, for its owner. */
function exportJobOf(r: ResourceRoutes) {
  const { app, res } = r;
  return defineJob<{ query: QueryParams; keys: string[] }>({
    kind: `export:${res.name}`,
    permission: r.perm('export'),
    title: `Exportación de ${res.label}`,
    type: 'export',
    name: res.label,
    link: `/${res.path}`,
    async run({ user, data, dir, progress }) {
      // The owner's scope as it is now (a dealer user's own dealer), as the request would apply it.
      const cond = await listConditions(res, user, data.query, false, app.ctx.handle);
      const spec = exportSpec(r, cond, data.query, data.keys, (done) =>
        progress(done, undefined, EXPORT_STEP),
      );
      const file = path.join(dir, 'exportacion.xlsx');
      await writeXlsxFile(file, spec);
      return { file: { path: file, name: exportFileName(spec.filename) } };
    },
  });
}

/** GET /api/<path>/export: the requested columns (or the list's) of the filtered list. */
export function exportRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  const { listQuery } = r.docs;
  const exportJob = exportJobOf(r);
  app.get(
    `${r.base}/export`,
    {
      preHandler: requireAuth,
      config: DOWNLOAD_ROUTE,
      schema: {
        tags,
        summary: `Exporta ${res.label} a Excel (.xlsx)`,
        querystring: {
          ...listQuery,
          properties: {
            ...listQuery.properties,
            columns: { type: 'string', description: 'a,b,c' },
            ticket: { type: 'string', description: 'Ticket de descarga (POST /api/auth/download-ticket)' },
          },
        },
        ...doc({ file: XLSX_TYPE, query: true, job: true, record: !!res.dealerScoped }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      assertPermission(user, r.perm('export'));
      const query = request.query as QueryParams;
      const requested = qs(query, 'columns')
        ?.split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const all = res.listColumns ?? res.answered;
      const keys = requested?.length ? requested : all;
      const unknown = keys.filter((k) => !res.answered.includes(k));
      if (unknown.length)
        throw ValidationError.field('columns', `Columnas no válidas: ${unknown.join(', ')}`);
      const cond = await listConditions(res, user, query, false, app.ctx.handle);
      // A big export runs as a job: the request answers 202 at once, the file is written off the
      // request path and its owner downloads it from GET /api/jobs/:id/file when it is ready.
      const { total } = await r.reader.count(cond);
      if (total > app.ctx.config.exportJobRows) {
        const { ticket: _ticket, ...kept } = query;
        const job = await app.ctx.jobs.submit(user, exportJob, { query: kept, keys }, undefined, total);
        reply.status(202);
        return ok(jobView(job));
      }
      return sendXlsx(reply, exportSpec(r, cond, query, keys));
    },
  );
}
