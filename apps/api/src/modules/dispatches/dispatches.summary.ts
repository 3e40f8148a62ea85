// The module's summaries, as functions other modules (the dashboard) can call with a call's dealer
// scope (core/scope, resolved by the engine: a dealer user's own dealer, else the one asked for,
// else every dealer): each reads within it.
import type {
  DailyGrid,
  DailyGridRow,
  DealerModel,
  DealerMonthRow,
  ObjectiveSummaryRow,
  ObjectivesSummary,
  PacingStatus,
  TransactionSummary,
} from '@app/contracts';
import { daysInMonth } from '@app/contracts';
import { and, asc, desc, eq, gte, inArray, isNotNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/action';
import { limaToday } from '../../core/lima';
import type { Scope } from '../../core/scope';
import { dealers, manufacturerModels, manufacturers, zones } from '../../db/schema';
import { monthEnd, monthStart } from './dispatches.lookups';
import { dailySales, dispatches, dispatchObjectives } from './dispatches.tables';

export interface SummaryFilter {
  manufacturerId?: number;
}

/**
 * The dealers a summary lists: every active dealer in the scope (or its one dealer), and the
 * inactive ones that have figures in the period (`withData`), so no unit goes missing.
 */
export async function scopeDealers(db: Executor, scope: Scope, withData: Iterable<number> = []) {
  const ids = [...new Set(withData)];
  return db
    .select({ id: dealers.id, code: dealers.code, name: dealers.name, zone_name: zones.name })
    .from(dealers)
    .leftJoin(zones, eq(zones.id, dealers.zone_id))
    .where(
      and(
        scope.on(dealers.id),
        scope.dealerId !== undefined
          ? undefined
          : ids.length
            ? or(eq(dealers.active, true), inArray(dealers.id, ids))
            : eq(dealers.active, true),
      ),
    )
    .orderBy(asc(dealers.name), asc(dealers.id));
}

const monthOf = (column: SQL | unknown) => sql<number>`extract(month from ${column})::int`;

/** GET /api/transaction-summary: dispatched units per dealer × month of a year, with totals. */
export async function transactionSummary(
  db: Executor,
  scope: Scope,
  q: SummaryFilter & { year: number; months: number[] },
): Promise<TransactionSummary> {
  const first = Math.min(...q.months);
  const last = Math.max(...q.months);
  const units = await db
    .select({
      dealer_id: dispatches.dealer_id,
      month: monthOf(dispatches.dispatch_date),
      units: sql<number>`sum(${dispatches.units})::int`,
    })
    .from(dispatches)
    .where(
      and(
        scope.on(dispatches.dealer_id),
        gte(dispatches.dispatch_date, monthStart(q.year, first)),
        lte(dispatches.dispatch_date, monthEnd(q.year, last)),
        q.manufacturerId ? eq(dispatches.manufacturer_id, q.manufacturerId) : undefined,
      ),
    )
    .groupBy(dispatches.dealer_id, monthOf(dispatches.dispatch_date));
  const byDealer = new Map<number, Record<number, number>>();
  for (const u of units) {
    if (!q.months.includes(u.month)) continue;
    const m = byDealer.get(u.dealer_id) ?? {};
    m[u.month] = u.units;
    byDealer.set(u.dealer_id, m);
  }
  const totals = {
    months: Object.fromEntries(q.months.map((m) => [m, 0])) as Record<number, number>,
    total: 0,
  };
  const rows: DealerMonthRow[] = (await scopeDealers(db, scope, byDealer.keys())).map((d) => {
    const got = byDealer.get(d.id) ?? {};
    const months = Object.fromEntries(q.months.map((m) => [m, got[m] ?? 0])) as Record<number, number>;
    const total = q.months.reduce((s, m) => s + months[m], 0);
    for (const m of q.months) totals.months[m] += months[m];
    totals.total += total;
    return {
      dealer_id: d.id,
      dealer_code: d.code,
      dealer_name: d.name,
      zone_name: d.zone_name,
      months,
      total,
    };
  });
  return { year: q.year, months: q.months, rows, totals };
}

const DAY = 86_400_000;
const dayDiff = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

/** The status of a dealer's pace: at or above the prorated objective, within 10% below, or behind. */
export function pacingStatus(objectiveToDate: number, units: number, objective: number): PacingStatus {
  if (objective <= 0) return 'sin_objetivo';
  if (objectiveToDate <= 0) return 'en_linea';
  const pace = units / objectiveToDate;
  return pace >= 1 ? 'adelantado' : pace >= 0.9 ? 'en_linea' : 'atrasado';
}

/** Where units per dealer and brand come from: objectives, dispatches or daily sales. */
const SOURCES = {
  objectives: {
    table: dispatchObjectives,
    dealer: dispatchObjectives.dealer_id,
    brand: dispatchObjectives.manufacturer_id,
    units: dispatchObjectives.units,
  },
  dispatches: {
    table: dispatches,
    dealer: dispatches.dealer_id,
    brand: dispatches.manufacturer_id,
    units: dispatches.units,
  },
  daily: {
    table: dailySales,
    dealer: dailySales.dealer_id,
    brand: dailySales.manufacturer_id,
    units: dailySales.units,
  },
} as const;

const between = (column: PgColumn, from: string, to: string) => and(gte(column, from), lte(column, to));

/** A source's rows within the call's dealer scope, the brand asked for, and `where` (a period). */
const sourceRows = (s: (typeof SOURCES)[keyof typeof SOURCES], scope: Scope, q: SummaryFilter, where?: SQL) =>
  and(scope.on(s.dealer), where, q.manufacturerId ? eq(s.brand, q.manufacturerId) : undefined);

/** Units per `${dealer_id}|${manufacturer_id}` of one source, within the scope, brand and `where`. */
export async function unitsBy(
  db: Executor,
  scope: Scope,
  source: keyof typeof SOURCES,
  q: SummaryFilter,
  where: SQL | undefined,
): Promise<Map<string, number>> {
  const s = SOURCES[source];
  const rows = await db
    .select({ dealer_id: s.dealer, manufacturer_id: s.brand, units: sql<number>`sum(${s.units})::int` })
    .from(s.table)
    .where(sourceRows(s, scope, q, where))
    .groupBy(s.dealer, s.brand);
  return new Map(rows.map((r) => [`${r.dealer_id}|${r.manufacturer_id}`, r.units]));
}

/** A percentage to show, rounded to one decimal from the exact ratio (never from rounded parts). */
const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 10 : null);

