// Field builders for the resource schemas: every rule carries the Spanish message of SPEC §5
// with the field's label, so the server's validationErrors and the client's form agree.

import { messages } from '../messages';
import type { PermissionAction } from '../permission-actions';
import { z } from '../zod';

export type Labels = Record<string, string>;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const emptyToNull = (v: unknown) => (v === '' ? null : v);
const zeroToNull = (v: unknown) => (v === 0 || v === '' || v === '0' ? null : v);

/** The message for a missing value or a value of the wrong type. */
export const typeError = (label: string) => (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === ''
    ? messages.required(label)
    : `${label} no es válido`;

const tooLong = (label: string, max: number) => `${label} admite como máximo ${max} caracteres`;

export const field = {
  /** Required text. */
  text: (label: string, max: number) =>
    z
      .string({ error: typeError(label) })
      .trim()
      .min(1, messages.required(label))
      .max(max, tooLong(label, max)),
  /** Optional text; '' is stored as null. */
  optText: (label: string, max: number) =>
    z
      .preprocess(
        emptyToNull,
        z
          .string({ error: typeError(label) })
          .trim()
          .max(max, tooLong(label, max))
          .nullable(),
      )
      .optional(),
  email: (label: string) =>
    z
      .string({ error: typeError(label) })
      .trim()
      .min(1, messages.required(label))
      .max(150, tooLong(label, 150))
      .regex(EMAIL_RE, messages.email),
  optEmail: (label: string) =>
    z
      .preprocess(
        emptyToNull,
        z
          .string({ error: typeError(label) })
          .trim()
          .max(150, tooLong(label, 150))
          .regex(EMAIL_RE, messages.email)
          .nullable(),
      )
      .optional(),
  /** Required reference to another record (an id > 0). */
  ref: (label: string) =>
    z
      .number({ error: typeError(label) })
      .int(`${label} no es válido`)
      .positive(messages.required(label)),
  /** Optional reference; 0 and '' mean none. */
  optRef: (label: string) =>
    z
      .preprocess(
        zeroToNull,
        z
          .number({ error: typeError(label) })
          .int(`${label} no es válido`)
          .positive(`${label} no es válido`)
          .nullable(),
      )
      .optional(),
  int: (label: string, min = 0, max = 1_000_000_000) =>
    z
      .number({ error: typeError(label) })
      .int(`${label} no es válido`)
      .min(min, messages.min(label, min))
      .max(max, messages.max(label, max)),
  optNumber: (label: string, min = -1e12, max = 1e12) =>
    z
      .number({ error: typeError(label) })
      .min(min, messages.min(label, min))
      .max(max, messages.max(label, max))
      .nullable()
      .optional(),
  bool: (label: string) => z.boolean({ error: typeError(label) }).optional(),
  password: (label: string) =>
    z
      .string({ error: typeError(label) })
      .min(8, messages.password)
      .max(200, tooLong(label, 200)),
  /** Required one of a fixed list: empty ('', null, absent) says '{label} es obligatorio'. */
  choice: <T extends string>(
    label: string,
    values: readonly [T, ...T[]],
    invalid = `${label} no es válido`,
  ) =>
    z.enum(values, {
      error: (iss) =>
        iss.input === undefined || iss.input === null || iss.input === ''
          ? messages.required(label)
          : invalid,
    }),
  /** Required date 'YYYY-MM-DD': empty says '{label} es obligatorio', else the format's message. */
  date: (label: string) =>
    z
      .string({ error: typeError(label) })
      .min(1, { error: messages.required(label), abort: true })
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: messages.date, abort: true }),
  oneOf: <T extends string>(label: string, values: readonly [T, ...T[]]) =>
    z.preprocess(emptyToNull, z.enum(values, { error: typeError(label) }).nullable()).optional(),
};

/**
 * SPEC §9's default page size, for every list whose size it does not name (users 10, roles 50,
 * general types 15, ubigeo, type values and configurations 10 are declared on their contracts).
 */
export const DEFAULT_PAGE_SIZE = 10;

/** Labels every record shares. */
export const commonLabels = {
  id: 'Id',
  active: 'Habilitado',
  created_at: 'Creado',
  updated_at: 'Actualizado',
} as const;

