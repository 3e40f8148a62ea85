// What Info Taller reports: per dealer and month, the workshop's sums with productivity (hours
// worked ÷ available hours from capacities), efficiency (hours sold ÷ hours worked), effective
// labour rate (labour revenue ÷ hours sold) and parts per order (parts revenue ÷ orders closed),
// beside the same month a year before; and the period's totals for a dashboard.
import { type ReportInfoRow, type WorkshopFigures, type WorkshopSums, workshopRatios } from '@app/contracts';
import { and, eq, gte, inArray, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/action';
import type { Scope } from '../../core/scope';
import { dealers } from '../../db/schema';
import { capacities } from '../figures/figures.tables';
import { workshopInfos } from './workshop.tables';

export interface WorkshopPeriod {
  year: number;
  /** 1..12; default 1 and 12. */
  monthFrom?: number;
  monthTo?: number;
}

const ZERO: WorkshopSums = {
  work_orders_opened: 0,
  work_orders_closed: 0,
  hours_sold: 0,
  hours_worked: 0,
  labour_revenue: 0,
  parts_revenue: 0,
};

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The sums with their ratios. `workedWithCapacity`: the hours worked of the dealer-months that
 * have a capacity, when they are fewer than all (productivity compares the same dealer-months).
 */
function figures(
  s: WorkshopSums,
  available: number | null,
  workedWithCapacity = s.hours_worked,
): WorkshopFigures {
  const sums = Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, round2(v)]),
  ) as unknown as WorkshopSums;
  const ratios = workshopRatios({ ...sums, available_hours: available });
  ratios.productivity = available ? workedWithCapacity / available : null;
  return { ...sums, available_hours: available, ...ratios };
}

/** One collator for the report's sort (localeCompare(…, 'es') would build one per comparison). */
const byName = new Intl.Collator('es');

const key = (dealer: number, year: number, month: number) => `${dealer}|${year}|${month}`;

/** The workshop sums and available hours of every dealer and month of the years and months asked. */
async function monthlySums(db: Executor, scope: Scope, years: number[], p: WorkshopPeriod) {
  const from = p.monthFrom ?? 1;
  const to = p.monthTo ?? 12;
  const where: (SQL | undefined)[] = [
    scope.on(workshopInfos.dealer_id),
    inArray(workshopInfos.year, years),
    gte(workshopInfos.month, from),
    lte(workshopInfos.month, to),
  ];
  const num = (c: PgColumn) => sql<number>`coalesce(sum(${c}), 0)::float8`;
  const info = await db
    .select({
      dealer_id: workshopInfos.dealer_id,
      year: workshopInfos.year,
      month: workshopInfos.month,
      work_orders_opened: num(workshopInfos.work_orders_opened),
      work_orders_closed: num(workshopInfos.work_orders_closed),
      hours_sold: num(workshopInfos.hours_sold),
      hours_worked: num(workshopInfos.hours_worked),
      labour_revenue: num(workshopInfos.labour_revenue),
      parts_revenue: num(workshopInfos.parts_revenue),
    })
    .from(workshopInfos)
    .where(and(...where))
    .groupBy(workshopInfos.dealer_id, workshopInfos.year, workshopInfos.month);
  const dealerIds = [...new Set(info.map((r) => r.dealer_id))];
  const capacity = dealerIds.length
    ? await db
        .select({
          dealer_id: capacities.dealer_id,
          year: capacities.year,
          month: capacities.month,
          available: sql<number | null>`sum(${capacities.available_hours})::float8`,
        })
        .from(capacities)
        .where(
          and(
            inArray(capacities.dealer_id, dealerIds),
            inArray(capacities.year, years),
            gte(capacities.month, from),
            lte(capacities.month, to),
          ),
        )
        .groupBy(capacities.dealer_id, capacities.year, capacities.month)
    : [];
  const available = new Map(capacity.map((c) => [key(c.dealer_id, c.year, c.month), c.available]));
  return { info, available, dealerIds };
}

/**
 * GET /api/reports/report-info: a row per dealer and month of the period that has workshop
 * information, with the same month of the year before, by dealer name and month.
 */
export async function reportInfo(db: Executor, scope: Scope, p: WorkshopPeriod): Promise<ReportInfoRow[]> {
  const { info, available, dealerIds } = await monthlySums(db, scope, [p.year, p.year - 1], p);
  if (!info.length) return [];
  const names = await db
    .select({ id: dealers.id, code: dealers.code, name: dealers.name })
    .from(dealers)
    .where(inArray(dealers.id, dealerIds));
  const dealerOf = new Map(names.map((d) => [d.id, d]));
  const byKey = new Map(info.map((r) => [key(r.dealer_id, r.year, r.month), r]));
  const rows: ReportInfoRow[] = [];
  for (const r of info) {
    if (r.year !== p.year) continue;
    const d = dealerOf.get(r.dealer_id)!;
    const prevKey = key(r.dealer_id, p.year - 1, r.month);
    const prev = byKey.get(prevKey);
    rows.push({
      dealer_id: d.id,
      dealer_code: d.code,
      dealer_name: d.name,
      year: r.year,
      month: r.month,
      ...figures(r, available.get(key(r.dealer_id, r.year, r.month)) ?? null),
      previous: prev ? figures(prev, available.get(prevKey) ?? null) : null,
    });
  }
  return rows.sort((a, b) => byName.compare(a.dealer_name, b.dealer_name) || a.month - b.month);
}

