// The query string of a report, grid or action, declared once with zod and read the same way by
// the server's engine (defineAction parses it, applies the defaults and the dealer scope) and by
// the screens (they build their queries from the same schemas). "Today" is the contracts' clock:
// Lima's day, pinned by the server in tests. Each parameter names itself in its 422 message.

import { limaDate } from './clock';
import { FIRST_YEAR } from './fixed-lists';
import { intParam, refParam } from './period';
import { z } from './zod';

/** The labels a query's 422 messages and a report's headers use (one spelling everywhere). */
export const QUERY_LABELS = {
  dealer: 'Concesionario',
  brand: 'Marca',
  zone: 'Zona',
  year: 'Año',
  month: 'Mes',
  asOf: 'Fecha de corte',
} as const;

/** The key a query names its dealer by: the engine imposes a dealer user's own dealer there. */
export const DEALER_QUERY_KEY = 'dealer_id';

const single = (v: unknown) => {
  const last = Array.isArray(v) ? v[v.length - 1] : v;
  return last === '' || last === null ? undefined : last;
};

const thisYear = () => Number(limaDate().slice(0, 4));
const thisMonth = () => Number(limaDate().slice(5, 7));

/** ?year within FIRST_YEAR..this year in Lima (`next`: also next year, for targets planned ahead). */
function yearBase(lastYear: 'this' | 'next' = 'this') {
  const invalid = `${QUERY_LABELS.year} no es válido`;
  return intParam(QUERY_LABELS.year, FIRST_YEAR, 9999).superRefine((v, ctx) => {
    const last = thisYear() + (lastYear === 'next' ? 1 : 0);
    if (v !== undefined && v > last) ctx.addIssue({ code: 'custom', message: invalid });
  });
}

/** ?year (see yearBase); absent → this year in Lima. */
export const yearParam = (opts: { lastYear?: 'this' | 'next' } = {}) =>
  yearBase(opts.lastYear)
    .transform((v) => v ?? thisYear())
    .meta({ type: 'integer', description: `${FIRST_YEAR} al año actual en Lima; ausente: el año actual` });

/** ?year (see yearBase); absent stays absent (no year filter). */
export const optionalYearParam = (opts: { lastYear?: 'this' | 'next' } = {}) =>
  yearBase(opts.lastYear).meta({
    type: 'integer',
    description: `${FIRST_YEAR} al año actual en Lima; ausente: sin filtro de año`,
  });

/** ?month: 1..12; 0 or absent the whole year (null). */
export const monthParam = () =>
  intParam(QUERY_LABELS.month, 0, 12)
    .transform((v) => v || null)
    .meta({ type: 'integer', description: '1..12; 0 o ausente: todo el año' });

/** ?month that must be given: 1..12, 'Mes es obligatorio' when absent. */
export const requiredMonthParam = () =>
  intParam(QUERY_LABELS.month, 1, 12)
    .transform((v, ctx) => {
      if (v === undefined) {
        ctx.addIssue({ code: 'custom', message: `${QUERY_LABELS.month} es obligatorio` });
        return z.NEVER;
      }
      return v;
    })
    .meta({ type: 'integer', description: '1..12 (obligatorio)' });

/** ?month: 1..12; 0 or absent this month in Lima. */
export const currentMonthParam = () =>
  intParam(QUERY_LABELS.month, 0, 12)
    .transform((v) => v || thisMonth())
    .meta({ type: 'integer', description: '1..12; ausente: el mes actual en Lima' });

/** An optional id (0 or absent: none). */
export const idParam = (label: string, description?: string) =>
  refParam(label).meta({ type: 'integer', description: description ?? `${label} (id); 0 o ausente: todos` });

/**
 * ?dealer_id: the dealer a call is about; absent or 0 every dealer the caller sees. The engine
 * forces a dealer user's own dealer here (another dealer's id answers 404).
 */
export const dealerParam = () =>
  refParam(QUERY_LABELS.dealer).meta({
    type: 'integer',
    description: 'Concesionario (id); ausente o 0: todos (un usuario de concesionario: el suyo)',
  });

const DEALER_BODY_FIELDS = new WeakSet<z.ZodType>();

