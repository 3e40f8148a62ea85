import { formatCount, formatMeasure, formatRatio } from '@app/contracts';

/** A fraction 0..1 as a percentage ('45.5 %'); '—' when there is none. */
export const pct = (v: number | null | undefined): string => formatRatio(v);

/** An average with two decimals; '—' when there is none. */
export const avg = (v: number | null | undefined): string => formatMeasure(v, 2);

/** A count with thousands separators ('1,250'); '—' when there is none. */
export const count = (v: number | null | undefined): string => formatCount(v);
