// What every generic call of one declared resource shares (core/resource-routes registers them):
// its path and tags, its /api/docs schemas (the record, the page, the list's query), its
// permissions, its list reader and the lookup rows a user may see.
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import { assertPermission, currentUser } from './auth';
import type { CurrentUser } from './current-user';
import { type QueryParams, qs } from './http';
import { contractOf, jsonSchemaOf, type RouteContract } from './openapi';
import type { Resource, Row } from './resource';
import { ListReader } from './resource-page';
import { fieldLabel, joinsFor, lookupOrder, selectFrom, withComputed } from './resource-query';

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

/** /api/docs of one resource: the record as answered, the page, a list of records, the list's query. */
function docsOf(res: Resource) {
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
  return { row, page, rows, listQuery: listQueryOf(res) };
}

/** What a lookup shows: the user, the resource as searched, the fields answered, all of them or not. */
interface LookupView {
  user: CurrentUser;
  search: Resource;
  selection: Record<string, any>;
  full: boolean;
}

/** One resource's routes' shared parts. */
export interface ResourceRoutes {
  app: FastifyInstance;
  res: Resource;
  base: string;
  tags: string[];
  docs: ReturnType<typeof docsOf>;
  doc(c: Omit<RouteContract, 'access'>, access?: RouteContract['access']): ReturnType<typeof contractOf>;
  /** `${res.permission}.${action}` */
  perm(action: string): string;
  db(): Db;
  reader: ListReader;
  /** The key of a list's order, for the reader's prepared statements. */
  orderKey(query: QueryParams): string;
  lookupRows(selection: Record<string, any>, where: SQL | undefined, limit: number): Promise<Row[]>;
  lookupView(request: FastifyRequest): LookupView;
}

export function routesOf(app: FastifyInstance, res: Resource): ResourceRoutes {
  const perm = (action: string) => `${res.permission}.${action}`;
  const db = (): Db => app.ctx.handle.db;
  return {
    app,
    res,
    base: `/api/${res.path}`,
    tags: [res.label],
    docs: docsOf(res),
    doc: (c, access = 'permission') => contractOf({ access, ...c }),
    perm,
    db,
    // Pages and counts (deferred join, prepared statements for the common shapes).
    reader: new ListReader(() => app.ctx.handle, res),
    orderKey: (query) => `${qs(query, 'sort') ?? ''}:${qs(query, 'order') ?? ''}`,
    lookupRows: lookupRowsOf(res, db),
    lookupView: lookupViewOf(res, perm),
  };
}

/**
 * Lookups and quick searches answer every row they read: one query, joined only for the
 * fields, condition and order it reads.
 */
function lookupRowsOf(res: Resource, db: () => Db): ResourceRoutes['lookupRows'] {
  return (selection, where, limit) => {
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
}

/**
 * What a lookup shows a user without .view: only the declared lookupFields, searched only in
 * those (a search in a hidden field would still tell its value). Filters stay as declared.
 */
function lookupViewOf(res: Resource, perm: (action: string) => string): ResourceRoutes['lookupView'] {
  const lookupAllowed = (request: FastifyRequest) => {
    const user = currentUser(request);
    if (res.lookup !== 'authenticated') assertPermission(user, perm('view'));
    return user;
  };
  const limited = res.lookupFields
    ? {
        search: { ...res, searchable: res.searchable.filter((k) => res.lookupFields!.includes(k)) },
        selection: Object.fromEntries(res.lookupFields.map((k) => [k, res.selection[k]])),
      }
    : undefined;
  return (request) => {
    const user = lookupAllowed(request);
    if (!limited || user.permissions.has(perm('view')))
      return { user, search: res, selection: res.selection, full: true };
    return { user, search: limited.search, selection: limited.selection, full: false };
  };
}
