// The dashboard's follow-up groups: open tickets (agreements of Seguimiento, survey alerts) and
// the workshop (Info Taller over capacities), each read by its module's own summary function.
import { AGE_BUCKETS, type DashboardSeguimiento, type DashboardTaller } from '@app/contracts';
import { and, eq, gt, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { limaEndOfDay } from '../../core/lima';
import { agreementsByAge } from '../agreements/agreements.summary';
import { quizAlerts } from '../quiz/quiz.tables';
import { sales } from '../sales/sales.tables';
import { workshopProductivity } from '../workshop/workshop.summary';
import { type GroupContext, pct, ratioPct } from './dashboard.groups';

/**
 * The survey alerts open at the end of `date` (opened by then, not closed by then), counted in
 * SQL: how many, and how many per age bucket (whole days open, AGE_BUCKETS' upper bounds).
 */
async function openAlertCounts(c: GroupContext, date: string): Promise<{ open: number; buckets: number[] }> {
  const end = limaEndOfDay(date);
  const age = sql`floor(extract(epoch from (${end.toISOString()}::timestamptz - ${quizAlerts.opened_at})) / 86400)`;
  const bucketCounts = AGE_BUCKETS.map((b, i) => {
    const conds: SQL[] = [];
    if (i > 0) conds.push(sql`${age} > ${AGE_BUCKETS[i - 1].max}`);
    if (Number.isFinite(b.max)) conds.push(sql`${age} <= ${b.max}`);
    return conds.length
      ? sql`count(*) filter (where ${sql.join(conds, sql` and `)})::int`
      : sql`count(*)::int`;
  });
  const [row] = await c.db
    .select({
      open: sql<number>`count(*)::int`,
      buckets: sql<number[]>`array[${sql.join(bucketCounts, sql`, `)}]`,
    })
    .from(quizAlerts)
    .where(
      and(
        c.scope.on(quizAlerts.dealer_id),
        lte(quizAlerts.opened_at, end),
        or(isNull(quizAlerts.closed_at), gt(quizAlerts.closed_at, end)),
        // Every alert has its sale (not null, a foreign key): sales are read for a brand only.
        c.filter.manufacturer_id
          ? inArray(
              quizAlerts.sale_id,
              c.db
                .select({ id: sales.id })
                .from(sales)
                .where(eq(sales.manufacturer_id, c.filter.manufacturer_id)),
            )
          : undefined,
      ),
    );
  return { open: Number(row.open), buckets: row.buckets.map(Number) };
}

export async function seguimientoGroup(c: GroupContext): Promise<DashboardSeguimiento> {
  const { db, scope, period: p } = c;
  // Agreements have no brand: the brand filter leaves them as they are. The card counts every
  // agreement open at the end of the period (today, for a period under way), whatever its due date.
  const [agreements, agreementsPrev, alerts, alertsPrev] = await Promise.all([
    agreementsByAge(db, scope, { openAt: p.to }),
    agreementsByAge(db, scope, { openAt: p.prev_to }),
    openAlertCounts(c, p.to),
    openAlertCounts(c, p.prev_to),
  ]);
  return {
    open_agreements: { value: agreements.open, previous: agreementsPrev.open },
    overdue_agreements: agreements.overdue,
    agreements_by_age: agreements.buckets,
    open_alerts: { value: alerts.open, previous: alertsPrev.open },
    alerts_by_age: AGE_BUCKETS.map(({ bucket }, i) => ({ bucket, count: alerts.buckets[i] })),
  };
}

export async function tallerGroup(c: GroupContext): Promise<DashboardTaller> {
  const { db, scope, filter: f } = c;
  const period = await workshopProductivity(db, scope, {
    year: f.year,
    monthFrom: f.month ?? 1,
    monthTo: f.month ?? 12,
  });
  const months = period.by_month;
  // Per month: the ratio of the month's sums over the dealers that reported (Info Taller's report).
  const monthly = (m: number, previous: boolean) => {
    const r = months.find((x) => x.month === m && x.year === (previous ? f.year - 1 : f.year));
    return r ? pct(r.hours_worked, r.available_hours) : null;
  };
  return {
    productivity: { value: ratioPct(period.productivity), previous: ratioPct(period.previous?.productivity) },
    efficiency: { value: ratioPct(period.efficiency), previous: ratioPct(period.previous?.efficiency) },
    hours_worked: period.hours_worked,
    available_hours: period.available_hours,
    months_reported: period.months_reported,
    by_month: Array.from({ length: 12 }, (_, i) => ({
      month: i + 1,
      value: monthly(i + 1, false),
      previous: monthly(i + 1, true),
    })),
  };
}
