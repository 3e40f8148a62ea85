// The server's one clock. Every business "today" and "now" (periods, defaults, ages, what has
// begun) is Lima's day (UTC-5, no daylight saving) read from here, in TypeScript and in SQL: the
// database's own current_date is UTC's day, five hours ahead of Lima from 19:00 on. Tests and the
// browser suite pin it (pinClock, FAKE_NOW) instead of waiting for an hour of the day.
import { clockNow, setClockOffset } from '@app/contracts';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

const LIMA_OFFSET_MS = 5 * 3_600_000;

/**
 * Pins the clock at an instant (ISO with offset, or epoch ms); it goes on ticking from there.
 * `undefined` gives back the machine's time. For tests and FAKE_NOW only.
 */
export function pinClock(at: string | number | Date | undefined): void {
  if (at === undefined) {
    setClockOffset(0);
    return;
  }
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms)) throw new Error(`Fecha y hora no válida para el reloj: ${String(at)}`);
  setClockOffset(ms - Date.now());
}

/** The current instant, in epoch ms (the contracts' clock: the zod rules read the same one). */
export const nowMs = clockNow;

/** The current instant. */
export const now = () => new Date(nowMs());

/** Lima's wall clock, as a Date whose UTC fields read Lima's date and time. */
export const limaWallClock = (at = nowMs()) => new Date(at - LIMA_OFFSET_MS);

/** Today in Lima, YYYY-MM-DD. */
export const limaToday = (at = nowMs()) => limaWallClock(at).toISOString().slice(0, 10);

/** This year in Lima. */
export const limaYear = (at = nowMs()) => limaWallClock(at).getUTCFullYear();

/** This month in Lima, 1..12. */
export const limaMonth = (at = nowMs()) => limaWallClock(at).getUTCMonth() + 1;

/** The last instant of a Lima day (YYYY-MM-DD). */
export const limaEndOfDay = (date: string) => new Date(`${date}T23:59:59.999-05:00`);

/** Lima's today as a SQL date parameter (instead of current_date, which is UTC's day). */
export const sqlToday = (): SQL<string> => sql<string>`${limaToday()}::date`;

/**
 * Lima's today, read each time a statement is built from a declaration made once (a resource's
 * display field). A resource that holds one is `clockDependent`: never prepared, since a
 * prepared statement would keep the day it was prepared on.
 */
export const lazyToday: SQLWrapper = { getSQL: () => sqlToday() };