/** An item of a fixed list (SPEC §3): the stored id and the Spanish name a select shows. */
export interface FixedOption {
  id: string | number;
  name: string;
}

/** The form input of a field where its rule does not say it (text, switch, number, select are). */
export type InputKind =
  | 'text'
  | 'textarea'
  | 'email'
  | 'password'
  | 'phone'
  | 'number'
  | 'switch'
  | 'select'
  | 'color'
  | 'date';

/** How a field shows as a list column: its width (px) or share (flex), and its kind of value. */
export interface ColumnHint {
  /** A shorter header than the label. */
  header?: string;
  width?: number;
  flex?: number;
  /**
   * The characters a value usually has (a VIN 17, a name 22), when the rule's maximum length
   * does not say it well; the list sizes the column to read that many (see columnChars).
   */
  chars?: number;
  /** For fields without a rule (server display fields); a rule says it for the others. */
  type?: 'string' | 'number' | 'boolean' | 'date';
  /** How the list shows the value (the shared formatter): S/ 1,234.50, 85.0 %, 1,250, a month's name. */
  /** hours: a measure with two decimals in every cell (1,154.19 over 1,330.00). */
  format?: 'money' | 'percent' | 'count' | 'month' | 'hours';
}

/** What a contract says of one field besides its label and rule. */
export interface FieldFlags {
  /** The server's quick search (?query=) looks in it. */
  search?: boolean;
  /** The server sorts by it (?sort=); the grid's column is sortable only then. */
  sort?: boolean;
  /** The server filters by it (filter[field]=value); a column of it gets a filter. */
  filter?: boolean;
  /** A column of the list (in field order). */
  column?: boolean | ColumnHint;
  /** The dialog's input where the rule does not say it; false keeps it out of the dialog. */
  input?: InputKind | false;
  /** The resource (API path) a `*_id` field points to: the dialog shows a select of it. */
  ref?: string;
  /** The referenced record belongs to this field's value (a branch within dealer_id). */
  within?: string;
  /** The fixed list of a oneOf field (select options, column filter and names). */
  options?: readonly FixedOption[];
  /**
   * The code of the general type (Preferences) whose values name this field's options: the
   * screens read the names, order and active values from GET /api/general-types-values, so
   * what an administrator edits there shows in every select, column and filter of the field.
   * `options` stays the compiled list of codes the server accepts (and the names until the
   * general types arrive).
   */
  generalType?: string;
  /** The dialog starts a section with this title at the first field of a new section. */
  section?: string;
}

/**
 * One field of a contract: its Spanish label, its zod rule (absent for a field the server only
 * answers, such as dealer_name), and what the server and the screens do with it.
 */
export interface FieldSpec<R extends z.ZodType = z.ZodType> extends FieldFlags {
  label: string;
  rule?: R;
}

type RuleSpec<R extends z.ZodType> = FieldSpec<R> & { rule: R };

const spec = <R extends z.ZodType>(label: string, rule: R, flags: FieldFlags = {}): RuleSpec<R> => ({
  ...flags,
  label,
  rule,
});

/**
 * Contract fields: each builder takes the label once and builds the rule with it (the `field`
 * builder of the same name), plus the flags. `f.display` is a field the server answers but
 * nobody writes (a joined name, a computed value).
 */
