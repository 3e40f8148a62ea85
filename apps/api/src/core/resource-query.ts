// Reading a declared resource: conditions (scope, search, filters), sort, paging and counting.
import { and, asc, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from './action';
import type { CurrentUser } from './context';
import { ValidationError } from './errors';
import { type QueryParams, qInt, qs } from './http';
import type { Resource, Row } from './resource';

/** Exact counts stop here; beyond it a list answers an estimate. */
export const COUNT_CAP = 10_000;
export const LOOKUP_CAP = 5000;
/** Above this planner estimate an unfiltered list is not counted. */
export const BIG_TABLE_ROWS = 50_000;
export const SEARCH_LIMIT = 20;

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

function fieldSql(res: Resource, key: string): any {
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

function searchCondition(res: Resource, text: string | undefined): SQL | undefined {
  const q = text?.trim();
  if (!q || res.searchable.length === 0) return undefined;
  if (q.length > 200) throw ValidationError.field('query', 'La busqueda admite como maximo 200 caracteres');
  const pattern = `%${escapeLike(q)}%`;
  return or(
    ...res.searchable.map((k) => {
      const f = fieldSql(res, k);
      const isText = !(f instanceof PgColumn) || f.dataType === 'string';
      return ilike(isText ? f : sql`${f}::text`, pattern);
    }),
  );
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
      throw ValidationError.field(`filter.${key}`, `${label} no es valido`);
    }
    const nums = values.map(Number);
    return nums.length === 1 ? eq(f, nums[0]) : inArray(f, nums);
  }
  if (type === 'boolean') {
    const v = values[0].toLowerCase();
    if (!['true', 'false', '1', '0'].includes(v))
      throw ValidationError.field(`filter.${key}`, `${label} no es valido`);
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
      throw ValidationError.field('filter', 'El filtro no es un JSON valido');
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

export interface ListConditions {
  where: SQL | undefined;
}

export function listConditions(
  res: Resource,
  user: CurrentUser,
  query: QueryParams,
  onlyActive = false,
): ListConditions {
  const parts: (SQL | undefined)[] = [scopeCondition(res, user)];
  const search = searchCondition(res, qs(query, 'query'));
  const filters = Object.entries(readFilters(query, res)).map(([k, v]) => filterValue(res, k, v));
  parts.push(search, ...filters);
  if (onlyActive && res.activeColumn) parts.push(eq(res.activeColumn, true));
  const present = parts.filter((p): p is SQL => p !== undefined);
  return { where: present.length ? and(...present) : undefined };
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
  return [asc(fieldSql(res, key))];
}

export function selectFrom(db: Executor, res: Resource, selection: Record<string, any> = res.selection): any {
  let q: any = db.select(selection).from(res.table);
  for (const j of res.joins ?? []) q = q.leftJoin(j.table, j.on);
  return q;
}

export interface Paging {
  page: number;
  perPage: number;
}

export function readPaging(res: Resource, query: QueryParams): Paging {
  const perPage = qInt(query, 'perPage', 'Registros por pagina', -1, 100) ?? res.pageSize ?? 10;
  if (perPage === 0) throw ValidationError.field('perPage', 'Registros por pagina no es valido');
  const page = qInt(query, 'page', 'Pagina', 1, 10_000_000) ?? 1;
  return { page, perPage };
}

const estimates = new Map<string, { n: number; at: number }>();
const ESTIMATE_TTL_MS = 10_000;

/** pg_class.reltuples of a big table, kept a few seconds (it only moves with ANALYZE). */
async function plannerEstimate(
  handle: { query<T>(t: string, p?: unknown[]): Promise<T[]> },
  table: string,
): Promise<number> {
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

export async function countRows(
  db: any,
  handle: { query<T>(t: string, p?: unknown[]): Promise<T[]> },
  res: Resource,
  cond: ListConditions,
): Promise<{ total: number; totalIsEstimate?: boolean }> {
  // An unfiltered list of a table the planner knows to be big answers its estimate without
  // counting at all: even a capped count reads 10,001 rows on every page.
  const estimate = cond.where ? undefined : await plannerEstimate(handle, res.tableName);
  if (estimate !== undefined && estimate > BIG_TABLE_ROWS) return { total: estimate, totalIsEstimate: true };
  let inner = db.select({ one: sql`1` }).from(res.table);
  if (cond.where) for (const j of res.joins ?? []) inner = inner.leftJoin(j.table, j.on);
  inner = inner.where(cond.where).limit(COUNT_CAP + 1);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(inner.as('capped'));
  const total = Number(n);
  if (total <= COUNT_CAP) return { total };
  return { total: Math.max(estimate ?? 0, COUNT_CAP + 1), totalIsEstimate: true };
}

/** One record by id within the user's scope, with its display fields. */
export async function findOne(
  db: Executor,
  res: Resource,
  id: number,
  user: CurrentUser,
): Promise<Row | undefined> {
  const where = and(eq(res.columns.id, id), scopeCondition(res, user));
  const [row] = await selectFrom(db, res).where(where).limit(1);
  return row;
}
