// The comparison of a month with the same month a year before and of the year to date with the
// year before's, per concept, for one dealer or all, with the fees and compliance beside them.
// `figureSummary` is what other modules (the dashboard) call; resumen-comparativo answers it.
// Across dealers and months a concept's values add up, except '%' concepts, which average.
import { compliance, type ResumenRow } from '@app/contracts';
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { activeConcepts } from './figures.scope';
import { fees, figures } from './figures.tables';

export interface SummaryFilter {
  year: number;
  month: number;
  /** null: every dealer. */
  dealerIds: number[] | null;
}

interface Agg {
  sum: number;
  avg: number;
}

const pick = (a: Agg | undefined, unit: string | null) => (a ? (unit === 'PCT' ? a.avg : a.sum) : null);

async function aggregates(
  db: Executor,
  table: typeof figures | typeof fees,
  f: SummaryFilter,
  years: number[],
) {
  const bucket = sql<string>`case when ${table.month} = ${f.month} then 'm' else 'y' end`;
  const rows = await db
    .select({
      concept_id: table.concept_id,
      year: table.year,
      bucket,
      sum: sql<string>`sum(${table.value})`,
      count: sql<number>`count(*)::int`,
    })
    .from(table)
    .where(
      and(
        or(...years.map((y) => eq(table.year, y))),
        lte(table.month, f.month),
        f.dealerIds ? inArray(table.dealer_id, f.dealerIds.length ? f.dealerIds : [0]) : undefined,
      ),
    )
    // By position: the bucket's month is a parameter, written twice it would not match.
    .groupBy(sql`1`, sql`2`, sql`3`);
  // The month alone, and the year to date (the month's bucket plus the months before it).
  const month = new Map<string, Agg>();
  const ytd = new Map<string, { sum: number; count: number }>();
  for (const r of rows) {
    const key = `${r.concept_id}:${r.year}`;
    const sum = Number(r.sum);
    if (r.bucket === 'm') month.set(key, { sum, avg: sum / r.count });
    const acc = ytd.get(key) ?? { sum: 0, count: 0 };
    acc.sum += sum;
    acc.count += r.count;
    ytd.set(key, acc);
  }
  const ytdAgg = new Map<string, Agg>([...ytd].map(([k, a]) => [k, { sum: a.sum, avg: a.sum / a.count }]));
  return { month, ytd: ytdAgg };
}

const variation = (now: number | null, before: number | null) =>
  now === null || before === null
    ? { abs: null, pct: null }
    : { abs: now - before, pct: before === 0 ? null : (now - before) / Math.abs(before) };

/** Per active concept: month, same month last year, year to date both years, variations, fees, compliance. */
export async function figureSummary(db: Executor, f: SummaryFilter): Promise<ResumenRow[]> {
  const [list, fig, fee] = await Promise.all([
    activeConcepts(db),
    aggregates(db, figures, f, [f.year, f.year - 1]),
    aggregates(db, fees, f, [f.year]),
  ]);
  return list.map((c) => {
    const now = `${c.id}:${f.year}`;
    const before = `${c.id}:${f.year - 1}`;
    const month = pick(fig.month.get(now), c.unit);
    const monthPrev = pick(fig.month.get(before), c.unit);
    const ytd = pick(fig.ytd.get(now), c.unit);
    const ytdPrev = pick(fig.ytd.get(before), c.unit);
    const fm = pick(fee.month.get(now), c.unit);
    const fy = pick(fee.ytd.get(now), c.unit);
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
      compliance: compliance(month, fm, c.higher_is_better),
      ytd_fee: fy,
      ytd_compliance: compliance(ytd, fy, c.higher_is_better),
    };
  });
}
