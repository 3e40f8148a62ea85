// Key/value settings of the `configurations` table (edited on /preferences), read fresh on
// each call so a change on screen takes effect without a restart.
import type { DatabaseHandle } from '../db/client';

export async function readSetting(handle: DatabaseHandle, key: string): Promise<string | undefined> {
  const rows = await handle.query<{ value: string | null }>(
    'select value from configurations where key = $1',
    [key],
  );
  const value = rows[0]?.value?.trim();
  return value ? value : undefined;
}

/** A positive integer setting, or the fallback when unset or not a positive integer. */
export async function readIntSetting(handle: DatabaseHandle, key: string, fallback: number): Promise<number> {
  const raw = await readSetting(handle, key);
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
