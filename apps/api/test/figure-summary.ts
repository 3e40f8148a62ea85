// The year-to-date summaries of figures and fees (figure_ytd, migration 0024) against a
// recomputation from the raw rows, written here independently of the migration's functions
// (per cut month, the cells of the months up to it; the latest ones by ordering): the rows that
// differ, expected none.
import type { DatabaseHandle } from '../src/db/client';

const RECOMPUTED = `with c as (
    select dealer_id, concept_id, year::int as year, month::int as month, max(fig) as fig, max(fee) as fee
    from (select dealer_id, concept_id, year, month, value as fig, null::numeric as fee from figures
          union all select dealer_id, concept_id, year, month, null, value from fees) x
    group by 1, 2, 3, 4
  ), k as (select distinct dealer_id, concept_id, year from c)
  select k.year, u.m as month, k.concept_id, k.dealer_id,
    a.fig_n, a.fig_sum, lf.fig as fig_last, a.fig_month, a.fee_n, a.fee_sum, le.fee as fee_last, a.fee_month,
    a.paired_n, a.paired_fig_sum, lp.fig as paired_fig_last, a.paired_fee_sum, lp.fee as paired_fee_last, a.paired_months
  from k cross join generate_series(1, 12) as u(m)
  cross join lateral (
    select count(fig)::int as fig_n, sum(fig) as fig_sum, max(fig) filter (where month = u.m) as fig_month,
      count(fee)::int as fee_n, sum(fee) as fee_sum, max(fee) filter (where month = u.m) as fee_month,
      count(*) filter (where fig is not null and fee is not null)::int as paired_n,
      sum(fig) filter (where fee is not null) as paired_fig_sum, sum(fee) filter (where fig is not null) as paired_fee_sum,
      bit_or(1 << month) filter (where fig is not null and fee is not null) as paired_months
    from c where c.dealer_id = k.dealer_id and c.concept_id = k.concept_id and c.year = k.year and c.month <= u.m
  ) a
  left join lateral (select fig from c where c.dealer_id = k.dealer_id and c.concept_id = k.concept_id
    and c.year = k.year and c.month <= u.m and fig is not null order by month desc limit 1) lf on true
  left join lateral (select fee from c where c.dealer_id = k.dealer_id and c.concept_id = k.concept_id
    and c.year = k.year and c.month <= u.m and fee is not null order by month desc limit 1) le on true
  left join lateral (select fig, fee from c where c.dealer_id = k.dealer_id and c.concept_id = k.concept_id
    and c.year = k.year and c.month <= u.m and fig is not null and fee is not null order by month desc limit 1) lp on true
  where a.fig_n > 0 or a.fee_n > 0`;

const COLS = `year, month, concept_id, dealer_id, fig_n, fig_sum, fig_last, fig_month, fee_n, fee_sum, fee_last,
  fee_month, paired_n, paired_fig_sum, paired_fig_last, paired_fee_sum, paired_fee_last, paired_months`;

/** The summary rows that are not the recomputation's and the recomputation's that are not kept. */
export async function figureSummaryDifferences(handle: DatabaseHandle) {
  const rows = await handle.query<{ side: string; row: string }>(
    `select 'kept' as side, x::text as row from (select ${COLS} from figure_ytd except select ${COLS} from (${RECOMPUTED}) r) x
     union all
     select 'recomputed', x::text from (select ${COLS} from (${RECOMPUTED}) r except select ${COLS} from figure_ytd) x`,
  );
  const [n] = await handle.query<{ kept: number }>('select count(*)::int as kept from figure_ytd');
  return { differing: rows.map((r) => `${r.side} ${r.row}`), kept: n.kept };
}
