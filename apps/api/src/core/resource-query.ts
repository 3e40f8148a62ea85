// Reading a declared resource: conditions (scope, search, filters), sort, paging and counting.
//
// A page is one statement: the first pages read their rows directly; later ones use a deferred
// join, the ids of the page from the base table alone (joined tables only when the condition or
// the sort reads them), then the answered fields of those ids with their display joins, so the
// joins run for the rows of the page, not for every row the offset skips. Names of small cached
// catalogues (zones, ubigeo) are not joined at all: the server fills them from its copy
// (catalogue-cache.ts). The common shapes (no filter, the dealer scope) are prepared statements,
// planned once per connection.
import {
  and,
  asc,
  Column,
  desc,
  eq,
  getTableColumns,
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
import type { Db, Executor } from '../db/types';
import { catalogueCache, catalogueVersion } from './catalogue-cache';
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

type Join = NonNullable<Resource['joins']>[number];

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
function reference(res: Resource, field: unknown): { fk: Column; pk: Column; join: Join } | undefined {
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
const ESTIMATE_TTL_MS = 10_000;
const OVER_CAP_ENTRIES = 1000;

/** pg_class.reltuples of a table, kept a few seconds (it only moves with ANALYZE); -1: never analysed. */
async function plannerEstimate(handle: RawQuery, table: string): Promise<number> {
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

/** The database a list reads: its pool, the pages pool and raw queries (DatabaseHandle). */
export interface ListHandle extends RawQuery {
  db: Db;
  pagesDb: Db;
}

/**
 * The rows of a flat selection from the driver's arrays, each value decoded as drizzle decodes
 * it: a page maps 10 rows of ~30 fields on every request, and drizzle's general mapper (nested
 * paths, join nullability, entity checks per value) took 50 µs of a dealers page's 290 µs.
 */
function flatRows(selection: Record<string, any>) {
  const keys = Object.keys(selection);
  const decoders: { mapFromDriverValue(value: unknown): unknown }[] = keys.map((k) => {
    const f = selection[k];
    if (is(f, Column)) return f;
    if (is(f, SQL)) return (f as any).decoder;
    if (is(f, SQL.Aliased)) return (f.sql as any).decoder;
    throw new Error(`Campo de página no plano: ${k}`);
  });
  return (raw: unknown[][]) =>
    raw.map((values) => {
      const row: Row = {};
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        row[keys[i]] = v === null ? null : decoders[i].mapFromDriverValue(v);
      }
      return row;
    });
}

/** Below this offset a page reads its rows directly, from it on through a deferred join. */
const DIRECT_OFFSET = 50;

/** Prepared statements one resource keeps (shapes × orders × page sizes); beyond, unprepared. */
const PREPARED_PER_READER = 24;

/** Prepared statement names are unique in the process (one pg connection may serve many apps). */
let preparedCounter = 0;
export const preparedName = (prefix: string) => `${prefix}_${++preparedCounter}`;

export interface PageRequest {
  cond: ListConditions;
  order: SQL[];
  /** Names the sort for the prepared statements (e.g. `name:asc`). */
  orderKey: string;
  limit: number;
  offset: number;
  /** The answered fields (default: every one the resource answers), e.g. an export's columns. */
  keys?: string[];
}

/** A display field named from a cached catalogue: the base reference and the catalogue's column. */
interface CatalogueField {
  key: string;
  table: any;
  /** The key the page reads the reference into (the reference's own field when answered). */
  ref: string;
  column: string;
}

/** How a page reads and completes the rows of one set of answered fields. */
interface PagePlan {
  selection: Record<string, any>;
  catalogue: CatalogueField[];
  computed: [string, NonNullable<Resource['computed']>[string]][];
  /** Helper fields read only to complete others: blanked (undefined, so not answered). */
  hidden: string[];
}

/** The helper key of the catalogues' version in a page row. */
const VERSION_KEY = '__catalogue_version';

/**
 * How a page answers `keys`, in their order: a catalogue name or a computed field is a `null`
 * placeholder the server fills (the row keeps the declared shape, with no lookup in SQL); the
 * references and inputs they need, when not answered themselves, are read as helper fields.
 */
function pagePlan(res: Resource, keys: string[], cachedTables: Set<string>): PagePlan {
  const selection: Record<string, any> = {};
  const plan: PagePlan = { selection, catalogue: [], computed: [], hidden: [] };
  const asked = new Set(keys);
  const helpers: Record<string, any> = {};
  const place = (k: string, answered: boolean) => {
    const expr = fieldSql(res, k);
    const ref = cachedTables.size ? reference(res, expr) : undefined;
    const target = answered ? selection : helpers;
    if (!ref || !cachedTables.has(getTableName(ref.join.table))) {
      target[k] = expr;
      if (!answered) plan.hidden.push(k);
      return;
    }
    target[k] = sql`null`;
    if (!answered) plan.hidden.push(k);
    // The reference: its own field when the answer has it, else a helper.
    const answeredRef = Object.entries(res.selection).find(([key, e]) => e === ref.fk && asked.has(key))?.[0];
    const refKey = answeredRef ?? `__ref_${ref.fk.name}`;
    if (!answeredRef && !(refKey in helpers)) {
      helpers[refKey] = ref.fk;
      plan.hidden.push(refKey);
    }
    // The copy's rows are keyed as drizzle answers them: by the column's key in its table.
    const column = Object.entries(getTableColumns(ref.join.table)).find(([, c]) => c === expr)![0];
    plan.catalogue.push({ key: k, table: ref.join.table, ref: refKey, column });
  };
  for (const k of keys) {
    const computed = own(res.computed, k);
    if (computed) {
      selection[k] = sql`null`;
      plan.computed.push([k, computed]);
    } else place(k, true);
  }
  for (const [, c] of plan.computed)
    for (const dep of c.from) if (!asked.has(dep) && !(dep in helpers)) place(dep, false);
  Object.assign(selection, helpers);
  if (plan.catalogue.length) {
    selection[VERSION_KEY] = catalogueVersion;
    plan.hidden.push(VERSION_KEY);
  }
  return plan;
}

/**
 * Reads pages and counts of one resource on one database. Prepared statements are kept per
 * reader (one per registered resource and app); node-postgres prepares each name once per
 * connection, PGlite ignores the names.
 */
export class ListReader {
  private readonly prepared = new Map<string, any>();
  /** How each set of answered fields is read (pagePlan), by the fields' names. */
  private readonly plans = new Map<string, PagePlan>();
  /**
   * Conditions whose capped count reached the cap lately: their total is an estimate anyway, so
   * for a few seconds they answer it again without reading 10,001 rows on every page.
   */
  private readonly overCap = new Map<string, number>();

  constructor(
    private readonly handle: () => ListHandle,
    readonly res: Resource,
  ) {}

  private db(): Db {
    return this.handle().db;
  }

  /**
   * A prepared statement of the pages pool (generic plans, see DatabaseHandle.pagesDb), built on
   * first use; undefined once a reader holds PREPARED_PER_READER of them (each one costs memory
   * on every connection), so rare shapes run unprepared.
   */
  private once(key: string, build: (db: Db) => any, name: string, flat?: Record<string, any>): any {
    if (this.res.clockDependent) return undefined;
    let p = this.prepared.get(key);
    if (!p) {
      if (this.prepared.size >= PREPARED_PER_READER) return undefined;
      p = build(this.handle().pagesDb).prepare(preparedName(name));
      // drizzle's prepared queries (node-postgres and PGlite alike) map the driver's arrays with
      // a custom mapper when they hold one (its relational queries set it the same way).
      if (flat) p.customResultMapper = flatRows(flat);
      this.prepared.set(key, p);
    }
    return p;
  }

  /**
   * One page in one statement: the first pages read their rows directly, later ones the ids of
   * the page from the base table first (joined only where the condition or the sort needs), then
   * the answered fields of those ids (a deferred join: the joins run for the rows of the page,
   * not for every row the offset skips). Names of cached catalogues come from the server's
   * memory, checked against the version the statement reads (core/catalogue-cache.ts); computed
   * fields last. The common shapes (no condition, the dealer scope) are prepared.
   */
  async page(r: PageRequest): Promise<Row[]> {
    const { res } = this;
    const catalogues = catalogueCache(this.handle().pagesDb);
    const keys = r.keys ?? res.answered;
    const planKey = r.keys ? r.keys.join(',') : '';
    let plan = this.plans.get(planKey);
    if (!plan) {
      plan = pagePlan(res, keys, await catalogues.tables());
      if (this.plans.size < PREPARED_PER_READER) this.plans.set(planKey, plan);
    }
    const rows = await this.read(r, plan.selection);
    if (rows.length === 0) return rows;
    const names: Map<unknown, Row>[] = [];
    if (plan.catalogue.length) {
      const version = Number(rows[0][VERSION_KEY]);
      for (const f of plan.catalogue) names.push(await catalogues.rows(f.table, version));
    }
    const { catalogue, computed, hidden } = plan;
    for (const row of rows) {
      for (let i = 0; i < catalogue.length; i++) {
        const ref = row[catalogue[i].ref];
        row[catalogue[i].key] = ref == null ? null : (names[i].get(ref)?.[catalogue[i].column] ?? null);
      }
      for (const [k, c] of computed) row[k] = c.value(row);
      for (const h of hidden) row[h] = undefined;
    }
    return rows;
  }

  private async read(r: PageRequest, selection: Record<string, any>): Promise<Row[]> {
    const { res } = this;
    const id = res.columns.id;
    const { cond, order } = r;
    if (!id) {
      return selectFrom(
        this.db(),
        res,
        selection,
        joinsFor(res, [...Object.values(selection), cond.where, ...order]),
      )
        .where(cond.where)
        .orderBy(...order)
        .limit(r.limit)
        .offset(r.offset);
    }
    // Each joined row is looked up per page row (a lateral subquery with limit 1 is always a
    // nested loop: for a page this beats hashing a whole lookup table on every request, which
    // is what the planner picks for a plain join of a few rows).
    const lookups = (db: Db, q: any, skip: Join[] = []) => {
      for (const j of joinsFor(res, [...Object.values(selection), ...order])) {
        if (skip.includes(j)) continue;
        const one = db
          .select()
          .from(j.table)
          .where(j.on)
          .limit(sql.raw('1') as any)
          .as(getTableName(j.table));
        q = q.leftJoinLateral(one, sql`true`);
      }
      return q;
    };
    // The page size is written in the statements: a generic plan then knows it reads a page.
    const limit = sql.raw(String(r.limit)) as any;
    const deferred = (db: Db, where: SQL | undefined, offset: unknown) => {
      const ids = selectFrom(db, res, { id }, joinsFor(res, [where, ...order]))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .as('page_ids');
      return lookups(db, db.select(selection).from(res.table).innerJoin(ids, eq(id, ids.id))).orderBy(
        ...order,
      );
    };
    // The first pages read their rows directly: a deferred join pays a second index for the few
    // rows an offset skips there (measured on 1,000,000 dealers, page 1: 41,000 against 27,000
    // statements/s); from DIRECT_OFFSET on, skipping on the index alone is what pays.
    const direct = (db: Db, where: SQL | undefined, offset: unknown) => {
      const filtering = joinsFor(res, [where, ...order]);
      let q: any = db.select(selection).from(res.table);
      for (const j of filtering) q = q.leftJoin(j.table, j.on);
      return lookups(db, q, filtering)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
    };
    const build = r.offset < DIRECT_OFFSET ? direct : deferred;
    const form = build === direct ? 'first' : 'deferred';
    // Prepared: the common shapes (no condition, the dealer scope) of a named order and fields.
    const key = `${form}:${r.orderKey}:${r.limit}:${r.keys ? r.keys.join(',') : 'all'}`;
    const offset = sql.placeholder('offset');
    if (!cond.narrowed && !cond.where) {
      const stmt = this.once(`page:${key}`, (db) => build(db, undefined, offset), 'list', selection);
      if (stmt) return stmt.execute({ offset: r.offset });
    }
    if (!cond.narrowed && cond.dealerId !== undefined && res.dealerColumn) {
      const column = res.columns[res.dealerColumn];
      const where = eq(column, sql.placeholder('dealer'));
      const stmt = this.once(`page:scope:${key}`, (db) => build(db, where, offset), 'list_scope', selection);
      if (stmt) return stmt.execute({ dealer: cond.dealerId, offset: r.offset });
    }
    return build(this.db(), cond.where, r.offset);
  }

  /**
   * The total of a list: exact up to COUNT_CAP, an estimate beyond it. An unfiltered list of a
   * table the planner knows to be big answers its estimate without counting at all: even a
   * capped count reads 10,001 rows on every page.
   */
  async count(cond: ListConditions): Promise<{ total: number; totalIsEstimate?: boolean }> {
    const { res } = this;
    const estimate = cond.where ? undefined : await plannerEstimate(this.handle(), res.tableName);
    if (estimate !== undefined && estimate > BIG_TABLE_ROWS)
      return { total: estimate, totalIsEstimate: true };
    const beyond = { total: Math.max(estimate ?? 0, COUNT_CAP + 1), totalIsEstimate: true };
    const capped = (db: Db, where: SQL | undefined) => {
      const inner = selectFrom(db, res, { one: sql`1` }, joinsFor(res, [where]))
        .where(where)
        .limit(COUNT_CAP + 1);
      return db.select({ n: sql<number>`count(*)::int` }).from(inner.as('capped'));
    };
    let key: string;
    let run: () => Promise<{ n: number }[]>;
    if (!cond.narrowed && cond.dealerId !== undefined && res.dealerColumn) {
      const column = res.columns[res.dealerColumn];
      const where = eq(column, sql.placeholder('dealer'));
      const stmt =
        this.once('count:scope', (db) => capped(db, where), 'list_scope_count') ??
        capped(this.db(), eq(column, cond.dealerId));
      key = `${res.tableName}:${res.dealerColumn}=${cond.dealerId}`;
      run = () => stmt.execute({ dealer: cond.dealerId });
    } else {
      const query = capped(this.db(), cond.where);
      const built = query.toSQL();
      key = `${built.sql}\n${JSON.stringify(built.params)}`;
      run = () => query;
    }
    const at = this.overCap.get(key);
    if (at !== undefined && Date.now() - at < ESTIMATE_TTL_MS) return beyond;
    const [{ n }] = await run();
    const total = Number(n);
    if (total <= COUNT_CAP) return { total };
    if (this.overCap.size >= OVER_CAP_ENTRIES) this.overCap.clear();
    this.overCap.set(key, Date.now());
    return beyond;
  }
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
  return row && withComputed(res, [row])[0];
}
