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
import { fees, figures, figureYtd } from './figures.tables';

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
 * aggregation ('last' is the latest present month), then the dealers combine (the average of
 * dealers for 'avg', else their sum), over the months 1..f.month of the figures of the year and
 * the year before and of the fees of the year; and, per concept, the months where a dealer has
 * both a figure and a fee (what a compliance compares).
 *
 * One pass over the rows, no join: the cells (dealer, concept, month) are grouped once with the
 * year's figure, the year before's and the year's fee side by side, then per dealer, then per
 * concept. Values are summed as numeric (exact, so the order of the months does not matter) and
 * turned to float8 at the end; 'last' is the value of the greatest month, max(array[month, v]).
 */
async function conceptValues(db: Executor, f: SummaryFilter, opts: { raw?: boolean } = {}) {
  if (!opts.raw && Number.isInteger(f.month) && f.month >= 1 && f.month <= 12) return summaryValues(db, f);
  const ids = f.dealerIds ? (f.dealerIds.length ? f.dealerIds : [0]) : null;
  const dealerOf = (t: typeof figures | typeof fees) => (ids ? sql`and ${inArray(t.dealer_id, ids)}` : sql``);
  const M = f.month;
  /** One dealer's value of the column's months that pass `cond`, by the concept's aggregation. */
  const perDealer = (col: string, cond: SQL) => {
    const v = sql.raw(col);
    const when = sql`${v} is not null and ${cond}`;
    return sql`case k.aggregation
      when 'last' then (max(array[c.month::numeric, ${v}]) filter (where ${when}))[2]
      when 'avg' then sum(${v}) filter (where ${when}) / nullif(count(${v}) filter (where ${when}), 0)
      else sum(${v}) filter (where ${when}) end`;
  };
  const paired = sql`c.fig is not null and c.fee is not null`;
  const isMonth = sql`c.month = ${M}`;
  const network = (col: string) =>
    `(case when d.aggregation = 'avg' then avg(d.${col}) else sum(d.${col}) end)::float8 as ${col}`;
  const sides = ['fig', 'prev', 'fee'].flatMap((p) =>
    ['all', 'month', ...(p === 'prev' ? [] : ['paired', 'paired_month'])].map((k) => `${p}_${k}`),
  );
  // The network's cells (~60,000 a year at 300 dealers) are grouped in memory, not on disk: the
  // statement gets a work_mem of its own (SET LOCAL, this transaction only).
  const answer = (await db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    return tx.execute(sql`
    with rows as (
      select 0 as side, ${figures.concept_id} as concept_id, ${figures.dealer_id} as dealer_id,
             ${figures.month}::int as month, ${figures.value} as v
      from ${figures}
      where ${figures.year} = ${f.year} and ${figures.month} <= ${M} and ${figures.value} is not null ${dealerOf(figures)}
      union all
      select 1, ${figures.concept_id}, ${figures.dealer_id}, ${figures.month}::int, ${figures.value}
      from ${figures}
      where ${figures.year} = ${f.year - 1} and ${figures.month} <= ${M} and ${figures.value} is not null ${dealerOf(figures)}
      union all
      select 2, ${fees.concept_id}, ${fees.dealer_id}, ${fees.month}::int, ${fees.value}
      from ${fees}
      where ${fees.year} = ${f.year} and ${fees.month} <= ${M} and ${fees.value} is not null ${dealerOf(fees)}
    ), cells as (
      select concept_id, dealer_id, month,
             max(v) filter (where side = 0) as fig, max(v) filter (where side = 1) as prev,
             max(v) filter (where side = 2) as fee
      from rows group by concept_id, dealer_id, month
    ), dealer_values as (
      select c.concept_id, k.aggregation,
             ${perDealer('c.fig', sql`true`)} as fig_all,
             ${perDealer('c.fig', isMonth)} as fig_month,
             ${perDealer('c.fig', paired)} as fig_paired,
             ${perDealer('c.fig', sql`${paired} and ${isMonth}`)} as fig_paired_month,
             ${perDealer('c.prev', sql`true`)} as prev_all,
             ${perDealer('c.prev', isMonth)} as prev_month,
             ${perDealer('c.fee', sql`true`)} as fee_all,
             ${perDealer('c.fee', isMonth)} as fee_month,
             ${perDealer('c.fee', paired)} as fee_paired,
             ${perDealer('c.fee', sql`${paired} and ${isMonth}`)} as fee_paired_month,
             bit_or(1 << c.month) filter (where ${paired}) as months,
             bool_or(c.fig is not null) as has_fig, bool_or(c.prev is not null) as has_prev,
             bool_or(c.fee is not null) as has_fee
      from cells c join concepts k on k.id = c.concept_id
      group by c.concept_id, c.dealer_id, k.aggregation
    )
    select d.concept_id, bool_or(d.has_fig) as has_fig, bool_or(d.has_prev) as has_prev,
           bool_or(d.has_fee) as has_fee, bit_or(d.months) as months,
           ${sql.raw(sides.map(network).join(', '))}
    from dealer_values d
    group by d.concept_id, d.aggregation`);
  })) as unknown as { rows: ValueRow[] };
  return valuesOf(f, answer.rows);
}

