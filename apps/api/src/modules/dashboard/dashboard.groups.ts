// The dashboard's widget groups. Each number is read by the function of the module that owns it
// (the one its own screen answers with), for the same filters, so the dashboard and the screen
// behind a widget never disagree; the dashboard only adds up their rows and divides.
import type {
  DashboardCifras,
  DashboardDespachos,
  DashboardEncuestas,
  DashboardMonth,
  DashboardVentas,
} from '@app/contracts';
import { asc } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { Scope } from '../../core/scope';
import { manufacturers } from '../../db/schema';
import { monthlyUnits, objectivesSummary, pacingStatus } from '../dispatches/dispatches.summary';
import { figureSummary } from '../figures/figures.compare';
import { surveyTrend, tableStats } from '../quiz/quiz.stats';
import { salesCounts } from '../sales/sales.summary';
import type { DashboardQuery } from './dashboard.filter';

export interface GroupContext extends DashboardQuery {
  db: Executor;
  /** The call's dealer scope (the engine's: a dealer user's own, the dealer asked for, or all). */
  scope: Scope;
}

/** A ratio (0.538) as a percentage with one decimal (53.8); null stays null. */
export const ratioPct = (ratio: number | null | undefined) =>
  ratio === null || ratio === undefined ? null : Math.round(ratio * 1000) / 10;
/** a ÷ b as a percentage with one decimal; null without a base. */
export const pct = (a: number, b: number) => (b > 0 ? ratioPct(a / b) : null);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const months = (
  value: (m: number) => number | null,
  previous: (m: number) => number | null,
  target?: (m: number) => number | null,
): DashboardMonth[] =>
  Array.from({ length: 12 }, (_, i) => ({
    month: i + 1,
    value: value(i + 1),
    previous: previous(i + 1),
    ...(target ? { target: target(i + 1) } : {}),
  }));

/** A trend shows the year's months up to today (all of them for a past year). */
const trendEnd = (c: GroupContext) =>
  c.today < `${c.filter.year}-12-31` ? c.today : `${c.filter.year}-12-31`;
const shownUpTo = (c: GroupContext) => Number(trendEnd(c).slice(5, 7));

export async function ventasGroup(c: GroupContext): Promise<DashboardVentas> {
  const { db, scope, filter: f, period: p } = c;
  const brand = brandOf(c);
  const [now, before, year, yearPrev, daily, dailyPrev, brands] = await Promise.all([
    salesCounts(db, scope, { ...brand, from: p.from, to: p.to }),
    salesCounts(db, scope, { ...brand, from: p.prev_from, to: p.prev_to }),
    salesCounts(db, scope, { ...brand, from: `${f.year}-01-01`, to: trendEnd(c) }),
    salesCounts(db, scope, { ...brand, from: `${f.year - 1}-01-01`, to: `${f.year - 1}-12-31` }),
    monthlyUnits(db, scope, 'daily', { ...brand, year: f.year, upTo: p.to }),
    monthlyUnits(db, scope, 'daily', { ...brand, year: f.year - 1, upTo: p.prev_to }),
    db
      .select({ id: manufacturers.id, name: manufacturers.name })
      .from(manufacturers)
      .orderBy(asc(manufacturers.name)),
  ]);
  const total = (rows: { n: number }[]) => sum(rows.map((r) => r.n));
  const inMonth = (rows: { month: number; n: number }[], m: number) =>
    total(rows.filter((r) => r.month === m));
  const inPeriod = (values: number[]) => sum(values.slice(f.month ? f.month - 1 : 0, f.month ?? 12));
  const upTo = shownUpTo(c);
  return {
    sales: { value: total(now), previous: total(before) },
    daily: { value: inPeriod(daily), previous: inPeriod(dailyPrev) },
    by_month: months(
      (m) => (m <= upTo ? inMonth(year, m) : null),
      (m) => inMonth(yearPrev, m),
    ),
    by_brand: brands
      .map((b) => ({
        manufacturer_id: b.id,
        name: b.name,
        value: total(now.filter((r) => r.manufacturer_id === b.id)),
        previous: total(before.filter((r) => r.manufacturer_id === b.id)),
      }))
      .filter((b) => b.value > 0 || b.previous > 0),
  };
}

/** The brand asked for (the dealer is the call's scope). */
const brandOf = (c: GroupContext) => ({ manufacturerId: c.filter.manufacturer_id ?? undefined });

