// What a dashboard reads of Seguimiento: the open agreements of a dealer (or every dealer the
// caller sees) by age bucket, and the count per status.
import {
  AGREEMENT_AGE_BUCKETS,
  AGREEMENT_STATUSES,
  type AgreementAgeSummary,
  daysInMonth,
} from '@app/contracts';
import { and, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { limaEndOfDay, limaToday } from '../../core/lima';
import type { Scope } from '../../core/scope';
import { agreementEvents, agreements } from './agreements.tables';

export interface AgreementFilter {
  zoneId?: number | null;
  /** With `month`: the agreements due in that month; alone: due in that year. */
  year?: number | null;
  month?: number | null;
  /** The day ages are counted to (YYYY-MM-DD); default today. */
  asOf?: string;
  /**
   * The dashboard's question: every agreement open at the end of this Lima day (YYYY-MM-DD),
   * whatever its due date, with its status of that day (from its history) and its age then.
   * `year`/`month` are ignored with it.
   */
  openAt?: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Open agreements by age for a filter, in the call's dealer scope (a dealer user: its own; else
 * the dealer asked for, or every dealer).
 */
export async function agreementsByAge(
  db: Executor,
  scope: Scope,
  filter: AgreementFilter = {},
): Promise<AgreementAgeSummary> {
  // Days past due count from Lima's today (at 8 p.m. in Lima the UTC date is already tomorrow).
  const asOf = filter.openAt ?? filter.asOf ?? limaToday();
  const where: (SQL | undefined)[] = [scope.on(agreements.dealer_id)];
  if (filter.zoneId) where.push(eq(agreements.zone_id, filter.zoneId));
  let end: string | undefined;
  if (filter.openAt) {
    end = limaEndOfDay(filter.openAt).toISOString();
    where.push(lte(agreements.created_at, sql`${end}::timestamptz`));
  } else if (filter.year) {
    const from = `${filter.year}-${pad(filter.month ?? 1)}-01`;
    const lastMonth = filter.month ?? 12;
    const to = `${filter.year}-${pad(lastMonth)}-${pad(daysInMonth(filter.year, lastMonth))}`;
    where.push(gte(agreements.due_date, from), lte(agreements.due_date, to));
  }
  // The status of the day `openAt` ends, from the history of the agreements asked (one pass
  // over it): the last change up to then, else what the first later change left.
  const history = db.$with('agreement_history').as(
    db
      .select({
        agreement_id: agreementEvents.agreement_id,
        before_end: sql<
          string | null
        >`(array_agg(${agreementEvents.to_status} order by ${agreementEvents.id} desc)
          filter (where ${agreementEvents.created_at} <= ${end ?? null}::timestamptz))[1]`.as('before_end'),
        after_end: sql<
          string | null
        >`(array_agg(${agreementEvents.from_status} order by ${agreementEvents.id} asc)
          filter (where ${agreementEvents.created_at} > ${end ?? null}::timestamptz))[1]`.as('after_end'),
      })
      .from(agreementEvents)
      .where(
        and(
          eq(agreementEvents.kind, 'status'),
          inArray(
            agreementEvents.agreement_id,
            db
              .select({ id: agreements.id })
              .from(agreements)
              .where(and(...where)),
          ),
        ),
      )
      .groupBy(agreementEvents.agreement_id),
  );
  // Each agreement's status (and due date) read once, then counted in every way below.
  const rows = db.$with('agreement_rows').as(
    end
      ? db
          .select({
            due_date: agreements.due_date,
            status:
              sql<string>`coalesce(${history.before_end}, ${history.after_end}, ${agreements.status})`.as(
                'status',
              ),
          })
          .from(agreements)
          .leftJoin(history, eq(history.agreement_id, agreements.id))
          .where(and(...where))
      : db
          .select({ due_date: agreements.due_date, status: sql<string>`${agreements.status}`.as('status') })
          .from(agreements)
          .where(and(...where)),
  );
  const open = sql`${rows.status} in ('pending', 'in_progress')`;
  const age = sql`(${asOf}::date - ${rows.due_date})`;
  const bucketCounts = AGREEMENT_AGE_BUCKETS.map((b) => {
    const conds = [open];
    if (b.min !== null) conds.push(sql`${age} >= ${b.min}`);
    if (b.max !== null) conds.push(sql`${age} <= ${b.max}`);
    return sql<number>`count(*) filter (where ${sql.join(conds, sql` and `)})::int`;
  });
  const [row] = await (end ? db.with(history, rows) : db.with(rows))
    .select({
      total: sql<number>`count(*)::int`,
      open: sql<number>`count(*) filter (where ${open})::int`,
      overdue: sql<number>`count(*) filter (where ${open} and ${age} > 0)::int`,
      buckets: sql<number[]>`array[${sql.join(bucketCounts, sql`, `)}]`,
      statuses: sql<number[]>`array[${sql.join(
        AGREEMENT_STATUSES.map((s) => sql`count(*) filter (where ${rows.status} = ${s.id})::int`),
        sql`, `,
      )}]`,
    })
    .from(rows);
  return {
    as_of: asOf,
    total: row.total,
    open: row.open,
    overdue: row.overdue,
    buckets: AGREEMENT_AGE_BUCKETS.map((b, i) => ({
      key: b.key,
      name: b.name,
      count: Number(row.buckets[i]),
    })),
    by_status: AGREEMENT_STATUSES.map((s, i) => ({
      status: s.id,
      name: s.name,
      count: Number(row.statuses[i]),
    })),
  };
}
