// Small request helpers: body validation with Spanish messages, ids, query params.
import { z } from 'zod';
import { NotFoundError, ValidationError } from './errors';

// A rule a schema gives no message of its own (a wrong type inside a record, a query bound) is
// told in Spanish too, by zod's maintained Spanish messages, never in zod's default English.
z.config(z.locales.es());

/** Validates a body with a zod schema; failures → 422 with one message per field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (schema.safeParse({}).success) return schema.parse({}) as z.output<S>;
    throw new ValidationError([
      { field: '', message: 'Se esperaba un objeto JSON en el cuerpo de la solicitud' },
    ]);
  }
  const res = schema.safeParse(body);
  if (res.success) return res.data;
  throw zodToValidationError(res.error);
}

export function zodToValidationError(error: z.ZodError): ValidationError {
  const seen = new Set<string>();
  const items: { field: string; message: string }[] = [];
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    items.push({ field, message: issue.message });
  }
  return new ValidationError(items);
}

/** A positive integer id from a route param; anything else is a 404 (no such record). */
export function parseId(raw: unknown): number {
  const s = String(raw ?? '');
  if (!/^\d{1,10}$/.test(s) || Number(s) <= 0 || Number(s) > 2147483647) {
    throw new NotFoundError();
  }
  return Number(s);
}

export type QueryParams = Record<string, string | string[] | undefined>;

/** The single string value of a query param (the last one when repeated). */
export function qs(query: QueryParams, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) return v[v.length - 1];
  return v === undefined || v === '' ? undefined : v;
}

export function qInt(
  query: QueryParams,
  name: string,
  label: string,
  min: number,
  max: number,
): number | undefined {
  const v = qs(query, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw ValidationError.field(name, `${label} no es válido`);
  }
  return Number(v);
}
