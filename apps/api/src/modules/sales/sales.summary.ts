// CEM sales counted for other modules (the dashboard): per month and brand of a date range,
// within the caller's dealer scope (the sales resource's), as the CEM list counts them.
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { scopeCondition } from '../../core/resource-query';
import { saleResource } from './sales.resources';
import { sales } from './sales.tables';

export interface SalesCountFilter {
  /** Inclusive dates (YYYY-MM-DD). */
  from: string;
  to: string;
  dealerId?: number | null;
  manufacturerId?: number | null;
}

/** Sales per (year, month, brand) of the range. */
export async function salesCounts(
  db: Executor,
  user: CurrentUser,
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
        scopeCondition(saleResource, user),
        gte(sales.sale_date, f.from),
        lte(sales.sale_date, f.to),
        f.dealerId ? eq(sales.dealer_id, f.dealerId) : undefined,
        f.manufacturerId ? eq(sales.manufacturer_id, f.manufacturerId) : undefined,
      ),
    )
    .groupBy(sql`1`, sql`2`, sales.manufacturer_id);
}
