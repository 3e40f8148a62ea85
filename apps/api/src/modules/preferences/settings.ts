// Key/value settings of the `configurations` table (edited on /preferences), read fresh on
// each call so a change on screen takes effect without a restart.
import { eq } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { configurations } from '../../db/schema';

export async function readSetting(db: Executor, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ value: configurations.value })
    .from(configurations)
    .where(eq(configurations.key, key));
  const value = row?.value?.trim();
  return value ? value : undefined;
}

/** A positive integer setting, or the fallback when unset or not a positive integer. */
export async function readIntSetting(db: Executor, key: string, fallback: number): Promise<number> {
  const raw = await readSetting(db, key);
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
