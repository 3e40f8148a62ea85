// The comparison of a month with the same month a year before and of the year to date with the
// year before's, per concept, for one dealer or all, with the fees and compliance beside them.
// `figureSummary` is what other modules (the dashboard) call; resumen-comparativo answers it.
// Each dealer's months add up by the concept's declared aggregation first, then the dealers
// combine (an 'avg' network is the average of its dealers, not of all dealer-months). Every
// compliance compares figures and fees of the same dealer-months only.
import { compliance, type ResumenRow } from '@app/contracts';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { activeConcepts } from './figures.scope';
import { fees, figures } from './figures.tables';

export interface SummaryFilter {
  year: number;
  month: number;
  /** null: every dealer. */
  dealerIds: number[] | null;
}

/** A concept's per-dealer-then-network values on one side (figures of a year, or fees). */
interface SideValues {
  /** Months 1..f.month. */
  all: number | null;
  /** Month f.month. */
  month: number | null;
  /** The dealer-months with a figure and a fee of the year asked (months 1..f.month). */
  paired: number | null;
  pairedMonth: number | null;
}

/**
 * Every concept's values, in one statement: each dealer's months add up by the concept's
 * aggregation (in month order: 'last' is the latest present month), then the dealers combine
 * (the average of dealers for 'avg', else their sum), over the months 1..f.month of the figures
 * of the year and the year before and of the fees of the year; and, per concept, the months where
 * a dealer has both a figure and a fee (what a compliance compares).
 */
async function conceptValues(db: Executor, f: SummaryFilter) {
  const ids = f.dealerIds ? (f.dealerIds.length ? f.dealerIds : [0]) : null;
  const dealerOf = (t: typeof figures | typeof fees) => (ids ? sql`and ${inArray(t.dealer_id, ids)}` : sql``);
  const M = f.month;
  /** One dealer's value of its months that pass `cond`, by the concept's aggregation. */
  const perDealer = (cond: SQL) => sql`case k.aggregation
      when 'last' then (array_agg(c.v order by c.month desc) filter (where ${cond}))[1]
      when 'avg' then sum(c.v order by c.month) filter (where ${cond}) / nullif(count(c.v) filter (where ${cond}), 0)
      else sum(c.v order by c.month) filter (where ${cond}) end`;
  const network = (col: string) =>
    sql.raw(`case when aggregation = 'avg' then avg(${col}) else sum(${col}) end`);
  const answer = (await db.execute(sql`
    with fig as (
      select ${figures.concept_id} as concept_id, ${figures.dealer_id} as dealer_id, ${figures.year}::int as year,
             ${figures.month}::int as month, ${figures.value}::float8 as v
      from ${figures}
      where ${figures.year} in (${f.year}, ${f.year - 1}) and ${figures.month} <= ${M}
        and ${figures.value} is not null ${dealerOf(figures)}
    ), fee as (
      select ${fees.concept_id} as concept_id, ${fees.dealer_id} as dealer_id, ${fees.month}::int as month,
             ${fees.value}::float8 as v
      from ${fees}
      where ${fees.year} = ${f.year} and ${fees.month} <= ${M} and ${fees.value} is not null ${dealerOf(fees)}
    ), cells as (
      select 'fig' as side, g.concept_id, g.dealer_id, g.year, g.month, g.v, e.v is not null as paired
      from fig g left join fee e
        on g.year = ${f.year} and e.concept_id = g.concept_id and e.dealer_id = g.dealer_id and e.month = g.month
      union all
      select 'fee', e.concept_id, e.dealer_id, ${f.year}::int, e.month, e.v, g.v is not null
      from fee e left join fig g
        on g.year = ${f.year} and g.concept_id = e.concept_id and g.dealer_id = e.dealer_id and g.month = e.month
    ), dealer_values as (
      select c.side, c.concept_id, c.year, k.aggregation,
             ${perDealer(sql`true`)} as v_all,
             ${perDealer(sql`c.month = ${M}`)} as v_month,
             ${perDealer(sql`c.paired`)} as v_paired,
             ${perDealer(sql`c.paired and c.month = ${M}`)} as v_paired_month
      from cells c join concepts k on k.id = c.concept_id
      group by c.side, c.concept_id, c.year, c.dealer_id, k.aggregation
    ), paired_months as (
      select concept_id, array_agg(distinct month order by month) as months
      from cells where side = 'fig' and paired group by concept_id
    )
    select d.side, d.concept_id, d.year,
           ${network('v_all')} as n_all, ${network('v_month')} as n_month,
           ${network('v_paired')} as n_paired, ${network('v_paired_month')} as n_paired_month,
           min(p.months) as months
    from dealer_values d left join paired_months p on p.concept_id = d.concept_id
    group by d.side, d.concept_id, d.year, d.aggregation`)) as unknown as {
    rows: {
      side: 'fig' | 'fee';
      concept_id: number;
      year: number;
      n_all: number | null;
      n_month: number | null;
      n_paired: number | null;
      n_paired_month: number | null;
      months: number[] | null;
    }[];
  };
  const out = new Map<string, SideValues & { months: number[] }>();
  for (const r of answer.rows) {
    const n = (x: number | null) => (x === null ? null : Number(x));
    out.set(`${r.side}:${r.concept_id}:${r.year}`, {
      all: n(r.n_all),
      month: n(r.n_month),
      paired: n(r.n_paired),
      pairedMonth: n(r.n_paired_month),
      months: (r.months ?? []).map(Number),
    });
  }
  return out;
}

const variation = (now: number | null, before: number | null) =>
  now === null || before === null
    ? { abs: null, pct: null }
    : { abs: now - before, pct: before === 0 ? null : (now - before) / Math.abs(before) };

/** Per active concept: month, same month last year, year to date both years, variations, fees, compliance. */
export async function figureSummary(db: Executor, f: SummaryFilter): Promise<ResumenRow[]> {
  const [list, values] = await Promise.all([activeConcepts(db), conceptValues(db, f)]);
  const none = { all: null, month: null, paired: null, pairedMonth: null, months: [] as number[] };
  return list.map((c) => {
    const figNow = values.get(`fig:${c.id}:${f.year}`) ?? none;
    const figBefore = values.get(`fig:${c.id}:${f.year - 1}`) ?? none;
    const feeNow = values.get(`fee:${c.id}:${f.year}`) ?? none;
    const mv = variation(figNow.month, figBefore.month);
    const yv = variation(figNow.all, figBefore.all);
    return {
      concept_id: c.id,
      code: c.code,
      name: c.name,
      unit: c.unit,
      group: c.group,
      higher_is_better: c.higher_is_better,
      month: figNow.month,
      month_prev: figBefore.month,
      month_var: mv.abs,
      month_var_pct: mv.pct,
      ytd: figNow.all,
      ytd_prev: figBefore.all,
      ytd_var: yv.abs,
      ytd_var_pct: yv.pct,
      fee: feeNow.month,
      // Compliance: the dealer-months with both a figure and a fee, on both sides.
      compliance: compliance(figNow.pairedMonth, feeNow.pairedMonth, c.higher_is_better),
      ytd_fee: feeNow.all,
      ytd_compliance: compliance(figNow.paired, feeNow.paired, c.higher_is_better),
      ytd_compliance_months: figNow.months,
    };
  });
}
