// The demo network's scheduled mails: both schedules on (the weekly one on Mondays at 08:00,
// to the managers), and one dealer's last confirmed month mailed to its contacts, so Preferencias →
// Correos programados and the outbox show something. Idempotent: a schedule an administrator
// already saved is left as it is, and a month is mailed once (its run's key).
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { now } from '../../core/lima';
import { dealers } from '../../db/schema';
import { figurePeriods } from '../figures/figures.tables';
import { queueResumenOnConfirm } from './schedules.service';
import { mailSchedules } from './schedules.tables';

export async function seedSchedulesDemo(db: Db): Promise<{ mails: number }> {
  // Saved a month ago, so this week's summary is due at the first start.
  await db
    .update(mailSchedules)
    .set({ enabled: true, updated_at: new Date(now().getTime() - 30 * 86_400_000) })
    .where(and(isNull(mailSchedules.updated_by), eq(mailSchedules.enabled, false)));
  const [last] = await db
    .select({
      dealer_id: figurePeriods.dealer_id,
      year: figurePeriods.year,
      month: figurePeriods.month,
      code: dealers.code,
      name: dealers.name,
    })
    .from(figurePeriods)
    .innerJoin(dealers, eq(dealers.id, figurePeriods.dealer_id))
    .where(
      and(
        eq(figurePeriods.status, 'confirmed'),
        sql`exists (select 1 from dealer_contacts c where c.dealer_id = ${figurePeriods.dealer_id} and c.active and c.email is not null)`,
      ),
    )
    .orderBy(desc(figurePeriods.year), desc(figurePeriods.month), dealers.code)
    .limit(1);
  if (!last) return { mails: 0 };
  const ids = await db.transaction((tx) =>
    queueResumenOnConfirm(
      tx,
      { id: last.dealer_id, code: last.code, name: last.name },
      last.year,
      last.month,
    ),
  );
  return { mails: ids.length };
}