export interface WorkshopProductivity extends WorkshopFigures {
  year: number;
  month_from: number;
  month_to: number;
  /** Dealer-months with workshop information. */
  months_reported: number;
  /** The same months of the year before. */
  previous: WorkshopFigures | null;
  /**
   * Info Taller's productivity month by month, both years, every month (whatever the period):
   * the hours worked and the available hours summed over the dealer-months that reported both
   * (the sums of report-info's rows of that month that have an available figure); a month
   * without any is left out.
   */
  by_month: { year: number; month: number; hours_worked: number; available_hours: number }[];
}

/**
 * The period's totals for a dashboard: the ratios of the summed figures and the same months of
 * the year before. Productivity covers the same dealer-months on both sides: the hours worked
 * and the available hours of those that have both (a dealer that did not load its capacities
 * does not raise the network's figure). Summed in SQL (issue 28): per dealer-month as
 * report-info's rows (branches added), then per year and per month (one statement, grouping
 * sets), exact; ~26 rows to Node.
 */
export async function workshopProductivity(
  db: Executor,
  scope: Scope,
  p: WorkshopPeriod,
): Promise<WorkshopProductivity> {
  const from = p.monthFrom ?? 1;
  const to = p.monthTo ?? 12;
  const years = [p.year, p.year - 1];
  const num = (c: PgColumn) => sql<number>`coalesce(sum(${c}), 0)`;
  const w = db.$with('w').as(
    db
      .select({
        dealer_id: workshopInfos.dealer_id,
        year: workshopInfos.year,
        month: workshopInfos.month,
        work_orders_opened: num(workshopInfos.work_orders_opened).as('work_orders_opened'),
        work_orders_closed: num(workshopInfos.work_orders_closed).as('work_orders_closed'),
        hours_sold: num(workshopInfos.hours_sold).as('hours_sold'),
        hours_worked: num(workshopInfos.hours_worked).as('hours_worked'),
        labour_revenue: num(workshopInfos.labour_revenue).as('labour_revenue'),
        parts_revenue: num(workshopInfos.parts_revenue).as('parts_revenue'),
      })
      .from(workshopInfos)
      .where(and(scope.on(workshopInfos.dealer_id), inArray(workshopInfos.year, years)))
      .groupBy(workshopInfos.dealer_id, workshopInfos.year, workshopInfos.month),
  );
  const c = db.$with('c').as(
    db
      .select({
        dealer_id: capacities.dealer_id,
        year: capacities.year,
        month: capacities.month,
        available: sql<number | null>`sum(${capacities.available_hours})`.as('available'),
      })
      .from(capacities)
      .where(and(scope.on(capacities.dealer_id), inArray(capacities.year, years)))
      .groupBy(capacities.dealer_id, capacities.year, capacities.month),
  );
  // The period's rows (months from..to) for the totals; every month for the monthly figures.
  const inPeriod = sql`${w.month} between ${from} and ${to}`;
  const f8 = (e: SQL) => sql<number>`(${e})::float8`;
  const inSum = (col: SQLWrapper) => f8(sql`coalesce(sum(${col}) filter (where ${inPeriod}), 0)`);
  const rows = await db
    .with(w, c)
    .select({
      year: sql<number>`${w.year}::int`,
      /** null: the year's period row; else a month's row. */
      month: sql<number | null>`${w.month}::int`,
      months: sql<number>`(count(*) filter (where ${inPeriod}))::int`,
      work_orders_opened: inSum(w.work_orders_opened),
      work_orders_closed: inSum(w.work_orders_closed),
      hours_sold: inSum(w.hours_sold),
      hours_worked: inSum(w.hours_worked),
      labour_revenue: inSum(w.labour_revenue),
      parts_revenue: inSum(w.parts_revenue),
      available: f8(sql`sum(${c.available}) filter (where ${inPeriod})`),
      worked: f8(
        sql`coalesce(sum(${w.hours_worked}) filter (where ${inPeriod} and ${c.available} is not null), 0)`,
      ),
      month_worked: f8(sql`sum(${w.hours_worked}) filter (where ${c.available} is not null)`),
      month_available: sql<number | null>`(sum(${c.available}))::float8`,
    })
    .from(w)
    .leftJoin(c, and(eq(c.dealer_id, w.dealer_id), eq(c.year, w.year), eq(c.month, w.month)))
    .groupBy(sql`grouping sets ((${w.year}), (${w.year}, ${w.month}))`);
  const total = (year: number) => {
    const r = rows.find((x) => x.month === null && Number(x.year) === year);
    if (!r) return { figures: figures({ ...ZERO }, null), months: 0 };
    const s: WorkshopSums = {
      work_orders_opened: Number(r.work_orders_opened),
      work_orders_closed: Number(r.work_orders_closed),
      hours_sold: Number(r.hours_sold),
      hours_worked: Number(r.hours_worked),
      labour_revenue: Number(r.labour_revenue),
      parts_revenue: Number(r.parts_revenue),
    };
    const available = r.available === null ? null : round2(Number(r.available));
    return { figures: figures(s, available, Number(r.worked)), months: Number(r.months) };
  };
  const now = total(p.year);
  const before = total(p.year - 1);
  return {
    year: p.year,
    month_from: from,
    month_to: to,
    months_reported: now.months,
    ...now.figures,
    previous: before.months ? before.figures : null,
    by_month: rows
      .filter((r) => r.month !== null && r.month_available !== null)
      .map((r) => ({
        year: Number(r.year),
        month: Number(r.month),
        hours_worked: Number(r.month_worked),
        available_hours: Number(r.month_available),
      })),
  };
}
