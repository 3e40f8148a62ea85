// Fixed lists of SPEC §3 and constants of SPEC §9.
import { limaYearNow } from './clock';

export interface FixedItem<K extends string | number = string | number> {
  id: K;
  name: string;
}

export const WEEK_DAYS: FixedItem<number>[] = [
  { id: 1, name: 'Lunes' },
  { id: 2, name: 'Martes' },
  { id: 3, name: 'Miércoles' },
  { id: 4, name: 'Jueves' },
  { id: 5, name: 'Viernes' },
  { id: 6, name: 'Sábado' },
  { id: 7, name: 'Domingo' },
];

export const PAYMENT_METHODS: FixedItem<string>[] = [
  { id: 'E', name: 'Efectivo' },
  { id: 'T', name: 'Tarjeta' },
  { id: 'D', name: 'Depósito' },
  { id: 'G', name: 'Gratuito' },
];

export const DISCOUNT_TYPES: FixedItem<string>[] = [
  { id: 'percent', name: 'Porcentaje' },
  { id: 'amount', name: 'Monto' },
];

export const PAGE_SIZES = [5, 10, 20, 50] as const;

export const PRINTER_WIDTHS = [40, 48, 56, 64] as const;

export const ATTRIBUTE_GROUPS: FixedItem<string>[] = [
  { id: 'S', name: 'Simple' },
  { id: 'M', name: 'Multiple' },
  { id: 'C', name: 'Color' },
];

export const FIRST_YEAR = 2016;

/** FIRST_YEAR up to this year in Lima. */
export function years(last = limaYearNow()): number[] {
  const out: number[] = [];
  for (let y = FIRST_YEAR; y <= last; y++) out.push(y);
  return out;
}

export const MONTHS: FixedItem<number>[] = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
].map((name, i) => ({ id: i + 1, name }));

export const LICENSE_CATEGORIES: FixedItem<string>[] = [
  'A-I',
  'A-IIa',
  'A-IIb',
  'A-IIIa',
  'A-IIIb',
  'A-IIIc',
].map((c) => ({ id: c, name: c }));

/** SPEC §9 constants. */
export const LIMITS = {
  requestTimeoutMs: 3_000_000,
  chunkLoadTimeoutMs: 120_000,
  defaultPageSize: 10,
  menuSkeletonItems: 9,
  scrollTopThreshold: 300,
  dialogWidth: 700,
  confirmDialogWidth: 450,
  autocompleteMinLength: 2,
  passwordMinLength: 8,
  ratingLevels: 4,
  primaryColor: '#116F77',
} as const;
