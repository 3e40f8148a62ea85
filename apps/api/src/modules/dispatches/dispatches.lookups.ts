// What the module's row checks look up (dealers, brands, models by code or name) and reads of
// the brand a query names (its period and dealer are declared in the calls' query schemas).

import { daysInMonth } from '@app/contracts';
import { eq, or } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { type Brand, loadReferences, type References } from '../../core/import-kit';
import { manufacturers } from '../../db/schema';

/** What the module's row checks look up: dealers, brands and models (see loadReferences). */
export type Lookups = References;
export const loadLookups = (db: Executor): Promise<Lookups> => loadReferences(db, { brands: true });

/** Today in Lima (UTC-5, no daylight saving) as YYYY-MM-DD: the day a Peruvian manager lives in. */
const pad = (n: number) => String(n).padStart(2, '0');
export const monthStart = (y: number, m: number) => `${y}-${pad(m)}-01`;
export const monthEnd = (y: number, m: number) => `${y}-${pad(m)}-${pad(daysInMonth(y, m))}`;

/** ?manufacturer (id or code; 0 or empty = every brand). Unknown → 422. */
export async function readBrand(
  db: Executor,
  value: string | number | undefined | null,
  /** The parameter the caller read it from, named in the 422. */
  field = 'manufacturer',
): Promise<Brand | undefined> {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0') return undefined;
  const s = String(value).trim();
  const byId = /^\d{1,9}$/.test(s);
  const [b] = await db
    .select({ id: manufacturers.id, code: manufacturers.code, name: manufacturers.name })
    .from(manufacturers)
    .where(
      byId
        ? eq(manufacturers.id, Number(s))
        : or(eq(manufacturers.code, s.toUpperCase()), eq(manufacturers.name, s)),
    );
  if (!b) throw ValidationError.field(field, 'Marca no existe');
  return b;
}
