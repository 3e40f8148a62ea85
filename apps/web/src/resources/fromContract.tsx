// The list columns and the dialog fields of a resource, read from its contract: the label, the
// rule (required, maximum length, minimum and maximum), the reference (a select of that
// resource), the fixed list, and whether the server sorts and filters by the field.
import {
  type FieldSpec,
  formatCount,
  formatDay,
  formatMeasure,
  formatMoney,
  formatPercent,
  MONTH_NAMES,
  type ResourceContract,
  ruleInfo,
} from '@app/contracts';
import { maskPhone } from '../fields/masks';
import type { FieldDef, FieldType, Option } from '../fields/types';
import { useTypeName } from '../lib/generalTypes';
import type { ColumnDef, FieldDecl } from './columns';

const specOf = (contract: ResourceContract, name: string): FieldSpec | undefined =>
  Object.hasOwn(contract.fields, name) ? contract.fields[name] : undefined;

/** The server sorts by it: the only columns the grid lets a click sort (never a 422). */
export const isSortable = (contract: ResourceContract, name: string) => !!specOf(contract, name)?.sort;

const optionsOf = (spec: FieldSpec): Option[] | undefined =>
  spec.options?.map((o) => ({ id: o.id, name: o.name }));

function columnType(spec: FieldSpec | undefined): ColumnDef['type'] {
  const hint = typeof spec?.column === 'object' ? spec.column.type : undefined;
  if (hint) return hint;
  const kind = spec?.rule ? ruleInfo(spec.rule).kind : undefined;
  if (kind === 'boolean') return 'boolean';
  if (kind === 'number' && !spec?.options) return 'number';
  return 'string';
}

/** Pixels per character of the grid's text (Roboto 14px: digits and capitals ~8, lower case ~7). */
const CHAR_PX = 7.5;
/** A cell's padding, and a header's room for its sort arrow and menu. */
const CELL_PAD = 22;
const HEADER_PAD = 48;

/**
 * The characters a column's values usually have, from what the contract declares: the hint's
 * `chars`, a date (10), an e-mail (26), a phone (12), a fixed list's longest name, a number's
 * digits, a short text's maximum length (a VIN's 17, a code's 10), 16 for a longer free text
 * (an invoice, a reference) and 22 for a name (a field of 100 characters or more, or a joined
 * name the server answers).
 */
export function columnChars(
  spec: FieldSpec | undefined,
  type: ColumnDef['type'],
  options?: Option[],
): number {
  const hint = typeof spec?.column === 'object' ? spec.column : {};
  if (hint.chars) return hint.chars;
  if (type === 'date') return 10;
  if (type === 'boolean') return 4;
  if (hint.format === 'money') return 14;
  if (hint.format === 'percent') return 7;
  if (hint.format === 'month') return 10;
  if (hint.format === 'hours') return 9;
  if (options?.length) return Math.max(...options.map((o) => o.name.length));
  if (spec?.input === 'email') return 26;
  if (spec?.input === 'phone') return 12;
  const info = spec?.rule ? ruleInfo(spec.rule) : undefined;
  if (type === 'number') {
    const max = info?.max ?? 999_999;
    return Math.min(14, String(Math.round(Math.abs(max))).length + 2);
  }
  const max = info?.maxLength;
  if (max === undefined) return 22;
  if (max <= 20) return max;
  return max < 100 ? 16 : 22;
}

/** The narrowest a column reads its values and its header whole. */
export function columnMinWidth(chars: number, header: string): number {
  return Math.round(Math.max(chars * CHAR_PX + CELL_PAD, header.length * CHAR_PX + HEADER_PAD));
}

/** A stored value of a general type, by the name Preferences gives it. */
function TypeName(p: { code: string; fallback: Option[]; value: unknown }) {
  const name = useTypeName(p.code, p.fallback);
  return <>{name(p.value)}</>;
}

/** A column completed from the contract: header, width, type, filter and fixed-list names. */
export function resolveColumn(contract: ResourceContract, c: ColumnDef): ColumnDef {
  const spec = specOf(contract, c.field);
  const hint = typeof spec?.column === 'object' ? spec.column : {};
  const options = spec && optionsOf(spec);
  const type = c.type ?? columnType(spec);
  // Sized by what it holds: never narrower than its usual value, and sharing the spare room in
  // proportion to it (a VIN does not take the width a name and an e-mail need).
  const minWidth = columnMinWidth(
    columnChars(spec, type, options),
    c.header ?? hint.header ?? spec?.label ?? c.field,
  );
  const out: ColumnDef = {
    header: hint.header,
    width: hint.width,
    flex: hint.flex ?? Math.round(minWidth / 10) / 10,
    minWidth,
    type,
    filter: spec?.filter ? { options } : undefined,
    ...c,
  };
  if (c.filter === false) out.filter = undefined;
  if (spec?.generalType && out.generalType === undefined) out.generalType = spec.generalType;
  if (!out.render && out.generalType) {
    const code = out.generalType;
    const fallback = options ?? [];
    out.render = (row) => <TypeName code={code} fallback={fallback} value={row[c.field]} />;
  } else if (!out.render && options) {
    const names = new Map(options.map((o) => [String(o.id), o.name]));
    out.render = (row) => names.get(String(row[c.field])) ?? row[c.field];
  }
  // A month's name reads as text, aligned left (not as the number it is stored as).
  if (hint.format === 'month' && !c.type && !hint.type) out.type = 'string';
  // Money, percentages, counts and months as every screen writes them ('S/ 1,234.50', 'Noviembre').
  const format = hint.format;
  if (!out.render && format) {
    out.render = (row) => {
      const v = row[c.field];
      if (v === null || v === undefined || v === '') return '—';
      const n = Number(v);
      if (format === 'month') return MONTH_NAMES[n - 1] ?? String(v);
      if (format === 'hours') return formatMeasure(n, 2);
      return format === 'money' ? formatMoney(n) : format === 'percent' ? formatPercent(n) : formatCount(n);
    };
  }
  // Dates as Peru writes them (29/11/2026), instants in Lima's time (29/11/2026 14:05).
  if (!out.render && out.type === 'date') out.render = (row) => formatDay(row[c.field]);
  // Phones in one format whatever was stored (seeded raw digits, or typed through the mask).
  if (!out.render && spec?.input === 'phone') out.render = (row) => maskPhone(String(row[c.field] ?? ''));
  if (!out.render && spec?.input === 'color') {
    out.render = (row) => <span style={{ color: row[c.field] ?? undefined }}>{row[c.field]}</span>;
  }
  return out;
}

