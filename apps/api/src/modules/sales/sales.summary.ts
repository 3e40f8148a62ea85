// CEM sales counted for other modules (the dashboard): per month and brand of a date range,
// within the call's dealer scope (core/scope), as the CEM list counts them.
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { Scope } from '../../core/scope';
import { sales } from './sales.tables';

export interface SalesCountFilter {
  /** Inclusive dates (YYYY-MM-DD). */
  from: string;
  to: string;
  manufacturerId?: number | null;
}

/** Sales per (year, month, brand) of the range. */
export async function salesCounts(
  db: Executor,
  scope: Scope,
  f: SalesCountFilter,
): Promise<{ year: number; month: number; manufacturer_id: number; n: number }[]> {
  return db
    .select({
      year: sql<number>`extract(year from ${sales.sale_date})::int`,
      month: sql<number>`extract(month from ${sales.sale_date})::int`,
      manufacturer_id: sales.manufacturer_id,
      n: sql<number>`count(*)::int`,
    })
    .from(sales)
    .where(
      and(
        scope.on(sales.dealer_id),
        gte(sales.sale_date, f.from),
        lte(sales.sale_date, f.to),
        f.manufacturerId ? eq(sales.manufacturer_id, f.manufacturerId) : undefined,
      ),
    )
    .groupBy(sql`1`, sql`2`, sales.manufacturer_id);
}
