// Reading a declared resource: conditions (scope, search, filters), sort, paging and the planner's
// estimates. Reading the page itself (direct or deferred join, cached catalogues' names, prepared
// statements, counts) and one record is resource-page.ts.
import {
  and,
  asc,
  Column,
  desc,
  eq,
  getTableName,
  ilike,
  inArray,
  is,
  isNull,
  or,
  Param,
  Placeholder,
  SQL,
  StringChunk,
  sql,
  Table,
} from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/types';
import type { CurrentUser } from './context';
import { NotFoundError, ValidationError } from './errors';
import { type QueryParams, qInt, qs } from './http';
import type { Resource, Row } from './resource';

/** Exact counts stop here; beyond it a list answers an estimate. */
export const COUNT_CAP = 10_000;
export const LOOKUP_CAP = 5000;
/** Above this planner estimate an unfiltered list is not counted. */
export const BIG_TABLE_ROWS = 50_000;
export const SEARCH_LIMIT = 20;
/**
 * A searched field of a joined table up to this size (planner estimate, and ids found) is
 * matched through the base table's reference (`zone_id = any('{3,7}')`, the ids of the zones
 * whose name matches, read first): every branch of the search then reads an index of the base
 * table. Bigger joined tables keep the plain condition on the join.
 */
export const SMALL_JOINED_ROWS = 10_000;

/** A raw SQL runner (DatabaseHandle.query): planner estimates, counts. */
export interface RawQuery {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * A declaration's own entry for a key from the request, never an inherited member: keys such
 * as `constructor` or `__proto__` are just unknown names.
 */
export function own<T>(map: Record<string, T> | undefined, key: string): T | undefined {
  return map && Object.hasOwn(map, key) ? map[key] : undefined;
}

export function fieldSql(res: Resource, key: string): any {
  return own(res.selection, key);
}

/** The Spanish label of a field, or the key itself. */
export function fieldLabel(res: Resource, key: string): string {
  return own(res.labels, key) ?? key;
}

/** The dealer-scope condition for a user, or undefined when the user sees everything. */
export function scopeCondition(res: Resource, user: CurrentUser): SQL | undefined {
  if (!res.dealerScoped || !user.isDealer) return undefined;
  if (typeof res.dealerScoped === 'function') return res.dealerScoped(user);
  const col = res.columns[res.dealerScoped];
  return eq(col, user.dealerId!);
}

/** The tables an expression reads, added to `out`; false when it cannot tell (raw names...). */
function readsTables(expr: unknown, out: Set<string>): boolean {
  if (expr === null || typeof expr !== 'object') return true;
  if (Array.isArray(expr)) return expr.every((e) => readsTables(e, out));
  if (is(expr, Column)) {
    out.add(getTableName(expr.table));
    return true;
  }
  if (is(expr, SQL)) return expr.queryChunks.every((c) => readsTables(c, out));
  if (is(expr, SQL.Aliased)) return readsTables(expr.sql, out);
  if (is(expr, StringChunk) || is(expr, Param) || is(expr, Placeholder)) return true;
  if (is(expr, Table)) {
    out.add(getTableName(expr));
    return true;
  }
  return false;
}

export type Join = NonNullable<Resource['joins']>[number];

/** drizzle's mark of an aliased table (`alias(tabs, 'parent_tab')`). */
const IS_ALIAS = Symbol.for('drizzle:IsAlias');

/**
 * The declared joins that `exprs` read (plus the joins their own conditions read), in declared
 * order; all of them when an expression cannot be read. Joins are many-to-one references, so
 * leaving out the ones nobody reads changes no row.
 */
export function joinsFor(res: Resource, exprs: unknown[]): Join[] {
  const joins = res.joins ?? [];
  if (joins.length === 0) return joins;
  const names = new Set<string>();
  if (!exprs.every((e) => readsTables(e, names))) return joins;
  const needed = new Set<Join>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const j of joins) {
      if (needed.has(j) || !names.has(getTableName(j.table))) continue;
      needed.add(j);
      grew = true;
      if (!readsTables(j.on, names)) return joins;
    }
  }
  return joins.filter((j) => needed.has(j));
}

/**
 * For a column of a joined table reached by a plain `base.fk = joined.pk` join: the base
 * reference and the joined key (undefined for anything else, e.g. an aliased table).
 */
export function reference(res: Resource, field: unknown): { fk: Column; pk: Column; join: Join } | undefined {
  if (!is(field, Column)) return undefined;
  const name = getTableName(field.table);
  if (name === res.tableName) return undefined;
  const join = res.joins?.find((j) => getTableName(j.table) === name);
  if (!join || (join.table as any)[IS_ALIAS]) return undefined;
  const parts = join.on.queryChunks.filter((c) => !(is(c, StringChunk) && c.value.join('') === ''));
  if (parts.length !== 3) return undefined;
  const [a, op, b] = parts;
  if (!is(op, StringChunk) || op.value.join('').trim() !== '=' || !is(a, Column) || !is(b, Column))
    return undefined;
  const [fk, pk] = getTableName(a.table) === res.tableName ? [a, b] : [b, a];
  if (getTableName(fk.table) !== res.tableName || getTableName(pk.table) !== name) return undefined;
  return { fk, pk, join };
}

