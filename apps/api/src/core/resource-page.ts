// Reading one page of a declared resource and one record (resource-query.ts gives the conditions,
// the sort and the paging): the first pages read their rows directly, later ones through a
// deferred join; cached catalogues' names filled from the server's copy; the common shapes as
// prepared statements; counts capped, or estimated from the planner above BIG_TABLE_ROWS.
import { and, Column, eq, getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../db/types';
import { catalogueCache, catalogueVersion } from './catalogue-cache';
import type { CurrentUser } from './context';
import type { Resource, Row } from './resource';
import {
  BIG_TABLE_ROWS,
  COUNT_CAP,
  ESTIMATE_TTL_MS,
  fieldSql,
  type Join,
  joinsFor,
  type ListConditions,
  OVER_CAP_ENTRIES,
  own,
  plannerEstimate,
  type RawQuery,
  reference,
  scopeCondition,
  selectFrom,
  withComputed,
} from './resource-query';

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
