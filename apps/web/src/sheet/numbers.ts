// Numbers of the grids in the es-PE way (1,234.50; the decimal point is a point in Peru), with
// the currency sign setting for amounts and % for percentages, and the reading of what a user
// types or pastes from Excel (thousands commas, the sign, spaces and % are ignored).
import { useSession } from '../auth/session';

export type NumberKind = 'number' | 'integer' | 'currency' | 'percent';

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

/** A value as the grid shows it; '' when empty. */
export function formatNumber(value: number | null | undefined, kind: NumberKind, currency = 'S/'): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  if (kind === 'integer') return formatter(0, 0).format(value);
  if (kind === 'currency') return `${currency} ${formatter(2, 2).format(value)}`;
  if (kind === 'percent') return `${formatter(0, 1).format(value)} %`;
  return formatter(0, 2).format(value);
}

/** A fraction (0.85) as a percentage ('85.0 %'); '—' when there is none. */
export function formatRatio(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${formatter(1, 1).format(value * 100)} %`;
}

/**
 * What a user typed or pasted, as a number: null for an empty cell, undefined when it is not a
 * number. '1,234.5', 'S/ 1,234.50', '85 %', ' 12 ' and '(12)' (Excel's negative) are read.
 */
export function parseNumber(text: string, currency = 'S/'): number | null | undefined {
  let t = text.replace(/\u00a0/g, ' ').trim();
  if (!t) return null;
  t = t.split(currency).join('').replace(/[%\s]/g, '');
  const negative = /^\(.*\)$/.test(t);
  t = t.replace(/^\((.*)\)$/, '$1').replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t)) return undefined;
  const n = Number(t);
  return negative ? -n : n;
}

/** The currency sign of the settings (SPEC §5: DEFAULT_CURRENCY_SIGN). */
export function useCurrencySign(): string {
  return useSession((s) => String(s.settings.DEFAULT_CURRENCY_SIGN ?? 'S/'));
}
