// For the modules' demo hooks (<module>.demo.ts): the demo dealers a module's demo still has to
// fill, those of the given codes that have no row yet in the module's table (its dealer column),
// so a second run of the demo adds nothing.
import { inArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../core/action';
import { dealers, users } from '../db/schema';

export interface DemoDealer {
  id: number;
  code: string;
  zone_id: number | null;
}

/** The dealers of `codes` (in that order) with no row in `dealerColumn`'s table. */
export async function demoDealersWithout(
  db: Executor,
  codes: string[],
  dealerColumn: PgColumn,
): Promise<DemoDealer[]> {
  if (!codes.length) return [];
  const all = await db
    .select({ id: dealers.id, code: dealers.code, zone_id: dealers.zone_id })
    .from(dealers)
    .where(inArray(dealers.code, codes));
  all.sort((a, b) => codes.indexOf(a.code) - codes.indexOf(b.code));
  if (!all.length) return [];
  const done = new Set(
    (
      await db
        .selectDistinct({ id: dealerColumn })
        .from(dealerColumn.table)
        .where(
          inArray(
            dealerColumn,
            all.map((d) => d.id),
          ),
        )
    ).map((r) => Number(r.id)),
  );
  return all.filter((d) => !done.has(d.id));
}

/** The users of these dealers (a demo writes its dealers' rows in their names). */
export function demoDealerUsers(
  db: Executor,
  dealerIds: number[],
): Promise<{ id: number; dealer_id: number }[]> {
  return (
    db
      .select({ id: users.id, dealer_id: users.dealer_id })
      .from(users)
      // Every one has a dealer (the condition names it).
      .where(inArray(users.dealer_id, dealerIds)) as Promise<{ id: number; dealer_id: number }[]>
  );
}
