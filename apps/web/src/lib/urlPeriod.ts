// The period a screen opens on when its address names one (?year=2026&month=10), as the
// dashboard's links do, so the numbers behind a widget are those of the same period. Screens take
// these as the initial values of their own selectors, which rule afterwards.
import { useSearchParams } from 'react-router';

export interface Period {
  year: number;
  month: number;
}

/** The address's year and month when valid (years from 2016, months 1-12), else `fallback`'s. */
export function useUrlPeriod(fallback: Period): Period {
  const [sp] = useSearchParams();
  const year = Number(sp.get('year'));
  const month = Number(sp.get('month'));
  return {
    year: Number.isInteger(year) && year >= 2016 && year <= 2100 ? year : fallback.year,
    month: Number.isInteger(month) && month >= 1 && month <= 12 ? month : fallback.month,
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A date range the address names (?from=2026-01-01&to=2026-11-25); '' when absent. */
export function useUrlDateRange(): { from: string; to: string } {
  const [sp] = useSearchParams();
  const date = (k: string) => {
    const v = sp.get(k) ?? '';
    return ISO_DATE.test(v) ? v : '';
  };
  return { from: date('from'), to: date('to') };
}