export const f = {
  text: (label: string, max: number, flags?: FieldFlags) => spec(label, field.text(label, max), flags),
  optText: (label: string, max: number, flags?: FieldFlags) => spec(label, field.optText(label, max), flags),
  email: (label: string, flags?: FieldFlags) => spec(label, field.email(label), { input: 'email', ...flags }),
  optEmail: (label: string, flags?: FieldFlags) =>
    spec(label, field.optEmail(label), { input: 'email', ...flags }),
  /** A required reference to a record of `resource` (its API path). */
  ref: (label: string, resource: string, flags?: FieldFlags) =>
    spec(label, field.ref(label), { ref: resource, ...flags }),
  optRef: (label: string, resource: string, flags?: FieldFlags) =>
    spec(label, field.optRef(label), { ref: resource, ...flags }),
  int: (label: string, min: number, max: number, flags?: FieldFlags) =>
    spec(label, field.int(label, min, max), flags),
  optInt: (label: string, min: number, max: number, flags?: FieldFlags) =>
    spec(label, field.int(label, min, max).optional(), flags),
  optNumber: (label: string, min: number, max: number, flags?: FieldFlags) =>
    spec(label, field.optNumber(label, min, max), flags),
  bool: (label: string, flags?: FieldFlags) => spec(label, field.bool(label), flags),
  /** One of a fixed list, optional ('' is none). */
  oneOf: <T extends string>(label: string, options: readonly { id: T; name: string }[], flags?: FieldFlags) =>
    spec(label, field.oneOf(label, options.map((o) => o.id) as [T, ...T[]]), {
      options,
      ...flags,
    }),
  /** Any other rule, built from the label (e.g. a text with a pattern). */
  rule: <R extends z.ZodType>(label: string, build: (label: string) => R, flags?: FieldFlags) =>
    spec(label, build(label), flags),
  /** Answered by the server, never written (joined names, computed values). */
  display: (label: string, flags: FieldFlags = {}): FieldSpec<never> => ({ ...flags, label }),
  /** 'Habilitado': every list sorts and filters by it and shows it as its last column. */
  active: () => spec('Habilitado', field.bool('Habilitado'), { sort: true, filter: true }),
  /** The creation time, for the server's sort. */
  created: (): FieldSpec<never> => ({ label: commonLabels.created_at, sort: true }),
};

/**
 * The address_ fields of SPEC §3, in dialog order: its own section, the three ubigeo references
 * side by side (one location picker in the dialog).
 */
export const addressFields = {
  address_country_id: f.optRef('País', 'countries', { section: 'Dirección' }),
  address_postcode: f.optText('Código postal', 20, { section: 'Dirección' }),
  address_department_id: f.optRef('Departamento', 'departments', { section: 'Dirección' }),
  address_province_id: f.optRef('Provincia', 'provinces', { section: 'Dirección' }),
  address_district_id: f.optRef('Distrito', 'districts', { section: 'Dirección' }),
  address_address1: f.optText('Dirección', 200, { section: 'Dirección' }),
  address_address2: f.optText('Dirección 2', 200, { section: 'Dirección' }),
  address_other: f.optText('Referencia', 200, { section: 'Dirección' }),
  address_phone: f.optText('Teléfono', 30, { section: 'Dirección', input: 'phone' }),
  address_phone_mobile: f.optText('Celular', 30, { section: 'Dirección', input: 'phone' }),
};

/** What a rule says of its value, read from the zod schema (unwrapping optional, nullable, pipes). */
export interface RuleInfo {
  kind: 'string' | 'number' | 'boolean' | 'enum' | 'array' | 'other';
  /** Rejects a missing value. */
  required: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
  int?: boolean;
  /** The values of an enum. */
  values?: string[];
  /** The rule of each item of an array. */
  element?: z.ZodType;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType };
