// The generic calls of a declared resource (SPEC §7 "Generic CRUD per entity path"):
// list, get, query-search, create, update, delete and the .xlsx export (core/resource-export),
// one function a call over the parts they share (core/resource-routes-kit).
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { writeAudit } from './audit';
import { assertPermission, currentUser, requireAuth } from './auth';
import type { CurrentUser } from './current-user';
import { ok } from './envelope';
import { NotFoundError } from './errors';
import { parseBody, parseId, type QueryParams } from './http';
import { jsonSchemaOf } from './openapi';
import type { HookContext, Resource, Row } from './resource';
import { exportRoute } from './resource-export';
import { findOne } from './resource-page';
import {
  LOOKUP_CAP,
  listConditions,
  orderBy,
  readPaging,
  SEARCH_LIMIT,
  scopeCondition,
} from './resource-query';
import { type ResourceRoutes, routesOf } from './resource-routes-kit';

export function registerResource(app: FastifyInstance, res: Resource): void {
  const r = routesOf(app, res);
  listRoute(r);
  quickSearchRoute(r);
  showRoute(r);
  exportRoute(r);
  if (res.readOnly) return;
  storeRoute(r);
  updateRoute(r);
  destroyRoute(r);
}

function pickColumns(res: Resource, data: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(data))
    if (Object.hasOwn(res.columns, k) && k !== 'id' && v !== undefined) out[k] = v;
  return out;
}

/** A dealer user's record is its dealer's, whatever the body says. */
function ownDealer(res: Resource, input: Row, user: CurrentUser): void {
  if (res.dealerColumn && res.dealerColumn !== 'id' && user.isDealer) input[res.dealerColumn] = user.dealerId;
}

/** List: {total, data} or, with perPage=-1, an array of the active records. */
function listRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  const { page, rows, listQuery } = r.docs;
  app.get(
    r.base,
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
        const { user, search, selection } = r.lookupView(request);
        const cond = await listConditions(search, user, query, true, app.ctx.handle);
        return ok(await r.lookupRows(selection, cond.where, LOOKUP_CAP));
      }
      const user = currentUser(request);
      assertPermission(user, r.perm('view'));
      const order = orderBy(res, query);
      const cond = await listConditions(res, user, query, false, app.ctx.handle);
      const limit = paging.perPage;
      const offset = (paging.page - 1) * paging.perPage;
      const [data, count] = await Promise.all([
        r.reader.page({ cond, order, orderKey: r.orderKey(query), limit, offset }),
        r.reader.count(cond),
      ]);
      const result = { ...count, data };
      return ok(res.extendList ? await res.extendList(result, { query, db: r.db(), user }) : result);
    },
  );
}

/** GET /api/<path>/query-search: the first matches of a search, for pickers. */
function quickSearchRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  const { rows, listQuery } = r.docs;
  app.get(
    `${r.base}/query-search`,
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
      const { user, search, selection } = r.lookupView(request);
      const cond = await listConditions(search, user, request.query as QueryParams, true, app.ctx.handle);
      return ok(await r.lookupRows(selection, cond.where, SEARCH_LIMIT));
    },
  );
}

/** GET /api/<path>/get/:id: one record. */
function showRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  app.get(
    `${r.base}/get/:id`,
    {
      preHandler: requireAuth,
      schema: { tags, summary: `Un registro de ${res.label}`, ...doc({ result: r.docs.row, record: true }) },
    },
    async (request) => {
      // Lookup catalogues answer one record to any signed-in user too (location pickers, selects).
      const { user, selection, full } = r.lookupView(request);
      const id = parseId((request.params as { id: string }).id);
      let row = await findOne(r.db(), full ? res : { ...res, selection }, id, user);
      if (!row) throw new NotFoundError();
      if (res.hooks?.afterLoad && full) row = await res.hooks.afterLoad(row, r.db());
      return ok(row);
    },
  );
}

const bodyDoc = (s: z.ZodType) => jsonSchemaOf(s);

/** POST /api/<path>: creates a record, with its hooks and its audit row, in one transaction. */
function storeRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  const createSchema = res.schema;
  app.post(
    r.base,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Crea en ${res.label}`,
        body: bodyDoc(createSchema),
        ...doc({ result: r.docs.row, body: true, write: true }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertPermission(user, r.perm('store'));
      const input = parseBody(createSchema, request.body) as Row;
      ownDealer(res, input, user);
      const row = await r.db().transaction(async (tx) => {
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
}

/** PUT /api/<path>/:id: updates a record, with its hooks and its audit row, in one transaction. */
function updateRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  const updateSchema = res.updateSchema ?? res.schema.partial();
  app.put(
    `${r.base}/:id`,
    {
      preHandler: requireAuth,
      schema: {
        tags,
        summary: `Actualiza en ${res.label}`,
        body: bodyDoc(updateSchema),
        ...doc({ result: r.docs.row, body: true, write: true, record: true }),
      },
    },
    async (request) => {
      const user = currentUser(request);
      assertPermission(user, r.perm('update'));
      const id = parseId((request.params as { id: string }).id);
      const input = parseBody(updateSchema, request.body) as Row;
      ownDealer(res, input, user);
      const row = await r.db().transaction(async (tx) => {
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
}

/** DELETE /api/<path>/:id: deletes a record in the user's scope, with its audit row. */
function destroyRoute(r: ResourceRoutes): void {
  const { app, res, tags, doc } = r;
  app.delete(
    `${r.base}/:id`,
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
      assertPermission(user, r.perm('destroy'));
      const id = parseId((request.params as { id: string }).id);
      await r.db().transaction(async (tx) => {
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