/** The database of a request, for what a condition reads first (drizzle and raw SQL). */
export interface ListDatabase extends RawQuery {
  db: any;
}

async function searchCondition(
  res: Resource,
  text: string | undefined,
  handle: ListDatabase | undefined,
): Promise<SQL | undefined> {
  const q = text?.trim();
  if (!q || res.searchable.length === 0) return undefined;
  if (q.length > 200) throw ValidationError.field('query', 'La búsqueda admite como máximo 200 caracteres');
  const pattern = `%${escapeLike(q)}%`;
  const test = (f: any) => {
    const isText = !(f instanceof PgColumn) || f.dataType === 'string';
    return ilike(isText ? f : sql`${f}::text`, pattern);
  };
  const arms: SQL[] = [];
  for (const k of res.searchable) {
    const f = fieldSql(res, k);
    const ref = handle ? reference(res, f) : undefined;
    // A small joined table is searched first; the base table then matches the found ids through
    // its reference (`zone_id = any('{3,7}')`): the same rows as `zones.name ilike p` on the left
    // join, but every branch of the OR reads an index of the base table, and the planner knows
    // the ids. No id found: no row matches through that field.
    if (ref && (await plannerEstimate(handle!, getTableName(ref.join.table))) <= SMALL_JOINED_ROWS) {
      const found: { id: unknown }[] = await handle!.db
        .select({ id: ref.pk })
        .from(ref.join.table)
        .where(test(f))
        .limit(SMALL_JOINED_ROWS + 1);
      if (found.length <= SMALL_JOINED_ROWS) {
        if (found.length) arms.push(sql`${ref.fk} = any(${sql.param(found.map((r) => r.id))})`);
        continue;
      }
    }
    arms.push(test(f));
  }
  return arms.length ? or(...arms) : sql`false`;
}

function filterValue(res: Resource, key: string, raw: string): SQL | undefined {
  const handler = own(res.filterHandlers, key);
  if (handler) return handler(raw);
  const f = fieldSql(res, key);
  if (!res.filters?.includes(key) || f === undefined)
    throw ValidationError.field(`filter.${key}`, `No se puede filtrar por ${key}`);
  const label = fieldLabel(res, key);
  const values = raw.split(',').map((v) => v.trim());
  if (values.length === 1 && (values[0] === 'null' || values[0] === '')) {
    return values[0] === 'null' ? isNull(f) : undefined;
  }
  const type = f instanceof PgColumn ? f.dataType : 'string';
  if (type === 'number') {
    if (!values.every((v) => /^-?\d+(\.\d+)?$/.test(v))) {
      throw ValidationError.field(`filter.${key}`, `${label} no es válido`);
    }
    const nums = values.map(Number);
    return nums.length === 1 ? eq(f, nums[0]) : inArray(f, nums);
  }
  if (type === 'boolean') {
    const v = values[0].toLowerCase();
    if (!['true', 'false', '1', '0'].includes(v))
      throw ValidationError.field(`filter.${key}`, `${label} no es válido`);
    return eq(f, v === 'true' || v === '1');
  }
  return values.length === 1 ? eq(f, values[0]) : inArray(f, values);
}

/**
 * Reads filter[field]=value params and a JSON `filter` param; with a resource, also its plain
 * filter params (`?status=open`) and, for filters the request leaves unnamed, its defaults.
 */
export function readFilters(
  query: QueryParams,
  res?: Pick<Resource, 'plainFilters' | 'defaultFilters'>,
): Record<string, string> {
  // No prototype: a key named __proto__ or constructor is stored like any other (and refused).
  const out: Record<string, string> = Object.create(null);
  for (const k of res?.plainFilters ?? []) {
    const v = qs(query, k);
    if (v !== undefined) out[k] = v;
  }
  for (const [k, v] of Object.entries(query)) {
    const m = /^filter\[([A-Za-z0-9_]+)\]$/.exec(k);
    if (m && v !== undefined) out[m[1]] = String(Array.isArray(v) ? v[v.length - 1] : v);
  }
  const json = qs(query, 'filter');
  if (json) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      throw ValidationError.field('filter', 'El filtro no es un JSON válido');
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed)) {
        if (v !== null && v !== undefined && v !== '') out[k] = Array.isArray(v) ? v.join(',') : String(v);
      }
    }
  }
  for (const [k, v] of Object.entries(res?.defaultFilters ?? {})) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * A dealer user's filter on its resource's scope column names its own dealer only: another
 * dealer's id answers 404 'El concesionario no existe', as a declared dealer_id of an action's
 * query and a target of another dealer do (not an empty list, which would read as "no rows").
 */
