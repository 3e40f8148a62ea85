// How numbers read, the same in every grid, list, report, chart, mail and export: Peru writes
// 1,234.50 (a decimal point and thousands commas), money with the currency sign of the settings
// ('S/ 1,234.50', always two decimals), a percentage with one decimal and a space ('85.0 %'),
// a count without decimals ('1,250'). The .xlsx number formats below give Excel the same look.

/** integer: a count; number: a measure (hours, days); currency: money; percent: a value 0–100. */
export type NumberKind = 'integer' | 'number' | 'currency' | 'percent';

/** The currency sign when the settings have none (SPEC §5: DEFAULT_CURRENCY_SIGN). */
export const DEFAULT_CURRENCY = 'S/';

/** What an empty value reads as in a report or a list (a grid cell stays blank). */
export const NO_VALUE = '—';

const formats = new Map<string, Intl.NumberFormat>();
function formatter(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('es-PE', { minimumFractionDigits: min, maximumFractionDigits: max });
    formats.set(key, f);
  }
  return f;
}

const present = (v: number | null | undefined): v is number =>
  v !== null && v !== undefined && Number.isFinite(v);

/** The default decimals of a kind: 0 for a count, 2 for money, 1 for a percentage, up to 2 else. */
export const KIND_DECIMALS: Record<NumberKind, number> = { integer: 0, number: 2, currency: 2, percent: 1 };

/**
 * A value as every screen shows it; '' when empty. `decimals` fixes the decimals of a measure
 * (a concept's own); without it a measure shows up to two ('3.2', '1,171.15').
 */
export function formatNumber(
  value: number | null | undefined,
  kind: NumberKind,
  currency: string = DEFAULT_CURRENCY,
  decimals?: number,
): string {
  if (!present(value)) return '';
  const negative = value < 0 && Math.abs(value) >= 0.5 * 10 ** -(decimals ?? KIND_DECIMALS[kind]);
  const abs = Math.abs(value);
  let text: string;
  if (kind === 'integer') text = formatter(decimals ?? 0, decimals ?? 0).format(abs);
  else if (kind === 'currency') text = `${currency} ${formatter(2, 2).format(abs)}`;
  else if (kind === 'percent') text = `${formatter(decimals ?? 1, decimals ?? 1).format(abs)} %`;
  else text = formatter(decimals ?? 0, decimals ?? 2).format(abs);
  return negative ? `-${text}` : text;
}

/** Money: 'S/ 2,355,699.70'; '—' when empty. */
export const formatMoney = (v: number | null | undefined, currency: string = DEFAULT_CURRENCY) =>
  present(v) ? formatNumber(v, 'currency', currency) : NO_VALUE;

/** A count: '1,250'; '—' when empty. */
export const formatCount = (v: number | null | undefined) =>
  present(v) ? formatNumber(v, 'integer') : NO_VALUE;

/** A percentage given 0–100 (85.3): '85.3 %'; '—' when empty. */
export const formatPercent = (v: number | null | undefined) =>
  present(v) ? formatNumber(v, 'percent') : NO_VALUE;

/** A fraction (0.853) as a percentage: '85.3 %'; '—' when empty. */
export const formatRatio = (v: number | null | undefined) =>
  present(v) ? formatNumber(v * 100, 'percent') : NO_VALUE;

/** A measure (hours, days, an average): up to `decimals` (default 2); '—' when empty. */
export const formatMeasure = (v: number | null | undefined, decimals?: number) =>
  present(v) ? formatNumber(v, 'number', DEFAULT_CURRENCY, decimals) : NO_VALUE;

/** A change with its sign; one that rounds to zero (0.0) has none ('0.0 pp', not '+0.0 pp'). */
const signed = (delta: number, text: string) =>
  Math.round(Math.abs(delta) * 10) === 0 ? text : `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${text}`;

/**
 * A change between two percentages, in percentage points: '+2.3 pp', '−1.0 pp' (a ratio that went
 * from 40 % to 42.3 % rose 2.3 points, not 5.8 %); '—' when empty.
 */
export const formatPointChange = (delta: number | null | undefined) =>
  present(delta) ? signed(delta, `${formatter(1, 1).format(Math.abs(delta))} pp`) : NO_VALUE;

/** A relative change of a count or an amount, in per cent: '+12.5 %'; '—' when empty. */
export const formatRelativeChange = (delta: number | null | undefined) =>
  present(delta) ? signed(delta, `${formatter(1, 1).format(Math.abs(delta))} %`) : NO_VALUE;

/**
 * What a user typed or pasted, as a number: null for an empty cell, undefined when it is not a
 * number. '1,234.5', 'S/ 1,234.50', '85 %', ' 12 ' and '(12)' (Excel's negative) are read.
 */
export function parseNumber(text: string, currency: string = DEFAULT_CURRENCY): number | null | undefined {
  let t = text.replace(/\u00a0/g, ' ').trim();
  if (!t) return null;
  t = t.split(currency).join('').replace(/[%\s]/g, '');
  const negative = /^\(.*\)$/.test(t);
  t = t.replace(/^\((.*)\)$/, '$1').replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  return negative ? -n : n;
}

/**
 * The .xlsx number format of a kind, so a file reads like the screen: '#,##0' for a count,
 * '"S/ "#,##0.00' for money, '0.0 %' for a percentage (the cell holds the fraction), '#,##0.00'
 * (or the given decimals) for a measure.
 */
export function excelFormat(
  kind: NumberKind,
  currency: string = DEFAULT_CURRENCY,
  decimals?: number,
): string {
  const places = (n: number) => (n > 0 ? `#,##0.${'0'.repeat(n)}` : '#,##0');
  if (kind === 'integer') return places(decimals ?? 0);
  if (kind === 'currency') return `"${currency.replace(/"/g, '')} "#,##0.00`;
  if (kind === 'percent') return `0.${'0'.repeat(decimals ?? 1)} %`.replace('0. %', '0 %');
  return places(decimals ?? 2);
}

/** The .xlsx format of a percentage stored as 0–100 (a '%' concept's 85.3): '85.3 %'. */
export const EXCEL_PERCENT_POINTS = '0.0" %"';

const LIMA_OFFSET_MS = 5 * 3_600_000;

/**
 * A date as Peru writes it: '2026-11-29' reads 29/11/2026; an instant (an ISO time with its
 * offset) reads in Lima's wall clock, 29/11/2026 14:05 (`seconds`: 14:05:09); '—' when empty, and
 * anything else as it is.
 */
export function formatDay(value: unknown, seconds = false): string {
  if (value === null || value === undefined || value === '') return NO_VALUE;
  const text = String(value);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (day) return `${day[3]}/${day[2]}/${day[1]}`;
  const at = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(at)) return text;
  const w = new Date(at - LIMA_OFFSET_MS).toISOString();
  return `${w.slice(8, 10)}/${w.slice(5, 7)}/${w.slice(0, 4)} ${w.slice(11, seconds ? 19 : 16)}`;
}
