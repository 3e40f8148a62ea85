/** A fraction 0..1 as a Spanish percentage ('45,5 %'); '—' when there is none. */
export function pct(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return `${(v * 100).toLocaleString('es-PE', { maximumFractionDigits: 1 })} %`;
}

/** An average with two decimals; '—' when there is none. */
export function avg(v: number | null | undefined): string {
  if (v === null || v === undefined) return '—';
  return v.toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
