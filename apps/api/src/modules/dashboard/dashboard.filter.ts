// The dashboard's filters (query string: year, month, dealer_id, manufacturer_id) and the period
// they mean: the month or the year, to date when it is under way, and the same days a year before.
import type { DashboardFilter, DashboardPeriod } from '@app/contracts';
import { daysInMonth, REPORT_QUERIES } from '@app/contracts';
import type { z } from 'zod';
import type { Executor } from '../../core/action';
import { limaToday } from '../../core/lima';
import { monthEnd, monthStart, readBrand } from '../dispatches/dispatches.lookups';

const pad = (n: number) => String(n).padStart(2, '0');

/** The same day a year before (29 February → 28). */
export function yearBefore(date: string): string {
  const y = Number(date.slice(0, 4)) - 1;
  const m = Number(date.slice(5, 7));
  const d = Math.min(Number(date.slice(8, 10)), daysInMonth(y, m));
  return `${y}-${pad(m)}-${pad(d)}`;
}

export interface DashboardQuery {
  filter: DashboardFilter;
  period: DashboardPeriod;
  today: string;
}

/** The dashboard's query (a dealer user's dealer_id is its own: the engine holds it, SPEC §6). */
export const dashboardQuery = REPORT_QUERIES.dashboard;

export type DashboardQueryIn = z.output<typeof dashboardQuery>;

export async function readDashboardQuery(db: Executor, query: DashboardQueryIn): Promise<DashboardQuery> {
  const today = limaToday();
  const thisYear = Number(today.slice(0, 4));
  const { year, month, dealer_id: dealerId } = query;
  const brand = await readBrand(db, query.manufacturer_id, 'manufacturer_id');
  const manufacturerId = brand?.id ?? null;
  const from = monthStart(year, month ?? 1);
  const end = monthEnd(year, month ?? 12);
  // A period under way counts to today; one still to come is empty (to before from).
  const to = end < today ? end : today;
  const currentMonth = Number(today.slice(5, 7));
  const figuresMonth = month ?? (year < thisYear ? 12 : Math.max(1, currentMonth - 1));
  return {
    filter: { year, month, dealer_id: dealerId ?? null, manufacturer_id: manufacturerId },
    period: { from, to, prev_from: yearBefore(from), prev_to: yearBefore(to), figures_month: figuresMonth },
    today,
  };
}
