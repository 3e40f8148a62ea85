// The business clock both sides read: Lima's day (UTC-5, no daylight saving), whatever the time
// zone of the machine or the browser. The server pins it in tests (apps/api core/lima pinClock);
// the zod rules that speak of "today" (a sale not in the future) read it from here too.
const LIMA_OFFSET_MS = 5 * 3_600_000;

let offsetMs = 0;

/** The clock's instant, in epoch ms (the machine's time unless pinned). */
export const clockNow = () => Date.now() + offsetMs;

/** Moves the clock `ms` away from the machine's time (0: back to it). Tests only. */
export function setClockOffset(ms: number): void {
  offsetMs = ms;
}

/** Lima's date (YYYY-MM-DD) at an instant. */
export const limaDateOf = (ms: number) => new Date(ms - LIMA_OFFSET_MS).toISOString().slice(0, 10);

/** Today in Lima, YYYY-MM-DD. */
export const limaDate = () => limaDateOf(clockNow());

/** This year in Lima. */
export const limaYearNow = () => Number(limaDate().slice(0, 4));
