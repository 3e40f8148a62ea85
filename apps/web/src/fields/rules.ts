// Validation rules of SPEC §5 (messages from the shared catalogue), defaults for new records
// (SPEC §4) and the autocomplete search rule (SPEC §5).
import { LIMITS, limaDate, messages } from '@app/contracts';
import type { RegisterOptions } from 'react-hook-form';
import type { FieldDef, Option } from './types';
import { DISPLAY_TYPES } from './types';

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** The error message of one value against a field's rules, or true. */
export function validateValue(field: FieldDef, value: unknown): string | true {
  const label = field.label ?? field.name;
  if (field.required && isEmpty(value)) return messages.required(label);
  if (isEmpty(value)) return true;
  if (field.type === 'email' && !EMAIL_RE.test(String(value))) return messages.email;
  if (field.type === 'password' && String(value).length < LIMITS.passwordMinLength) return messages.password;
  if (field.type === 'date') {
    const s = String(value);
    if (s.length !== 10 || !DATE_RE.test(s)) return messages.date;
  }
  if (field.type === 'daterange') {
    const [a, b] = (value as string[]) ?? [];
    if (!a || !b) return messages.required(label);
    if (a.length !== 10 || b.length !== 10) return messages.date;
  }
  if (['number', 'percent', 'price', 'rating'].includes(field.type)) {
    const n = Number(value);
    if (Number.isNaN(n)) return `${label} no es válido`;
    if (field.min !== undefined && n < field.min) return messages.min(label, field.min);
    if (field.max !== undefined && n > field.max) return messages.max(label, field.max);
  }
  return true;
}

export function fieldRules(field: FieldDef): RegisterOptions {
  return { validate: (v: unknown) => validateValue(field, v) };
}

/** Today in Lima, YYYY-MM-DD (the server's business day), whatever the browser's time zone. */
export const today = (): string => limaDate();

/** A record without id (or id 0) is new (SPEC §3, §4). */
export const isNewRecord = (r: Record<string, unknown> | null | undefined) =>
  !r || !r.id || Number(r.id) === 0;

/**
 * The form values: the record's own values, plus defaults for the fields it lacks when the
 * record is new. A select default of 0 picks the first option, 'today' the current date.
 */
export function initialValues(
  fields: FieldDef[],
  record: Record<string, unknown> | null | undefined,
  optionsOf: (f: FieldDef) => Option[] = (f) => f.options ?? [],
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(record ?? {}) };
  const fresh = isNewRecord(record);
  for (const f of fields) {
    if (DISPLAY_TYPES.includes(f.type)) continue;
    if (fresh && f.default !== undefined && isEmpty(out[f.name])) {
      out[f.name] = resolveDefault(f, optionsOf(f));
    }
  }
  return out;
}

export function resolveDefault(f: FieldDef, options: Option[]): unknown {
  if (f.default === 'today') return f.type === 'daterange' ? [today(), today()] : today();
  if (['select', 'radio', 'buttongroup'].includes(f.type) && f.default === 0) {
    const first = options[0];
    return first ? first[f.optionValue ?? 'id'] : undefined;
  }
  return f.default;
}

export interface SearchRuleInput {
  text: string | null | undefined;
  minLength?: number;
  readOnly?: boolean;
  disabled?: boolean;
  options: Option[];
  optionLabel?: string;
}

/**
 * SPEC §5: an autocomplete searches only when the text reaches the minimum length (default 2),
 * the field is neither read-only nor disabled, and no existing option already matches the text
 * in upper case. Empty text or the text '0' never searches.
 */
export function shouldSearch({
  text,
  minLength = LIMITS.autocompleteMinLength,
  readOnly,
  disabled,
  options,
  optionLabel = 'name',
}: SearchRuleInput): boolean {
  if (text === null || text === undefined) return false;
  if (text === '' || text === '0') return false;
  if (text.length < minLength) return false;
  if (readOnly || disabled) return false;
  const upper = text.toUpperCase();
  return !options.some((o) => String(o[optionLabel] ?? '').toUpperCase() === upper);
}
