// Lima's clock (UTC-5, no daylight saving): the business day of every date the server computes.
const LIMA_OFFSET_MS = 5 * 3_600_000;

/** Lima's wall clock, as a Date whose UTC fields read Lima's date and time. */
export const limaWallClock = (now = Date.now()) => new Date(now - LIMA_OFFSET_MS);

/** Today in Lima, YYYY-MM-DD. */
export const limaToday = (now = Date.now()) => limaWallClock(now).toISOString().slice(0, 10);

/** The last instant of a Lima day (YYYY-MM-DD). */
export const limaEndOfDay = (date: string) => new Date(`${date}T23:59:59.999-05:00`);
