// The generic calls of a declared resource (SPEC §7 "Generic CRUD per entity path"):
// list, get, query-search, create, update, delete and the .xlsx export.
import path from 'node:path';
import { and, eq, type SQL } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/types';
import { writeAudit } from './audit';
import { assertPermission, currentUser, DOWNLOAD_ROUTE, requireAuth } from './auth';
import { ok } from './envelope';
import { NotFoundError, ValidationError } from './errors';
import { parseBody, parseId, type QueryParams, qs } from './http';
import { defineJob, jobView } from './jobs';
import { limaToday } from './lima';
import { contractOf, jsonSchemaOf, type RouteContract, XLSX_TYPE } from './openapi';
import type { HookContext, Resource, Row } from './resource';
import { findOne, ListReader } from './resource-page';
import {
  fieldLabel,
  joinsFor,
  LOOKUP_CAP,
  listConditions,
  lookupOrder,
  orderBy,
  readPaging,
  SEARCH_LIMIT,
  scopeCondition,
  selectFrom,
  withComputed,
} from './resource-query';
import { dateCell, exportFileName, sendXlsx, writeXlsxFile, type XlsxColumn, type XlsxExport } from './xlsx';

const EXPORT_BATCH = 500;
const EXPORT_CAP = 200_000;
/** What a running export job says it is doing. */
const EXPORT_STEP = 'Escribiendo las filas';

function pickColumns(res: Resource, data: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(data))
    if (Object.hasOwn(res.columns, k) && k !== 'id' && v !== undefined) out[k] = v;
  return out;
}

const listQueryDoc = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1 },
    perPage: { type: 'integer', description: '1..100, o -1 para la lista de activos' },
    sort: { type: 'string' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    query: { type: 'string' },
  },
};

/** /api/docs: a record as the calls answer it (its id, the contract's fields, display fields). */
function rowSchemaOf(res: Resource): Record<string, unknown> {
  const input = jsonSchemaOf(res.schema);
  const fields = (input.properties ?? {}) as Record<string, unknown>;
  return {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'integer' }, ...fields },
    additionalProperties: true,
  };
}

/** /api/docs: the list's query, with each declared filter (filter[key]=value). */
function listQueryOf(res: Resource) {
  const properties: Record<string, unknown> = { ...listQueryDoc.properties };
  for (const key of [...(res.filters ?? []), ...Object.keys(res.filterHandlers ?? {})])
    properties[`filter[${key}]`] = { type: 'string', description: `Filtro por ${fieldLabel(res, key)}` };
  for (const key of res.plainFilters ?? [])
    properties[key] = { type: 'string', description: `Filtro por ${fieldLabel(res, key)} (forma antigua)` };
  return { type: 'object', properties };
}

/**
 * How the export writes a field, as the screen shows it: a fixed list's name for its code
 * ('Sin enviar', not 'sin_enviar') and a date-only column as an Excel date, not text.
 */
