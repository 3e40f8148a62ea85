// Input masks: percent (%), price (currency sign, 2 decimals) and phone.

/** Keeps digits and one decimal point (and a leading minus when allowed). */
export function numericText(raw: string, allowNegative = false): string {
  let s = raw.replace(allowNegative ? /[^\d.-]/g : /[^\d.]/g, '');
  if (allowNegative) s = s.replace(/(?!^)-/g, '');
  const dot = s.indexOf('.');
  if (dot >= 0) s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
  return s;
}

/** A price with 2 decimals (SPEC §9). */
export function formatPrice(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n.toFixed(2) : '';
}

/** Read-only labels show numbers with 2 decimals (SPEC §2). */
export function formatLabel(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number')
    return value.toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return String(value);
}

/**
 * Phone mask: a 9-digit mobile shows as 999 999 999; a Lima landline (01 + 7 digits) as
 * (01) 999-9999; a leading + keeps the country code. At most 15 digits (E.164).
 */
export function maskPhone(raw: string): string {
  const plus = raw.trim().startsWith('+');
  const d = raw.replace(/\D/g, '').slice(0, 15);
  if (plus) {
    const cc = d.slice(0, 2);
    const rest = d.slice(2);
    return `+${cc}${rest ? ` ${maskPhone(rest)}` : ''}`;
  }
  if (d.startsWith('0') && d.length > 2) {
    const area = d.slice(0, 2);
    const n = d.slice(2, 9);
    return `(${area}) ${n.length > 3 ? `${n.slice(0, 3)}-${n.slice(3)}` : n}`;
  }
  if (d.length <= 9) return d.replace(/(\d{3})(?=\d)/g, '$1 ').trim();
  return d;
}