/**
 * Declares a body field as the dealer the call is about, so the engine holds a dealer user to its
 * own there, as it does a query's dealer_id: absent → its dealer, another dealer's id → 404
 * 'El concesionario no existe'. Returns the same schema (give each body its own instance).
 */
export function declareDealer<T extends z.ZodType>(schema: T): T {
  DEALER_BODY_FIELDS.add(schema);
  return schema;
}

/** A body's dealer: a JSON id, 0 or absent every dealer the caller sees (declared, see declareDealer). */
export const dealerBodyField = () =>
  declareDealer(
    z
      .number({ error: `${QUERY_LABELS.dealer} no es válido` })
      .int(`${QUERY_LABELS.dealer} no es válido`)
      .nonnegative(`${QUERY_LABELS.dealer} no es válido`)
      .optional(),
  );

/** An optional, nullable or defaulted schema's inner schema (a nested object of a body). */
function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 5; i++) {
    const def = (s as { _zod?: { def?: { type?: string; innerType?: z.ZodType } } })._zod?.def;
    if (!def?.innerType || !['optional', 'nullable', 'default'].includes(def.type ?? '')) return s;
    s = def.innerType;
  }
  return s;
}

/**
 * The path of a body schema's declared dealer (dealerBodyField / declareDealer), if it has one: a
 * field of the body (`['dealer']`) or of one of its objects (`['filters', 'dealer_id']`).
 */
export function bodyDealerPath(schema: z.ZodType): string[] | undefined {
  const shape = queryShape(schema);
  if (!shape) return undefined;
  const top = Object.keys(shape).find((k) => DEALER_BODY_FIELDS.has(shape[k]!));
  if (top) return [top];
  for (const [key, field] of Object.entries(shape)) {
    const inner = queryShape(unwrapped(field));
    const nested = inner && Object.keys(inner).find((k) => DEALER_BODY_FIELDS.has(inner[k]!));
    if (nested) return [key, nested];
  }
  return undefined;
}

/** ?manufacturer: a brand by id or code; empty or 0 every brand (the module looks it up). */
export const brandParam = () =>
  z
    .preprocess((v) => {
      const s = single(v);
      return s === undefined || s === 0 || s === '0' ? undefined : String(s).trim();
    }, z.string().max(60, `${QUERY_LABELS.brand} no es válido`).optional())
    .meta({ description: 'Marca (id o código); vacío o 0: todas' });

/** ?as_of: a date YYYY-MM-DD (a report's cut-off day). */
export const dateParam = (label: string = QUERY_LABELS.asOf) =>
  z
    .preprocess(
      single,
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, `${label}: formato de fecha YYYY-MM-DD`)
        .optional(),
    )
    .meta({ description: 'YYYY-MM-DD' });

/** ?months=1,2,3 (or months[]=1&months[]=2): sorted, unique; absent every month. */
export const monthsParam = () =>
  z
    .preprocess(
      (v) =>
        (Array.isArray(v) ? v : v === undefined ? [] : [v])
          .flatMap((x) => String(x).split(','))
          .map((x) => x.trim())
          .filter(Boolean)
          .map(Number),
      z.array(z.number()),
    )
    .superRefine((ms, ctx) => {
      if (ms.some((m) => !Number.isInteger(m) || m < 1 || m > 12))
        ctx.addIssue({ code: 'custom', message: 'Meses no es válido (números de 1 a 12)' });
    })
    .transform((ms) =>
      ms.length ? [...new Set(ms)].sort((a, b) => a - b) : Array.from({ length: 12 }, (_, i) => i + 1),
    )
    .meta({ type: 'string', description: '1,2,3 (o months[]=1&months[]=2); ausente: los doce meses' });

/** A free text parameter (a single value). */
export const textParam = (max = 200) =>
  z.preprocess(single, z.string().max(max, `Admite como máximo ${max} caracteres`).optional());

/**
 * A query schema: an object of parameters (unknown ones ignored). `aliases` maps an old name to
 * its parameter (e.g. `dealer` → `dealer_id`), read when the parameter itself is absent.
 */