export async function encuestasGroup(c: GroupContext): Promise<DashboardEncuestas> {
  const { db, scope, filter: f, period: p } = c;
  const base = { ...brandOf(c), scope };
  const month = f.month ?? undefined;
  const [stats, statsPrev, trend, trendPrev, trendPrevToDate] = await Promise.all([
    tableStats(db, { ...base, year: f.year, month, until: p.to }),
    tableStats(db, { ...base, year: f.year - 1, month, until: p.prev_to }),
    surveyTrend(db, { ...base, year: f.year, until: trendEnd(c) }),
    // The chart shows the whole year before; the card compares the same days a year before.
    surveyTrend(db, { ...base, year: f.year - 1 }),
    surveyTrend(db, { ...base, year: f.year - 1, until: p.prev_to }),
  ]);
  const cover = (s: typeof stats) => {
    const sales = sum(s.cobertura.map((r) => r.sales));
    return {
      sales,
      invitations: sum(s.cobertura.map((r) => r.invitations)),
      responses: sum(s.cobertura.map((r) => r.responses)),
    };
  };
  const inPeriod = (t: typeof trend) => t.filter((m) => !f.month || m.month === f.month);
  const topOf = (t: typeof trend) => pct(sum(t.map((m) => m.top)), sum(t.map((m) => m.rating_answers)));
  const now = cover(stats);
  const before = cover(statsPrev);
  const upTo = shownUpTo(c);
  const ranked = stats.ranking.ranked;
  const pick = (r: (typeof ranked)[number]) => ({
    dealer_id: r.dealer_id,
    dealer_name: r.dealer_name,
    top_box: ratioPct(r.top_box),
    position: r.position,
  });
  return {
    ...now,
    coverage: { value: pct(now.responses, now.sales), previous: pct(before.responses, before.sales) },
    top_box: { value: topOf(inPeriod(trend)), previous: topOf(inPeriod(trendPrevToDate)) },
    coverage_by_month: months(
      (m) => (m <= upTo ? pct(trend[m - 1].responses, trend[m - 1].sales) : null),
      (m) => pct(trendPrev[m - 1].responses, trendPrev[m - 1].sales),
    ),
    top_box_by_month: months(
      (m) => (m <= upTo ? pct(trend[m - 1].top, trend[m - 1].rating_answers) : null),
      (m) => pct(trendPrev[m - 1].top, trendPrev[m - 1].rating_answers),
    ),
    best: ranked.slice(0, 3).map(pick),
    worst: ranked.length > 3 ? ranked.slice(-3).reverse().map(pick) : [],
  };
}

export async function despachosGroup(c: GroupContext): Promise<DashboardDespachos> {
  const { db, scope, filter: f, period: p } = c;
  const brand = brandOf(c);
  const month = f.month ?? undefined;
  const [now, before, dispatched, dispatchedPrev, objectives] = await Promise.all([
    objectivesSummary(db, scope, { ...brand, year: f.year, month, asOf: p.to }),
    objectivesSummary(db, scope, { ...brand, year: f.year - 1, month, asOf: p.prev_to }),
    monthlyUnits(db, scope, 'dispatches', { ...brand, year: f.year, upTo: trendEnd(c) }),
    monthlyUnits(db, scope, 'dispatches', { ...brand, year: f.year - 1 }),
    monthlyUnits(db, scope, 'objectives', { ...brand, year: f.year }),
  ]);
  const t = now.totals;
  const upTo = shownUpTo(c);
  const pacing = pct(t.units, t.objective_to_date);
  return {
    dispatched: { value: t.units, previous: before.totals.units, target: t.objective },
    sold: { value: t.sold, previous: before.totals.sold },
    objective: t.objective,
    objective_to_date: t.objective_to_date,
    pacing,
    compliance: pct(t.units, t.objective),
    status: pacingStatus(t.objective_to_date, t.units, t.objective),
    days_elapsed: now.days_elapsed,
    days_total: now.days_total,
    by_month: months(
      (m) => (m <= upTo ? dispatched[m - 1] : null),
      (m) => dispatchedPrev[m - 1],
      (m) => objectives[m - 1],
    ),
    behind: now.rows
      .filter((r) => r.status === 'atrasado')
      .sort((a, b) => (a.pacing ?? 0) - (b.pacing ?? 0))
      .slice(0, 5)
      .map((r) => ({
        dealer_id: r.dealer_id,
        dealer_name: r.dealer_name,
        manufacturer_name: r.manufacturer_name,
        pacing: r.pacing,
      })),
  };
}

/** The dealers whose figures count: the scope's (a dealer user's own, the one asked for), or all. */
const figureDealers = (c: GroupContext) => (c.scope.dealerIds ? [...c.scope.dealerIds] : null);

export async function cifrasGroup(c: GroupContext): Promise<DashboardCifras> {
  const { db, filter: f, period: p } = c;
  const dealerIds = figureDealers(c);
  const month = p.figures_month;
  const [rows, rowsPrev] = await Promise.all([
    figureSummary(db, { year: f.year, month, dealerIds }),
    figureSummary(db, { year: f.year - 1, month, dealerIds }),
  ]);
  const mean = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return pct(sum(known), known.length);
  };
  return {
    year: f.year,
    month,
    compliance: {
      value: mean(rows.map((r) => r.ytd_compliance)),
      previous: mean(rowsPrev.map((r) => r.ytd_compliance)),
    },
    concepts: rows.map((r) => ({
      concept_id: r.concept_id,
      code: r.code,
      name: r.name,
      unit: r.unit,
      ytd: r.ytd,
      ytd_prev: r.ytd_prev,
      ytd_fee: r.ytd_fee,
      ytd_compliance: ratioPct(r.ytd_compliance),
      compliance: ratioPct(r.compliance),
    })),
  };
}