/**
 * The share of one month's objective due by `asOf`: all of it once the month is over, the days
 * elapsed ÷ its days while under way, none before it begins.
 */
export function monthShareDue(year: number, month: number, asOf: string): number {
  const from = monthStart(year, month);
  const to = monthEnd(year, month);
  if (asOf >= to) return 1;
  if (asOf < from) return 0;
  return (dayDiff(from, asOf) + 1) / daysInMonth(year, month);
}

/**
 * GET /api/objectives-summary: per dealer and brand, the objective of the month (or the year),
 * the units dispatched, compliance, and the pace: the objective due by `asOf` against the units
 * dispatched up to that day, so on the 15th a manager sees who is behind. A month's objective is
 * due by its days elapsed; a year's is the sum of its months' (complete months in full, the
 * current one prorated), not the annual total spread over the year's days. Daily sales of the
 * same days come along as `sold`. The objective to date is exact (a fraction of a unit): ratios
 * come from it, and only screens and files round it, for showing.
 */
export async function objectivesSummary(
  db: Executor,
  scope: Scope,
  q: SummaryFilter & { year: number; month?: number; asOf?: string },
): Promise<ObjectivesSummary> {
  const asOf = q.asOf ?? limaToday();
  const from = q.month ? monthStart(q.year, q.month) : `${q.year}-01-01`;
  const to = q.month ? monthEnd(q.year, q.month) : `${q.year}-12-31`;
  const daysTotal = dayDiff(from, to) + 1;
  const daysElapsed = Math.max(0, Math.min(daysTotal, dayDiff(from, asOf) + 1));
  const upTo = asOf < to ? asOf : to;
  const s = SOURCES.objectives;
  const none = new Map<string, number>();
  // The three sources are independent reads: asked together, not one after the other.
  const [objectiveRows, dispatched, sold] = await Promise.all([
    db
      .select({
        dealer_id: s.dealer,
        manufacturer_id: s.brand,
        month: dispatchObjectives.month,
        units: sql<number>`sum(${s.units})::int`,
      })
      .from(s.table)
      .where(
        sourceRows(
          s,
          scope,
          q,
          and(
            eq(dispatchObjectives.year, q.year),
            q.month ? eq(dispatchObjectives.month, q.month) : undefined,
          ),
        ),
      )
      .groupBy(s.dealer, s.brand, dispatchObjectives.month),
    daysElapsed === 0
      ? none
      : unitsBy(db, scope, 'dispatches', q, between(dispatches.dispatch_date, from, upTo)),
    daysElapsed === 0 ? none : unitsBy(db, scope, 'daily', q, between(dailySales.sale_date, from, upTo)),
  ]);

  const cells = new Map<string, { objective: number; toDate: number; units: number; sold: number }>();
  const cell = (k: string) => {
    const found = cells.get(k);
    if (found) return found;
    const c = { objective: 0, toDate: 0, units: 0, sold: 0 };
    cells.set(k, c);
    return c;
  };
  for (const r of objectiveRows) {
    const c = cell(`${r.dealer_id}|${r.manufacturer_id}`);
    c.objective += r.units;
    c.toDate += r.units * monthShareDue(q.year, r.month, asOf);
  }
  for (const [k, units] of dispatched) cell(k).units = units;
  for (const [k, units] of sold) cell(k).sold = units;

  const [dealerRows, brands] = await Promise.all([
    scopeDealers(
      db,
      scope,
      [...cells.keys()].map((k) => Number(k.split('|')[0])),
    ),
    db
      .select({ id: manufacturers.id, name: manufacturers.name })
      .from(manufacturers)
      .orderBy(asc(manufacturers.name)),
  ]);
  const rows: ObjectiveSummaryRow[] = [];
  const totals = { objective: 0, units: 0, objective_to_date: 0, sold: 0 };
  for (const d of dealerRows) {
    for (const b of brands) {
      const c = cells.get(`${d.id}|${b.id}`);
      if (!c) continue;
      rows.push({
        dealer_id: d.id,
        dealer_code: d.code,
        dealer_name: d.name,
        manufacturer_id: b.id,
        manufacturer_name: b.name,
        objective: c.objective,
        units: c.units,
        compliance: pct(c.units, c.objective),
        objective_to_date: c.toDate,
        pacing: pct(c.units, c.toDate),
        status: pacingStatus(c.toDate, c.units, c.objective),
        sold: c.sold,
      });
      totals.objective += c.objective;
      totals.units += c.units;
      totals.objective_to_date += c.toDate;
      totals.sold += c.sold;
    }
  }
  return {
    year: q.year,
    month: q.month ?? null,
    as_of: asOf,
    days_elapsed: daysElapsed,
    days_total: daysTotal,
    rows,
    totals,
    pacing: pct(totals.units, totals.objective_to_date),
    status: pacingStatus(totals.objective_to_date, totals.units, totals.objective),
  };
}