export function defineQuery<T extends z.ZodRawShape>(
  shape: T,
  aliases: Record<string, keyof T & string> = {},
) {
  const object = z.object(shape);
  if (!Object.keys(aliases).length) return object;
  return z.preprocess((raw) => {
    if (!raw || typeof raw !== 'object') return raw;
    const q = { ...(raw as Record<string, unknown>) };
    for (const [alias, key] of Object.entries(aliases))
      if ((q[key] === undefined || q[key] === '') && q[alias] !== undefined) q[key] = q[alias];
    return q;
  }, object) as unknown as typeof object;
}

/** The declared parameters of a query schema (through its preprocess or transform). */
export function queryShape(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let s: unknown = schema;
  for (let i = 0; i < 5 && s; i++) {
    if (s instanceof z.ZodObject) return s.shape as Record<string, z.ZodType>;
    const def = (s as { _zod?: { def?: { type?: string; in?: unknown; out?: unknown } } })._zod?.def;
    if (def?.type !== 'pipe') return undefined;
    s = def.in instanceof z.ZodObject ? def.in : def.out;
  }
  return undefined;
}

/** The parameters a screen may send to a call of `schema`: the names its contract declares. */
export type QueryValues<S extends z.ZodType> = {
  [K in keyof NonNullable<ShapeOf<S>>]?: string | number | boolean | null | undefined | string[];
};
type ShapeOf<S> = S extends z.ZodObject<infer T> ? T : never;

/**
 * A screen's query for a call, checked against the call's contract schema: the parameters it
 * declares and only those (a misspelt or undeclared name does not compile).
 */
export const queryFor = <S extends z.ZodType, V extends QueryValues<S>>(
  _schema: S,
  values: V & Record<Exclude<keyof V, keyof NonNullable<ShapeOf<S>>>, never>,
): V => values;

// The queries of the reports and summaries, shared by the server (which parses them) and the
// screens (which build their queries from them).
const planYear = () => yearParam({ lastYear: 'next' });
const dispatchAliases = { dealer: 'dealer_id', manufacturer_id: 'manufacturer' } as const;

export const REPORT_QUERIES = {
  resumen: defineQuery({ year: yearParam(), month: currentMonthParam(), dealer_id: dealerParam() }),
  reportInfo: defineQuery(
    {
      year: yearParam(),
      month: monthParam(),
      month_from: intParam('Mes desde', 1, 12).meta({
        type: 'integer',
        description: '1..12 (por defecto 1)',
      }),
      month_to: intParam('Mes hasta', 1, 12).meta({ type: 'integer', description: '1..12 (por defecto 12)' }),
      dealer_id: dealerParam(),
      // The answer summarised: a row per dealer, or per month (the network's); absent, every
      // dealer's month (the .xlsx export always has those).
      view: z
        .preprocess(
          single,
          z.enum(['dealer', 'network'], { error: 'Vista debe ser dealer o network' }).optional(),
        )
        .meta({ type: 'string', description: 'dealer: una fila por concesionario; network: una por mes' }),
    },
    { dealer: 'dealer_id' },
  ),
  tableStats: defineQuery({
    year: yearParam(),
    month: monthParam(),
    manufacturer: brandParam(),
    dealer_id: dealerParam(),
  }),
  objectivesSummary: defineQuery(
    {
      year: planYear(),
      month: monthParam(),
      as_of: dateParam(),
      manufacturer: brandParam(),
      dealer_id: dealerParam(),
    },
    dispatchAliases,
  ),
  transactionSummary: defineQuery(
    { year: planYear(), months: monthsParam(), manufacturer: brandParam(), dealer_id: dealerParam() },
    dispatchAliases,
  ),
  dailySales: defineQuery(
    { year: planYear(), month: requiredMonthParam(), manufacturer: brandParam(), dealer_id: dealerParam() },
    dispatchAliases,
  ),
  agreementsSummary: defineQuery({
    dealer_id: dealerParam(),
    zone_id: idParam(QUERY_LABELS.zone),
    year: optionalYearParam({ lastYear: 'next' }),
    month: intParam(QUERY_LABELS.month, 1, 12).meta({ type: 'integer', description: '1..12' }),
  }),
  dashboard: defineQuery({
    year: yearParam(),
    month: monthParam(),
    dealer_id: dealerParam(),
    manufacturer_id: idParam(QUERY_LABELS.brand),
  }),
};