const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema that checks the value itself: optional/nullable/default/pipes unwrapped. */
export function baseRule(rule: z.ZodType): z.ZodType {
  let s = rule;
  for (let i = 0; i < 20; i++) {
    const d = defOf(s);
    if (d.innerType && ['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(d.type))
      s = d.innerType;
    else if (d.type === 'pipe' && d.in && d.out) s = defOf(d.in).type === 'transform' ? d.out : d.in;
    else break;
  }
  return s;
}

export function ruleInfo(rule: z.ZodType): RuleInfo {
  const base = baseRule(rule);
  const type = defOf(base).type;
  const bag = (base as unknown as { _zod: { bag: Record<string, unknown> } })._zod.bag ?? {};
  const required = !rule.safeParse(undefined).success;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  switch (type) {
    case 'string':
      return { kind: 'string', required, maxLength: num(bag.maximum) };
    case 'number':
      return {
        kind: 'number',
        required,
        min: num(bag.minimum),
        max: num(bag.maximum),
        int: bag.format === 'safeint' || bag.format === 'int32',
      };
    case 'boolean':
      return { kind: 'boolean', required };
    case 'enum':
      return { kind: 'enum', required, values: (base as unknown as { options: string[] }).options };
    case 'array':
      return { kind: 'array', required, element: defOf(base).element };
    default:
      return { kind: 'other', required };
  }
}

/** The zod object of the fields that have a rule, in field order. */
type RuleShape<F> = {
  [K in keyof F as F[K] extends { rule: z.ZodType } ? K : never]: F[K] extends {
    rule: infer R extends z.ZodType;
  }
    ? R
    : never;
};

type Fields = Record<string, FieldSpec>;

/** Where a resource's screen sits in the menu (MENU_TREE is built from these). */
export interface MenuPlacement {
  /** The menu group it sits in (the `name` of a MENU_TREE group). */
  group: string;
  /** Screen name (SPEC §2: tabs are matched to screens by it). Unique. */
  name: string;
  /** A @mui/icons-material icon name. */
  icon: string;
  /** Client path; `/main/<name>` unless said. */
  path?: string;
  /** The actions its permission has besides view (default: all five). */
  actions?: readonly PermissionAction[];
  /** Before the group's other entries (by default after them, in contract order). */
  first?: boolean;
}

/**
 * The head of a contract: where the resource is served, who may use it, how it is titled,
 * listed and looked up, and where its screen sits in the menu.
 */
export interface ContractHead {
  /** URL segment after /api/, e.g. 'dealer-branches'. */
  path: string;
  /** Permission base, e.g. 'Admin.Dealers' (.view .store .update .destroy .export). */
  permission: string;
  /** Spanish title: list heading, dialog title, menu entry, export file name. */
  title: string;
  /** Default page size of its list (SPEC §9: 10 unless it names the list's own). */
  pageSize?: number;
  /** The list's order: a field (ascending) or a field and a direction. Default name, else id. */
  sort?: string | { field: string; order: 'asc' | 'desc' };
  /** perPage=-1, query-search and get/:id need only a login (the selects of other screens). */
  lookup?: 'authenticated';
  /** The order of a lookup (perPage=-1); default name. */
  lookupOrder?: string;
  /** What a lookup answers a user without .view (e.g. a company's name, not its RUC). */
  lookupFields?: readonly string[];
  /**
   * 'search': a catalogue that can grow past a few hundred rows. Every select of it searches
   * the server as the user types (query-search, SPEC §5: from 2 characters), fetches a chosen
   * record by its id (get/{id}) and never asks for the whole table (perPage=-1).
   */
  lookupMode?: 'search';
  menu?: MenuPlacement;
}

export type ResourceHead = ContractHead & { pageSize: number };

/**
 * What both sides know of a resource: its head (API path, permission base, title, page size,
 * list order, menu entry), its fields, and derived from them the labels and the zod schema of
 * its editable fields (create = schema, update = schema.partial()).
 */
export interface ResourceContract<S extends z.ZodObject = z.ZodObject> extends ResourceHead {
  /** Every field in order: the form's and the columns' order. `id` comes first. */
  fields: Fields;
  /** Spanish label per field (derived from `fields`, plus the common ones). */
  labels: Labels;
  /** The rules of the fields that have one. */
  schema: S;
}

export interface ContractOptions<S extends z.ZodObject> {
  /** Rules across fields (e.g. a document number by its type), applied to the object. */
  refine?: (schema: S) => S;
}

/** A contract from its head and its fields. */
export function defineContract<const H extends ContractHead, F extends Fields>(
  head: H,
  fields: F,
  options: ContractOptions<z.ZodObject<RuleShape<F>>> = {},
): ResourceContract<z.ZodObject<RuleShape<F>>> & { path: H['path'] } {
  const all: Fields = { id: { label: commonLabels.id, sort: true }, ...fields };
  const labels: Labels = { ...commonLabels };
  const shape: Record<string, z.ZodType> = {};
  for (const [name, s] of Object.entries(all)) {
    labels[name] = s.label;
    if (s.rule) shape[name] = s.rule;
  }
  let schema = z.object(shape) as unknown as z.ZodObject<RuleShape<F>>;
  if (options.refine) schema = options.refine(schema);
  return { ...head, pageSize: head.pageSize ?? DEFAULT_PAGE_SIZE, fields: all, labels, schema };
}

/** Names of the fields with a flag, in field order (the server's searchable, sortable, filters). */
export function fieldsWith(contract: { fields: Fields }, flag: 'search' | 'sort' | 'filter'): string[] {
  return Object.entries(contract.fields)
    .filter(([, s]) => s[flag])
    .map(([name]) => name);
}
