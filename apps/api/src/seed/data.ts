// The fixed rows the seed writes: general types and their values (SPEC §3 fixed lists),
// brands and countries (the settings are the preferences module's declared-settings.ts). Natural
// keys (code, key) make the seed idempotent.
import {
  ATTRIBUTE_GROUPS,
  DISCOUNT_TYPES,
  DOCUMENT_TYPES,
  LICENSE_CATEGORIES,
  MONTHS,
  PAGE_SIZES,
  PAYMENT_METHODS,
  PRINTER_WIDTHS,
  SURVEY_STATUSES,
  WEEK_DAYS,
  years,
} from '@app/contracts';
import { limaYear } from '../core/lima';

export interface SeedTypeValue {
  code: string;
  name: string;
  payload?: Record<string, unknown>;
}

export interface SeedGeneralType {
  code: string;
  name: string;
  values: SeedTypeValue[];
}

/** Brands V, N, S, A (SPEC §3 "Manufacturers"). Names chosen in docs/decisions.md. */
export const MANUFACTURERS = [
  { code: 'V', name: 'Volkswagen', color: '#001E50' },
  { code: 'N', name: 'Nissan', color: '#C3002F' },
  { code: 'S', name: 'Suzuki', color: '#1F4E9E' },
  { code: 'A', name: 'Audi', color: '#BB0A30' },
] as const;

const fromItems = (items: readonly { id: string | number; name: string }[]): SeedTypeValue[] =>
  items.map((i) => ({
    code: String(i.id),
    name: i.name,
    ...(typeof i.id === 'number' ? { payload: { value: i.id } } : {}),
  }));

const fromNumbers = (items: readonly number[]): SeedTypeValue[] =>
  items.map((n) => ({ code: String(n), name: String(n), payload: { value: n } }));

/** Every fixed list of SPEC §3 as a general type. Years grow by one each new year. */
export function generalTypes(lastYear = limaYear()): SeedGeneralType[] {
  return [
    { code: 'WEEK_DAYS', name: 'Días de la semana', values: fromItems(WEEK_DAYS) },
    { code: 'PAYMENT_METHODS', name: 'Formas de pago', values: fromItems(PAYMENT_METHODS) },
    { code: 'DISCOUNT_TYPES', name: 'Tipos de descuento', values: fromItems(DISCOUNT_TYPES) },
    { code: 'ITEMS_PER_PAGE', name: 'Registros por página', values: fromNumbers(PAGE_SIZES) },
    { code: 'PRINTER_WIDTHS', name: 'Ancho de impresora', values: fromNumbers(PRINTER_WIDTHS) },
    { code: 'ATTRIBUTE_GROUPS', name: 'Grupos de atributos', values: fromItems(ATTRIBUTE_GROUPS) },
    { code: 'YEARS', name: 'Años', values: fromNumbers(years(lastYear)) },
    { code: 'MONTHS', name: 'Meses', values: fromItems(MONTHS) },
    { code: 'LICENSE_CATEGORIES', name: 'Categorías de licencia', values: fromItems(LICENSE_CATEGORIES) },
    {
      code: 'MANUFACTURERS',
      name: 'Marcas',
      values: MANUFACTURERS.map((m) => ({ code: m.code, name: m.name })),
    },
    { code: 'DOCUMENT_TYPES', name: 'Tipos de documento', values: fromItems(DOCUMENT_TYPES) },
    { code: 'SURVEY_STATUSES', name: 'Estados de encuesta', values: fromItems(SURVEY_STATUSES) },
  ];
}

/** Peru, its neighbours and the main origins of vehicles sold in Peru (ISO 3166-1 alpha-2). */
export const COUNTRIES: { code: string; name: string }[] = [
  { code: 'PE', name: 'Perú' },
  { code: 'EC', name: 'Ecuador' },
  { code: 'CO', name: 'Colombia' },
  { code: 'BR', name: 'Brasil' },
  { code: 'BO', name: 'Bolivia' },
  { code: 'CL', name: 'Chile' },
  { code: 'AR', name: 'Argentina' },
  { code: 'UY', name: 'Uruguay' },
  { code: 'PY', name: 'Paraguay' },
  { code: 'VE', name: 'Venezuela' },
  { code: 'PA', name: 'Panamá' },
  { code: 'CR', name: 'Costa Rica' },
  { code: 'MX', name: 'México' },
  { code: 'US', name: 'Estados Unidos' },
  { code: 'CA', name: 'Canadá' },
  { code: 'JP', name: 'Japón' },
  { code: 'KR', name: 'Corea del Sur' },
  { code: 'CN', name: 'China' },
  { code: 'IN', name: 'India' },
  { code: 'TH', name: 'Tailandia' },
  { code: 'ID', name: 'Indonesia' },
  { code: 'MY', name: 'Malasia' },
  { code: 'VN', name: 'Vietnam' },
  { code: 'TR', name: 'Turquía' },
  { code: 'DE', name: 'Alemania' },
  { code: 'ES', name: 'España' },
  { code: 'FR', name: 'Francia' },
  { code: 'IT', name: 'Italia' },
  { code: 'GB', name: 'Reino Unido' },
  { code: 'SE', name: 'Suecia' },
  { code: 'CZ', name: 'República Checa' },
  { code: 'SK', name: 'Eslovaquia' },
  { code: 'PL', name: 'Polonia' },
  { code: 'HU', name: 'Hungría' },
  { code: 'PT', name: 'Portugal' },
  { code: 'BE', name: 'Bélgica' },
  { code: 'ZA', name: 'Sudáfrica' },
];

/** Key of the generated token-signing secret in `server_secrets` (used when JWT_SECRET is not set). */
export const JWT_SECRET_KEY = 'jwt_secret';

/** Configuration key holding the hash of the last base seed applied (a restart with the same seed skips it). */
export const SEED_FINGERPRINT_KEY = 'seed_fingerprint';