/** The contract's columns, in field order ('active' is added by the screen itself). */
export function contractColumns(contract: ResourceContract): ColumnDef[] {
  return Object.entries(contract.fields)
    .filter(([name, spec]) => spec.column && name !== 'active')
    .map(([field]) => resolveColumn(contract, { field }));
}

/** A reference the server filters by, for the toolbar selector of that resource (e.g. dealer_id). */
export function referenceFilter(contract: ResourceContract, resource: string): string | undefined {
  return Object.entries(contract.fields).find(([, s]) => s.ref === resource && s.filter)?.[0];
}

/** One dialog field from its contract field; `over` says what differs. */
export function contractField(
  contract: ResourceContract,
  name: string,
  over: Partial<FieldDef> = {},
): FieldDef {
  const spec = specOf(contract, name);
  if (!spec) return { type: 'text', ...over, name };
  const info = spec.rule ? ruleInfo(spec.rule) : undefined;
  const refs = spec.ref ? (info?.kind === 'array' ? 'many' : 'one') : undefined;
  const options = optionsOf(spec) ?? info?.values?.map((v) => ({ id: v, name: v }));
  let type: FieldType;
  if (spec.input) type = spec.input;
  else if (refs || options) type = 'select';
  else if (info?.kind === 'boolean') type = 'switch';
  else if (info?.kind === 'number') type = 'number';
  else type = 'text';
  const required = type !== 'switch' && !!info?.required;
  const out: FieldDef = { name, type, label: spec.label };
  if (required) out.required = true;
  if (info?.maxLength !== undefined && type !== 'select') out.maxLength = info.maxLength;
  if (type === 'textarea' && out.maxLength !== undefined) out.counter = true;
  if (type === 'number') {
    if (info?.min !== undefined) out.min = info.min;
    if (info?.max !== undefined) out.max = info.max;
  }
  if (type === 'select') {
    if (spec.ref) out.resource = spec.ref;
    else out.options = options;
    if (spec.generalType) out.generalType = spec.generalType;
    if (!required) out.clearable = true;
    if (spec.within) out.dependsOn = { field: spec.within, filter: spec.within };
    // A reference is searched as typed, unless the contract asks for a plain select (a short
    // list) or its options follow another field.
    if (spec.ref && !spec.input && !spec.within) out.autocomplete = true;
    if (refs === 'many') Object.assign(out, { multiple: true, chips: true, autocomplete: true });
  }
  return { ...out, ...over };
}

const LOCATION_REFS = ['departments', 'provinces', 'districts'] as const;

/** The department, province and district references of one prefix ('' or 'address_'), in order. */
function locationAt(names: string[], i: number, contract: ResourceContract): string[] | undefined {
  const trio = names.slice(i, i + 3);
  if (trio.length < 3) return undefined;
  const ok = trio.every((n, k) => contract.fields[n].ref === LOCATION_REFS[k]);
  const prefix = trio[0].slice(0, trio[0].length - 'department_id'.length);
  return ok && trio.every((n, k) => n === `${prefix}${['department', 'province', 'district'][k]}_id`)
    ? trio
    : undefined;
}

/**
 * The contract's dialog: every field with a rule (unless `input: false`), in field order; a
 * department, province and district in a row become one location picker (named `location`, or
 * `address_location` for the address_ ones); a new `section` starts with a divider.
 */
export function contractForm(contract: ResourceContract): FieldDef[] {
  const names = Object.keys(contract.fields).filter((n) => {
    const s = contract.fields[n];
    return s.rule && s.input !== false;
  });
  const out: FieldDef[] = [];
  let section: string | undefined;
  for (let i = 0; i < names.length; i++) {
    const spec = contract.fields[names[i]];
    if (spec.section && spec.section !== section) {
      out.push({ name: `section_${spec.section}`, type: 'divider', label: spec.section });
    }
    section = spec.section;
    const trio = locationAt(names, i, contract);
    if (trio) {
      const prefix = trio[0].slice(0, trio[0].length - 'department_id'.length);
      out.push({
        name: `${prefix}location`,
        type: 'location',
        label: 'Ubicación',
        locationFields: { department: trio[0], province: trio[1], district: trio[2] },
      });
      i += 2;
    } else out.push(contractField(contract, names[i]));
  }
  return out;
}

/**
 * The dialog of a screen file: its names in its order, each taken from the contract's dialog
 * (or the contract's field, or a field of its own) and completed with what the file says.
 */
export function pickFields(contract: ResourceContract, decls: FieldDecl[]): FieldDef[] {
  const derived = new Map(contractForm(contract).map((f) => [f.name, f]));
  return decls.map((d) => {
    const { name, ...over } = typeof d === 'string' ? { name: d } : d;
    const base = derived.get(name);
    return base ? { ...base, ...over } : contractField(contract, name, over);
  });
}