/** GET /api/transaction/dealer-models: the catalogue models dispatched to a dealer, most units first. */
export async function dealerModels(
  db: Executor,
  scope: Scope,
  q: SummaryFilter & { year?: number },
): Promise<DealerModel[]> {
  return db
    .select({
      manufacturer_model_id: sql<number>`${dispatches.manufacturer_model_id}`,
      model_name: manufacturerModels.name,
      manufacturer_id: dispatches.manufacturer_id,
      manufacturer_name: manufacturers.name,
      units: sql<number>`sum(${dispatches.units})::int`,
    })
    .from(dispatches)
    .innerJoin(manufacturerModels, eq(manufacturerModels.id, dispatches.manufacturer_model_id))
    .innerJoin(manufacturers, eq(manufacturers.id, dispatches.manufacturer_id))
    .where(
      and(
        scope.on(dispatches.dealer_id),
        isNotNull(dispatches.manufacturer_model_id),
        q.manufacturerId ? eq(dispatches.manufacturer_id, q.manufacturerId) : undefined,
        q.year ? gte(dispatches.dispatch_date, `${q.year}-01-01`) : undefined,
        q.year ? lte(dispatches.dispatch_date, `${q.year}-12-31`) : undefined,
      ),
    )
    .groupBy(
      dispatches.manufacturer_model_id,
      manufacturerModels.name,
      dispatches.manufacturer_id,
      manufacturers.name,
    )
    .orderBy(desc(sql`sum(${dispatches.units})`), asc(manufacturerModels.name));
}

