// The comparison of a month with the same month a year before and of the year to date with the
// year before's, per concept, for one dealer or all, with the fees and compliance beside them.
// `figureSummary` is what other modules (the dashboard) call; resumen-comparativo answers it.
// Each dealer's months add up by the concept's declared aggregation first, then the dealers
// combine (an 'avg' network is the average of its dealers, not of all dealer-months). Every
// compliance compares figures and fees of the same dealer-months only.
import { aggregate, combineDealers, compliance, type ResumenRow } from '@app/contracts';
import { and, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { activeConcepts } from './figures.scope';
import { fees, figures } from './figures.tables';

export interface SummaryFilter {
  year: number;
  month: number;
  /** null: every dealer. */
  dealerIds: number[] | null;
}

/** One dealer's months of one concept: values in month order, keyed by month. */
type DealerMonths = Map<number, number>;
/** concept:year → dealer → its months. */
type Cells = Map<string, Map<number, DealerMonths>>;

const dealerFilter = (table: typeof figures | typeof fees, f: SummaryFilter) =>
  f.dealerIds ? inArray(table.dealer_id, f.dealerIds.length ? f.dealerIds : [0]) : undefined;

/** The cells of the years asked, months 1..f.month (a few thousand per year on a big network). */
async function cells(db: Executor, table: typeof figures | typeof fees, f: SummaryFilter, years: number[]) {
  const rows = await db
    .select({
      concept_id: table.concept_id,
      dealer_id: table.dealer_id,
      year: table.year,
      month: table.month,
      value: sql<string>`${table.value}`,
    })
    .from(table)
    .where(
      and(
        inArray(table.year, years),
        lte(table.month, f.month),
        isNotNull(table.value),
        dealerFilter(table, f),
      ),
    );
  const out: Cells = new Map();
  for (const r of rows) {
    const key = `${r.concept_id}:${r.year}`;
    const byDealer = out.get(key) ?? new Map<number, DealerMonths>();
    out.set(key, byDealer);
    const months = byDealer.get(r.dealer_id) ?? new Map<number, number>();
    byDealer.set(r.dealer_id, months);
    months.set(r.month, Number(r.value));
  }
  return out;
}

const inOrder = (months: DealerMonths, keep: (m: number) => boolean) =>
  [...months.keys()]
    .filter(keep)
    .sort((a, b) => a - b)
    .map((m) => months.get(m)!);

/** The network's (or one dealer's) value of the months `keep` accepts. */
function networkValue(
  byDealer: Map<number, DealerMonths> | undefined,
  aggregation: string,
  keep: (dealerId: number, m: number) => boolean,
): number | null {
  if (!byDealer) return null;
  const perDealer: (number | null)[] = [];
  for (const [dealerId, months] of byDealer)
    perDealer.push(
      aggregate(
        inOrder(months, (m) => keep(dealerId, m)),
        aggregation,
      ),
    );
  return combineDealers(perDealer, aggregation);
}

/** Whether dealer `d` has a value in month `m` of `other`. */
const hasIn = (other: Map<number, DealerMonths> | undefined) => (d: number, m: number) =>
  other?.get(d)?.has(m) ?? false;

const variation = (now: number | null, before: number | null) =>
  now === null || before === null
    ? { abs: null, pct: null }
    : { abs: now - before, pct: before === 0 ? null : (now - before) / Math.abs(before) };

/** Per active concept: month, same month last year, year to date both years, variations, fees, compliance. */
export async function figureSummary(db: Executor, f: SummaryFilter): Promise<ResumenRow[]> {
  const [list, fig, fee] = await Promise.all([
    activeConcepts(db),
    cells(db, figures, f, [f.year, f.year - 1]),
    cells(db, fees, f, [f.year]),
  ]);
  const all = () => true;
  const theMonth = (_d: number, m: number) => m === f.month;
  return list.map((c) => {
    const agg = c.aggregation;
    const figNow = fig.get(`${c.id}:${f.year}`);
    const figBefore = fig.get(`${c.id}:${f.year - 1}`);
    const feeNow = fee.get(`${c.id}:${f.year}`);
    const month = networkValue(figNow, agg, theMonth);
    const monthPrev = networkValue(figBefore, agg, theMonth);
    const ytd = networkValue(figNow, agg, all);
    const ytdPrev = networkValue(figBefore, agg, all);
    const fm = networkValue(feeNow, agg, theMonth);
    const fy = networkValue(feeNow, agg, all);
    // Compliance: the dealer-months with both a figure and a fee, on both sides.
    const withFee = hasIn(feeNow);
    const withFigure = hasIn(figNow);
    const paired = (d: number, m: number) => withFee(d, m) && withFigure(d, m);
    const pairedMonth = (d: number, m: number) => m === f.month && paired(d, m);
    const months = new Set<number>();
    for (const [d, ms] of figNow ?? []) for (const m of ms.keys()) if (withFee(d, m)) months.add(m);
    const mv = variation(month, monthPrev);
    const yv = variation(ytd, ytdPrev);
    return {
      concept_id: c.id,
      code: c.code,
      name: c.name,
      unit: c.unit,
      group: c.group,
      higher_is_better: c.higher_is_better,
      month,
      month_prev: monthPrev,
      month_var: mv.abs,
      month_var_pct: mv.pct,
      ytd,
      ytd_prev: ytdPrev,
      ytd_var: yv.abs,
      ytd_var_pct: yv.pct,
      fee: fm,
      compliance: compliance(
        networkValue(figNow, agg, pairedMonth),
        networkValue(feeNow, agg, pairedMonth),
        c.higher_is_better,
      ),
      ytd_fee: fy,
      ytd_compliance: compliance(
        networkValue(figNow, agg, paired),
        networkValue(feeNow, agg, paired),
        c.higher_is_better,
      ),
      ytd_compliance_months: [...months].sort((a, b) => a - b),
    };
  });
}