function assertOwnDealer(res: Resource, user: CurrentUser, filters: Record<string, string>): void {
  const key = res.dealerColumn;
  if (!key || !user.isDealer || !(key in filters)) return;
  const ids = filters[key]
    .split(',')
    .map((v) => v.trim())
    .filter((v) => /^\d+$/.test(v));
  if (ids.some((v) => Number(v) !== user.dealerId)) throw new NotFoundError('El concesionario no existe');
}

export interface ListConditions {
  where: SQL | undefined;
  /** The dealer of a column-scoped dealer user (the prepared scoped shape). */
  dealerId?: number;
  /** A search, a filter or "active only" narrows the rows beyond the scope. */
  narrowed: boolean;
}

/**
 * The conditions of a list request. With `handle`, a search first reads the matching ids of
 * small joined tables (see SMALL_JOINED_ROWS); without it, it is the plain condition on the joins.
 */
export async function listConditions(
  res: Resource,
  user: CurrentUser,
  query: QueryParams,
  onlyActive = false,
  handle?: ListDatabase,
): Promise<ListConditions> {
  const scope = scopeCondition(res, user);
  const search = await searchCondition(res, qs(query, 'query'), handle);
  const asked = readFilters(query, res);
  assertOwnDealer(res, user, asked);
  const filters = Object.entries(asked).map(([k, v]) => filterValue(res, k, v));
  const parts: (SQL | undefined)[] = [search, ...filters];
  if (onlyActive && res.activeColumn) parts.push(eq(res.activeColumn, true));
  const narrowing = parts.filter((p): p is SQL => p !== undefined);
  const present = scope ? [scope, ...narrowing] : narrowing;
  return {
    where: present.length ? and(...present) : undefined,
    dealerId: scope && res.dealerColumn ? (user.dealerId ?? undefined) : undefined,
    narrowed: narrowing.length > 0,
  };
}

export function orderBy(res: Resource, query: QueryParams): SQL[] {
  const field = qs(query, 'sort') ?? res.sort.field;
  const order = (qs(query, 'order') ?? (qs(query, 'sort') ? 'asc' : res.sort.order)).toLowerCase();
  if (field !== res.sort.field && (!res.sortable.includes(field) || fieldSql(res, field) === undefined)) {
    throw ValidationError.field('sort', `No se puede ordenar por ${fieldLabel(res, field)}`);
  }
  if (order !== 'asc' && order !== 'desc')
    throw ValidationError.field('order', 'El orden debe ser asc o desc');
  const f = fieldSql(res, field);
  const out = [order === 'asc' ? asc(f) : desc(f)];
  if (field !== 'id' && res.columns.id) out.push(asc(res.columns.id));
  return out;
}

export function lookupOrder(res: Resource): SQL[] {
  const key = res.lookupOrder ?? (res.selection.name ? 'name' : res.sort.field);
  // Equal names keep one order (the id), whichever plan reads them.
  const out = [asc(fieldSql(res, key))];
  if (key !== 'id' && res.columns.id) out.push(asc(res.columns.id));
  return out;
}

/** Fills the computed fields (res.computed) of rows that hold their inputs; answers the rows. */
export function withComputed(res: Resource, rows: Row[]): Row[] {
  if (!res.computed) return rows;
  for (const [key, c] of Object.entries(res.computed)) {
    for (const row of rows) if (c.from.every((k) => k in row)) row[key] = c.value(row);
  }
  return rows;
}

export function selectFrom(
  db: Executor,
  res: Resource,
  selection: Record<string, any> = res.selection,
  joins: Join[] = res.joins ?? [],
): any {
  let q: any = db.select(selection).from(res.table);
  for (const j of joins) q = q.leftJoin(j.table, j.on);
  return q;
}

export interface Paging {
  page: number;
  perPage: number;
}

export function readPaging(res: Resource, query: QueryParams): Paging {
  const perPage = qInt(query, 'perPage', 'Registros por página', -1, 100) ?? res.pageSize ?? 10;
  if (perPage === 0) throw ValidationError.field('perPage', 'Registros por página no es válido');
  const page = qInt(query, 'page', 'Página', 1, 10_000_000) ?? 1;
  return { page, perPage };
}

const estimates = new Map<string, { n: number; at: number }>();
export const ESTIMATE_TTL_MS = 10_000;
export const OVER_CAP_ENTRIES = 1000;

/** pg_class.reltuples of a table, kept a few seconds (it only moves with ANALYZE); -1: never analysed. */
export async function plannerEstimate(handle: RawQuery, table: string): Promise<number> {
  const hit = estimates.get(table);
  if (hit && Date.now() - hit.at < ESTIMATE_TTL_MS) return hit.n;
  const [row] = await handle.query<{ n: string | number }>(
    'select reltuples::bigint as n from pg_class where oid = to_regclass($1)',
    [table],
  );
  const n = Number(row?.n ?? 0);
  estimates.set(table, { n, at: Date.now() });
  return n;
}