export function exportFormat(res: Resource, key: string): Pick<XlsxColumn, 'cell' | 'numFmt'> {
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

export function registerResource(app: FastifyInstance, res: Resource): void {
  const base = `/api/${res.path}`;
  const tags = [res.label];
  // /api/docs: the record as answered, the page, the declared filters.
  const row = rowSchemaOf(res);
  const page = {
    type: 'object',
    required: ['total', 'data'],
    properties: {
      total: { type: 'integer' },
      totalIsEstimate: { type: 'boolean', description: 'El total es una estimación (tablas grandes)' },
      data: { type: 'array', items: row },
    },
  };
  const rows = { type: 'array', items: row };
  const listQuery = listQueryOf(res);
  const doc = (c: Omit<RouteContract, 'access'>, access: RouteContract['access'] = 'permission') =>
    contractOf({ access, ...c });
  const perm = (action: string) => `${res.permission}.${action}`;
  const db = (): Db => app.ctx.handle.db;

  // Pages and counts (deferred join, prepared statements for the common shapes).
  const reader = new ListReader(() => app.ctx.handle, res);
  const orderKey = (query: QueryParams) => `${qs(query, 'sort') ?? ''}:${qs(query, 'order') ?? ''}`;
  // Lookups and quick searches answer every row they read: one query, joined only for the
  // fields, condition and order it reads.
  const lookupRows = (selection: Record<string, any>, where: SQL | undefined, limit: number) => {
    const order = lookupOrder(res);
    const rows = selectFrom(
      db(),
      res,
      selection,
      joinsFor(res, [...Object.values(selection), where, ...order]),
    )
      .where(where)
      .orderBy(...order)
      .limit(limit);
    return rows.then((r: Row[]) => withComputed(res, r));
  };

  const lookupAllowed = (request: FastifyRequest) => {
    const user = currentUser(request);
    if (res.lookup !== 'authenticated') assertPermission(user, perm('view'));
    return user;
  };

  // What a lookup shows a user without .view: only the declared lookupFields, searched only in
  // those (a search in a hidden field would still tell its value). Filters stay as declared.
  const limited = res.lookupFields
    ? {
        search: { ...res, searchable: res.searchable.filter((k) => res.lookupFields!.includes(k)) },
        selection: Object.fromEntries(res.lookupFields.map((k) => [k, res.selection[k]])),
      }
    : undefined;
  const lookupView = (request: FastifyRequest) => {
    const user = lookupAllowed(request);
    if (!limited || user.permissions.has(perm('view')))
      return { user, search: res, selection: res.selection, full: true };
    return { user, search: limited.search, selection: limited.selection, full: false };
  };

  // List: {total, data} or, with perPage=-1, an array of the active records.
  app.get(
    base,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Lista de ${res.label}`,
        description: 'Con perPage=-1: la lista de los activos (un arreglo), para los selectores.',
        querystring: listQuery,
        ...doc({ result: { anyOf: [page, rows] }, query: true, record: !!res.dealerScoped }),
      },
    },
    async (request) => {
      const query = request.query as QueryParams;
      const paging = readPaging(res, query);
      if (paging.perPage === -1) {
        const { user, search, selection } = lookupView(request);
        const cond = await listConditions(search, user, query, true, app.ctx.handle);
        return ok(await lookupRows(selection, cond.where, LOOKUP_CAP));
      }
      const user = currentUser(request);
      assertPermission(user, perm('view'));
      const order = orderBy(res, query);
      const cond = await listConditions(res, user, query, false, app.ctx.handle);
      const limit = paging.perPage;
      const offset = (paging.page - 1) * paging.perPage;
      const [data, count] = await Promise.all([
        reader.page({ cond, order, orderKey: orderKey(query), limit, offset }),
        reader.count(cond),
      ]);
      const result = { ...count, data };
      return ok(res.extendList ? await res.extendList(result, { query, db: db(), user }) : result);
    },
  );

  app.get(
    `${base}/query-search`,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Búsqueda rápida en ${res.label} (hasta 20)`,
        querystring: listQuery,
        ...doc({ result: rows, query: true, record: !!res.dealerScoped }),
      },
    },
    async (request) => {
      const { user, search, selection } = lookupView(request);
      const cond = await listConditions(search, user, request.query as QueryParams, true, app.ctx.handle);
      return ok(await lookupRows(selection, cond.where, SEARCH_LIMIT));
    },
  );

  app.get(
    `${base}/get/:id`,
    {
      preHandler: requireAuth,
      schema: { tags, summary: `Un registro de ${res.label}`, ...doc({ result: row, record: true }) },
    },
    async (request) => {
      // Lookup catalogues answer one record to any signed-in user too (location pickers, selects).
      const { user, selection, full } = lookupView(request);
      const id = parseId((request.params as { id: string }).id);
      let row = await findOne(db(), full ? res : { ...res, selection }, id, user);
      if (!row) throw new NotFoundError();
      if (res.hooks?.afterLoad && full) row = await res.hooks.afterLoad(row, db());
      return ok(row);
    },
  );

  app.get(
    `${base}/export`,
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
      assertPermission(user, perm('export'));
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
      const { total } = await reader.count(cond);
      if (total > app.ctx.config.exportJobRows) {
        const { ticket: _ticket, ...kept } = query;
        const job = await app.ctx.jobs.submit(user, exportJob, { query: kept, keys }, undefined, total);
        reply.status(202);
        return ok(jobView(job));
      }
      return sendXlsx(reply, exportSpec(cond, query, keys));
    },
  );

  /** The export's workbook: the list's rows under `cond`, in its order, batch by batch. */
  function exportSpec(
    cond: Awaited<ReturnType<typeof listConditions>>,
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

  const exportJob = defineJob<{ query: QueryParams; keys: string[] }>({
    kind: `export:${res.name}`,
    permission: perm('export'),
    title: `Exportación de ${res.label}`,
    type: 'export',
    name: res.label,
    link: `/${res.path}`,
    async run({ user, data, dir, progress }) {
      // The owner's scope as it is now (a dealer user's own dealer), as the request would apply it.
      const cond = await listConditions(res, user, data.query, false, app.ctx.handle);
      const spec = exportSpec(cond, data.query, data.keys, (done) => progress(done, undefined, EXPORT_STEP));
      const file = path.join(dir, 'exportacion.xlsx');
      await writeXlsxFile(file, spec);
      return { file: { path: file, name: exportFileName(spec.filename) } };
    },
  });

  if (res.readOnly) return;

  const createSchema = res.schema;
  const updateSchema = res.updateSchema ?? res.schema.partial();
  const bodyDoc = (s: z.ZodType) => jsonSchemaOf(s);

  app.post(
    base,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Crea en ${res.label}`,
        body: bodyDoc(createSchema),
        ...doc({ result: row, body: true, write: true }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertPermission(user, perm('store'));
      const input = parseBody(createSchema, request.body) as Row;
      if (res.dealerColumn && res.dealerColumn !== 'id' && user.isDealer)
        input[res.dealerColumn] = user.dealerId;
      const row = await db().transaction(async (tx) => {
        const ctx: HookContext = { tx, user, action: 'create', input };
        const data = pickColumns(
          res,
          res.hooks?.beforeSave ? await res.hooks.beforeSave({ ...input }, ctx) : input,
        );
        const [inserted] = await tx.insert(res.table).values(data).returning({ id: res.columns.id });
        const id = inserted.id as number;
        if (res.hooks?.afterSave) await res.hooks.afterSave(inserted, { ...ctx, id });
        const after = await findOne(tx, res, id, user);
        await writeAudit(tx, { user, resource: res.name, recordId: id, action: 'create', after });
        return after;
      });
      return ok(row);
    },
  );

  app.put(
    `${base}/:id`,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Actualiza en ${res.label}`,
        body: bodyDoc(updateSchema),
        ...doc({ result: row, body: true, write: true, record: true }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertPermission(user, perm('update'));
      const id = parseId((request.params as { id: string }).id);
      const input = parseBody(updateSchema, request.body) as Row;
      if (res.dealerColumn && res.dealerColumn !== 'id' && user.isDealer)
        input[res.dealerColumn] = user.dealerId;
      const row = await db().transaction(async (tx) => {
        const before = await findOne(tx, res, id, user);
        if (!before) throw new NotFoundError();
        const ctx: HookContext = { tx, user, action: 'update', id, before, input };
        const data = pickColumns(
          res,
          res.hooks?.beforeSave ? await res.hooks.beforeSave({ ...input }, ctx) : input,
        );
        if (Object.keys(data).length) {
          if (res.columns.updated_at) data.updated_at = new Date();
          await tx.update(res.table).set(data).where(eq(res.columns.id, id));
        }
        if (res.hooks?.afterSave) await res.hooks.afterSave({ id }, { ...ctx, id });
        const after = await findOne(tx, res, id, user);
        if (!after) throw new NotFoundError();
        await writeAudit(tx, { user, resource: res.name, recordId: id, action: 'update', before, after });
        return after;
      });
      return ok(row);
    },
  );

  app.delete(
    `${base}/:id`,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Elimina en ${res.label}`,
        ...doc({
          result: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
          record: true,
          write: true,
        }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertPermission(user, perm('destroy'));
      const id = parseId((request.params as { id: string }).id);
      await db().transaction(async (tx) => {
        const before = await findOne(tx, res, id, user);
        if (!before) throw new NotFoundError();
        if (res.hooks?.beforeDelete)
          await res.hooks.beforeDelete({ tx, user, action: 'delete', id, before, input: {} });
        const scope = scopeCondition(res, user);
        await tx.delete(res.table).where(and(eq(res.columns.id, id), scope));
        await writeAudit(tx, { user, resource: res.name, recordId: id, action: 'delete', before });
      });
      return ok({ id });
    },
  );
}