/** GET /api/daily-sales: the month grid, a row per dealer and model, a column per day. */
export async function dailyGrid(
  db: Executor,
  scope: Scope,
  q: SummaryFilter & { year: number; month: number },
): Promise<DailyGrid> {
  const days = daysInMonth(q.year, q.month);
  const entries = await db
    .select({
      dealer_id: dailySales.dealer_id,
      dealer_code: dealers.code,
      dealer_name: dealers.name,
      manufacturer_id: dailySales.manufacturer_id,
      manufacturer_name: manufacturers.name,
      manufacturer_model_id: dailySales.manufacturer_model_id,
      model_name: manufacturerModels.name,
      day: sql<number>`extract(day from ${dailySales.sale_date})::int`,
      units: dailySales.units,
    })
    .from(dailySales)
    .innerJoin(dealers, eq(dealers.id, dailySales.dealer_id))
    .innerJoin(manufacturers, eq(manufacturers.id, dailySales.manufacturer_id))
    .innerJoin(manufacturerModels, eq(manufacturerModels.id, dailySales.manufacturer_model_id))
    .where(
      and(
        scope.on(dailySales.dealer_id),
        gte(dailySales.sale_date, monthStart(q.year, q.month)),
        lte(dailySales.sale_date, monthEnd(q.year, q.month)),
        q.manufacturerId ? eq(dailySales.manufacturer_id, q.manufacturerId) : undefined,
      ),
    )
    .orderBy(asc(dealers.name), asc(manufacturers.name), asc(manufacturerModels.name));
  const rows = new Map<string, DailyGridRow>();
  const totals = { days: {} as Record<number, number>, total: 0 };
  for (let d = 1; d <= days; d++) totals.days[d] = 0;
  for (const e of entries) {
    const key = `${e.dealer_id}|${e.manufacturer_model_id}`;
    let row = rows.get(key);
    if (!row) {
      const { day: _d, units: _u, ...head } = e;
      row = { ...head, days: {}, total: 0 };
      rows.set(key, row);
    }
    row.days[e.day] = e.units;
    row.total += e.units;
    totals.days[e.day] += e.units;
    totals.total += e.units;
  }
  return { year: q.year, month: q.month, days, rows: [...rows.values()], totals };
}

/**
 * Units of one source per month of a year, up to `upTo` (inclusive; objectives count whole
 * months), within the call's dealer scope and the brand asked for.
 */
export async function monthlyUnits(
  db: Executor,
  scope: Scope,
  source: keyof typeof SOURCES,
  q: SummaryFilter & { year: number; upTo?: string },
): Promise<number[]> {
  const s = SOURCES[source];
  const period =
    source === 'objectives'
      ? eq(dispatchObjectives.year, q.year)
      : between(
          source === 'daily' ? dailySales.sale_date : dispatches.dispatch_date,
          `${q.year}-01-01`,
          q.upTo ?? `${q.year}-12-31`,
        );
  const month =
    source === 'objectives'
      ? sql<number>`${dispatchObjectives.month}`
      : monthOf(source === 'daily' ? dailySales.sale_date : dispatches.dispatch_date);
  const rows = await db
    .select({ month, units: sql<number>`sum(${s.units})::int` })
    .from(s.table)
    .where(and(scope.on(s.dealer), period, q.manufacturerId ? eq(s.brand, q.manufacturerId) : undefined))
    .groupBy(sql`1`);
  return Array.from({ length: 12 }, (_, i) => rows.find((r) => Number(r.month) === i + 1)?.units ?? 0);
}