type ValueRow = {
  concept_id: number;
  has_fig: boolean;
  has_prev: boolean;
  has_fee: boolean;
  months: number | null;
} & Record<string, number | null>;

/**
 * conceptValues from the year-to-date summaries (figure_ytd, kept by triggers: migration 0024):
 * a row per dealer and concept of the year and of the year before, cut at f.month, holding the
 * sums, counts and latest values of the months 1..f.month that the raw statement computes from
 * the cells. Each dealer's value is the same expression over the same exact numerics, then the
 * dealers combine as there, so both answer the same numbers.
 */
async function summaryValues(db: Executor, f: SummaryFilter) {
  const ids = f.dealerIds ? (f.dealerIds.length ? f.dealerIds : [0]) : null;
  const y = figureYtd;
  /** One dealer's value of a side: Último valor its latest month, Promedio sum ÷ n, Suma its sum. */
  const perDealer = (p: string, n = `y.${p}_n`) =>
    `case k.aggregation when 'last' then y.${p}_last when 'avg' then y.${p}_sum / nullif(${n}, 0) else y.${p}_sum end`;
  /** The cut month's own value, as the raw statement's per-dealer expression of one month. */
  const ofMonth = (v: string) => `case k.aggregation when 'avg' then ${v} / 1 else ${v} end`;
  const pairedMonth = (v: string) =>
    ofMonth(`case when y.fig_month is not null and y.fee_month is not null then ${v} end`);
  const columns: [string, string][] = [
    ['fig_all', perDealer('fig')],
    ['fig_month', ofMonth('y.fig_month')],
    ['fig_paired', perDealer('paired_fig', 'y.paired_n')],
    ['fig_paired_month', pairedMonth('y.fig_month')],
    ['fee_all', perDealer('fee')],
    ['fee_month', ofMonth('y.fee_month')],
    ['fee_paired', perDealer('paired_fee', 'y.paired_n')],
    ['fee_paired_month', pairedMonth('y.fee_month')],
  ];
  const network = (col: string, year: number) =>
    `(case when d.aggregation = 'avg' then avg(d.${col}) filter (where d.year = ${year}) else sum(d.${col}) filter (where d.year = ${year}) end)::float8`;
  const year = Math.trunc(f.year);
  const answer = (await db.execute(sql`
    with d as (
      select y.year, y.concept_id, k.aggregation, y.fig_n, y.fee_n, y.paired_months,
             ${sql.raw(columns.map(([name, e]) => `${e} as ${name}`).join(', '))}
      from ${y} y join concepts k on k.id = y.concept_id
      where y.year in (${year}, ${year - 1}) and y.month = ${f.month}
        ${ids ? sql`and y.dealer_id = any(${sql.param(ids)}::int4[])` : sql``}
    )
    select d.concept_id,
           coalesce(bool_or(d.fig_n > 0) filter (where d.year = ${year}), false) as has_fig,
           coalesce(bool_or(d.fig_n > 0) filter (where d.year = ${year - 1}), false) as has_prev,
           coalesce(bool_or(d.fee_n > 0) filter (where d.year = ${year}), false) as has_fee,
           bit_or(d.paired_months) filter (where d.year = ${year}) as months,
           ${sql.raw(
             [
               ...columns.map(([name]) => `${network(name, year)} as ${name}`),
               `${network('fig_all', year - 1)} as prev_all`,
               `${network('fig_month', year - 1)} as prev_month`,
             ].join(', '),
           )}
    from d group by d.concept_id, d.aggregation`)) as unknown as { rows: ValueRow[] };
  return valuesOf(f, answer.rows);
}

function valuesOf(f: SummaryFilter, rows: ValueRow[]) {
  const answer = { rows };
  const out = new Map<string, SideValues & { months: number[] }>();
  const n = (x: unknown) => (x === null || x === undefined ? null : Number(x));
  for (const r of answer.rows) {
    const mask = Number(r.months ?? 0);
    const months = Array.from({ length: 12 }, (_, i) => i + 1).filter((m) => mask & (1 << m));
    const side = (p: string, paired: boolean) => ({
      all: n(r[`${p}_all`]),
      month: n(r[`${p}_month`]),
      paired: paired ? n(r[`${p}_paired`]) : null,
      pairedMonth: paired ? n(r[`${p}_paired_month`]) : null,
      months: paired ? months : [],
    });
    if (r.has_fig) out.set(`fig:${r.concept_id}:${f.year}`, side('fig', true));
    if (r.has_prev) out.set(`fig:${r.concept_id}:${f.year - 1}`, side('prev', false));
    if (r.has_fee) out.set(`fee:${r.concept_id}:${f.year}`, side('fee', true));
  }
  return out;
}

const variation = (now: number | null, before: number | null) =>
  now === null || before === null
    ? { abs: null, pct: null }
    : { abs: now - before, pct: before === 0 ? null : (now - before) / Math.abs(before) };

/** Per active concept: month, same month last year, year to date both years, variations, fees, compliance. */
export async function figureSummary(
  db: Executor,
  f: SummaryFilter,
  opts: { raw?: boolean } = {},
): Promise<ResumenRow[]> {
  const [list, values] = await Promise.all([activeConcepts(db), conceptValues(db, f, opts)]);
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
