// The period and references of a report, grid or dashboard query, parsed once by the contracts'
// schema with Lima's today (core/lima): the same bounds, defaults and Spanish messages on every
// call. No module reads `year` or `month` from a query by hand.
import { intParam, type Period, type PeriodRules, periodSchema, refParam } from '@app/contracts';
import type { z } from 'zod';
import { ValidationError } from './errors';
import { type QueryParams, zodToValidationError } from './http';
import { limaToday } from './lima';

export interface QueryPeriod extends Period {
  /** Lima's today the defaults came from. */
  today: string;
}

/** Parses a query (or one parameter, named `field`); 422 naming the field otherwise. */
function parse<S extends z.ZodType>(schema: S, value: unknown, field?: string): z.output<S> {
  const res = schema.safeParse(value);
  if (res.success) return res.data;
  if (field) throw ValidationError.field(field, res.error.issues[0]?.message ?? `${field} no es válido`);
  throw zodToValidationError(res.error);
}

/** year (default this year in Lima) and month of a query; 422 naming the field otherwise. */
export function readPeriod(query: QueryParams, rules: PeriodRules = {}): QueryPeriod {
  const today = limaToday();
  return { ...parse(periodSchema(today, rules), query), today };
}

/** An optional id of a query under its first given name (e.g. dealer_id or dealer); 0 is none. */
export function readRef(query: QueryParams, names: string[], label: string): number | null {
  for (const name of names) {
    if (query[name] === undefined || query[name] === '') continue;
    return parse(refParam(label), query[name], name) ?? null;
  }
  return null;
}

/** An optional integer of a query within bounds (e.g. month_from). */
export function readInt(query: QueryParams, name: string, label: string, min: number, max: number) {
  const v = parse(intParam(label, min, max), query[name], name);
  return v === undefined ? undefined : v;
}
