// The row kit of every import (core/import.ts): reading a cell as text, a key as the imports
// compare it (upper case, no accents), a date cell, and the references the row checks look up
// (dealers, branches, brands, models by code or name), loaded once per run. Modules import these
// from here, never from one another.
import { DATE_RE } from '@app/contracts';
import { dealerBranches, dealers, manufacturerModels, manufacturers } from '../db/schema';
import type { Executor } from '../db/types';

export const up = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toUpperCase();

export interface Brand {
  id: number;
  code: string;
  name: string;
}

/**
 * What the row checks of every import look up, loaded once per run: dealers by code (upper case,
 * no accents: see `up`) and by id; with `branches`, a dealer's branches by name or code; with
 * `brands`, brands by code or name and their models by name or code. Parts not asked are empty.
 */
export interface References {
  dealersByCode: Map<string, { id: number; code: string; name: string }>;
  dealersById: Map<number, { id: number; code: string; name: string }>;
  /** `${dealerId}|${NAME or CODE}` → branch id. */
  branches: Map<string, number>;
  branchesById: Map<number, { id: number; dealer_id: number }>;
  brands: Map<string, Brand>;
  brandsById: Map<number, Brand>;
  /** `${brandId}|${NAME or CODE}` → model id. */
  models: Map<string, number>;
  modelsById: Map<number, { id: number; manufacturer_id: number; name: string }>;
}

export async function loadReferences(
  db: Executor,
  parts: { branches?: boolean; brands?: boolean },
): Promise<References> {
  const [dealerRows, branchRows, brandRows, modelRows] = await Promise.all([
    db.select({ id: dealers.id, code: dealers.code, name: dealers.name }).from(dealers),
    parts.branches
      ? db
          .select({
            id: dealerBranches.id,
            dealer_id: dealerBranches.dealer_id,
            code: dealerBranches.code,
            name: dealerBranches.name,
          })
          .from(dealerBranches)
      : [],
    parts.brands
      ? db
          .select({ id: manufacturers.id, code: manufacturers.code, name: manufacturers.name })
          .from(manufacturers)
      : [],
    parts.brands
      ? db
          .select({
            id: manufacturerModels.id,
            manufacturer_id: manufacturerModels.manufacturer_id,
            code: manufacturerModels.code,
            name: manufacturerModels.name,
          })
          .from(manufacturerModels)
      : [],
  ]);
  const l: References = {
    dealersByCode: new Map(),
    dealersById: new Map(),
    branches: new Map(),
    branchesById: new Map(),
    brands: new Map(),
    brandsById: new Map(),
    models: new Map(),
    modelsById: new Map(),
  };
  for (const d of dealerRows) {
    l.dealersByCode.set(up(d.code), d);
    l.dealersById.set(d.id, d);
  }
  for (const b of branchRows) {
    l.branches.set(`${b.dealer_id}|${up(b.name)}`, b.id);
    if (b.code) l.branches.set(`${b.dealer_id}|${up(b.code)}`, b.id);
    l.branchesById.set(b.id, b);
  }
  for (const b of brandRows) {
    l.brands.set(up(b.code), b);
    l.brands.set(up(b.name), b);
    l.brandsById.set(b.id, b);
  }
  for (const m of modelRows) {
    l.models.set(`${m.manufacturer_id}|${up(m.name)}`, m.id);
    if (m.code) l.models.set(`${m.manufacturer_id}|${up(m.code)}`, m.id);
    l.modelsById.set(m.id, m);
  }
  return l;
}

/** Text of a cell: trims, turns numbers into text, null for empty. */
export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
  const s = String(v).trim();
  return s === '' ? null : s;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Fecha Venta: a Date (Excel date cell), an Excel serial number, or YYYY-MM-DD text. */
export function parseDate(v: unknown): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 20000 && v < 80000) {
    return parseDate(new Date(Math.round((v - 25569) * 86_400_000)));
  }
  const s = text(v);
  if (!s || !DATE_RE.test(s)) return null;
  const d = new Date(`${s}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) return null;
  return s;
}
