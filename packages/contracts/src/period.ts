// The period of a report, grid or dashboard call, read the same way by every call and by the
// screens: year from FIRST_YEAR to this year in Lima (defaults to it), month 1..12 (0 or absent:
// the whole year), and the references a report narrows by. "Today" is Lima's, given by the caller
// (the server's clock, or the browser's reading of Lima's day), never the machine's time zone.
import { z } from 'zod';
import { FIRST_YEAR } from './fixed-lists';

export const MAX_ID = 2_147_483_647;

/** The single value of a query parameter (the last one when repeated); '' is absent. */
const single = (v: unknown) => {
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  return last === '' || last === null ? undefined : last;
};

/** An integer query parameter within bounds; anything else says '{label} no es válido'. */
export function intParam(label: string, min: number, max: number) {
  const invalid = `${label} no es válido`;
  return z.preprocess((v) => {
    const s = single(v);
    if (s === undefined || typeof s === 'number') return s;
    return typeof s === 'string' && /^-?\d+$/.test(s.trim()) ? Number(s) : Number.NaN;
  }, z.number({ error: invalid }).int(invalid).min(min, invalid).max(max, invalid).optional());
}

/** An optional reference (an id); 0 means none. */
export const refParam = (label: string) => intParam(label, 0, MAX_ID).transform((v) => (v ? v : null));

export interface PeriodRules {
  /** The month must be given (or defaulted): 1..12, never the whole year. */
  monthRequired?: boolean;
  /** Without a month, this month in Lima (of the year asked for). */
  defaultMonth?: 'current';
  /** The last year asked for: this year (reports), or next year too (targets planned ahead). */
  lastYear?: 'this' | 'next';
}

/** Year and month of a call, from Lima's `today` (YYYY-MM-DD). */
export function periodSchema(today: string, rules: PeriodRules = {}) {
  const thisYear = Number(today.slice(0, 4));
  const thisMonth = Number(today.slice(5, 7));
  const lastYear = rules.lastYear === 'next' ? thisYear + 1 : thisYear;
  return z
    .object({
      year: intParam('Año', FIRST_YEAR, lastYear),
      month: intParam('Mes', rules.monthRequired && rules.defaultMonth !== 'current' ? 1 : 0, 12),
    })
    .transform((q, ctx) => {
      const year = q.year ?? thisYear;
      let month = q.month || null;
      if (!month && rules.defaultMonth === 'current') month = thisMonth;
      if (rules.monthRequired && !month) {
        ctx.addIssue({ code: 'custom', path: ['month'], message: 'Mes es obligatorio' });
        return z.NEVER;
      }
      return { year, month };
    });
}

export type Period = z.output<ReturnType<typeof periodSchema>>;
