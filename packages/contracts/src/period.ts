// The integer and reference parameters of a query string, on which contracts/query builds the
// period (year, month), dealer, brand and zone parameters of every report, grid and action.
import { z } from './zod';

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
