// The cells of the figures and fees grids: a value per dealer × concept × month of a year.
// Reading them for a grid, checking a batch (dealers in the caller's scope, active concepts,
// the period rules of figures), and writing it: one INSERT … SELECT FROM unnest(arrays) for the
// values and one DELETE for the emptied cells, whatever the batch's size.
import {
  type ConceptRule,
  conceptValueError,
  FIGURE_MESSAGES,
  type GridDealer,
  type GridValue,
  messages,
  type PeriodStatus,
  periodName,
  QUERY_LABELS,
} from '@app/contracts';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ConflictError, ValidationError } from '../../core/errors';
import { resolveScope } from '../../core/scope';
import { lockedStatuses } from './figures.periods';
import { activeConcepts, monthKey, scopedDealers } from './figures.scope';
import { fees, figures } from './figures.tables';

export type CellTable = 'figures' | 'fees';
const TABLES = { figures, fees } as const;

export interface Cell {
  dealer_id: number;
  concept_id: number;
  month: number;
  /** null empties the cell. */
  value: number | null;
}

/** The stored values of `year` for these dealers (one month, or all). */
export async function readCells(
  db: Executor,
  table: CellTable,
  year: number,
  dealerIds: number[],
  month: number | null,
): Promise<GridValue[]> {
  if (!dealerIds.length) return [];
  const t = TABLES[table];
  return db
    .select({ dealer_id: t.dealer_id, concept_id: t.concept_id, month: t.month, value: t.value })
    .from(t)
    .where(and(eq(t.year, year), inArray(t.dealer_id, dealerIds), month ? eq(t.month, month) : undefined));
}

/**
 * A value that breaks its concept's kind (a fractional count, too many decimals, a negative
 * count), named as a user finds the cell: 'Pruebas de manejo, Noviembre 2026 de AQP01: debe ser
 * un número entero (se ingresó 1250000.5)'; null when it is acceptable.
 */
export function cellValueError(
  concept: ConceptRule,
  year: number,
  month: number,
  dealerCode: string | undefined,
  value: number | null,
): string | null {
  const why = conceptValueError(concept, value);
  return why ? `${concept.name}, ${periodName(year, month, dealerCode)}: ${why} (se ingresó ${value})` : null;
}

/**
 * A batch's cells with their dealer resolved and checked: a cell without dealer_id is
 * `fallbackDealer`'s (a dealer user's own), every dealer must be in the caller's scope (else
 * 404), every concept active and every value of its concept's kind (else 422 naming the cell).
 * The same cell twice: the last wins.
 */
export async function checkCells(
  db: Executor,
  user: CurrentUser,
  input: { dealer_id?: number | null; concept_id: number; month: number; value: number | null }[],
  fallbackDealer: number | null | undefined,
  year: number,
): Promise<{ cells: Cell[]; dealers: Map<number, GridDealer> }> {
  // The body's declared dealer: a dealer user's own (the engine holds it), the cells' default.
  const own = fallbackDealer ?? null;
  const problems: { field: string; message: string }[] = [];
  const active = new Map((await activeConcepts(db)).map((c) => [c.id, c]));
  const concepts = new Set(active.keys());
  const unique = new Map<string, Cell>();
  input.forEach((c, i) => {
    const dealer_id = c.dealer_id ?? own;
    if (!dealer_id)
      problems.push({ field: `values.${i}.dealer_id`, message: messages.required(QUERY_LABELS.dealer) });
    else if (!concepts.has(c.concept_id))
      problems.push({
        field: `values.${i}.concept_id`,
        message: 'El concepto no existe o no está habilitado',
      });
    else unique.set(`${dealer_id}:${c.concept_id}:${c.month}`, { ...c, dealer_id });
  });
  if (problems.length) throw new ValidationError(problems.slice(0, 50));
  const cells = [...unique.values()];
  // The cells may name any dealer the caller sees (the caller's scope, not only the body's default dealer).
  const list = await scopedDealers(db, resolveScope(user), [...new Set(cells.map((c) => c.dealer_id))]);
  const dealers = new Map(list.map((d) => [d.id, d]));
  input.forEach((c, i) => {
    const message = cellValueError(
      active.get(c.concept_id)!,
      year,
      c.month,
      dealers.get(c.dealer_id ?? own ?? 0)?.code,
      c.value,
    );
    if (message) problems.push({ field: `values.${i}.value`, message });
  });
  if (problems.length)
    throw new ValidationError(
      problems.slice(0, 50),
      problems.length > 1 ? `${problems[0].message}; y ${problems.length - 1} celda(s) más` : undefined,
    );
  return { cells, dealers };
}

/**
 * Refuses (409, nothing written) cells in a month whose state is not allowed: figures are
 * written only in enabled months; the manufacturer's per-concept load also in closed ones.
 * Locks those periods until the transaction ends.
 */
export async function assertPeriods(
  tx: Tx,
  year: number,
  cells: Cell[],
  dealers: Map<number, GridDealer>,
  allowed: PeriodStatus[],
): Promise<void> {
  const keys = new Map<string, { dealer_id: number; month: number }>();
  for (const c of cells) keys.set(monthKey(c.dealer_id, c.month), { dealer_id: c.dealer_id, month: c.month });
  const statuses = await lockedStatuses(tx, year, [...keys.values()]);
  const wrong: string[] = [];
  for (const [key, k] of keys) {
    const status = statuses.get(key) ?? 'closed';
    if (allowed.includes(status)) continue;
    const name = periodName(year, k.month, dealers.get(k.dealer_id)?.code);
    wrong.push(status === 'confirmed' ? FIGURE_MESSAGES.confirmed(name) : FIGURE_MESSAGES.notEnabled(name));
  }
  if (wrong.length)
    throw new ConflictError(
      wrong[0],
      wrong.length > 1 ? `Y ${wrong.length - 1} periodo(s) más: ${wrong.slice(1, 6).join('; ')}` : undefined,
    );
}

const ints = (xs: number[]) => sql`${sql.param(xs)}::int4[]`;

/** Writes the cells: values upserted (unchanged ones untouched), null cells deleted. */
export async function writeCells(
  tx: Tx,
  table: CellTable,
  year: number,
  cells: Cell[],
  userId: number,
  source?: string,
): Promise<{ written: number; deleted: number }> {
  const set = cells.filter((c) => c.value !== null);
  const gone = cells.filter((c) => c.value === null);
  let written = 0;
  let deleted = 0;
  const name = sql.raw(table);
  if (set.length) {
    const extra: SQL = table === 'figures' ? sql`, source` : sql``;
    const extraValue: SQL = table === 'figures' ? sql`, ${source ?? 'grid'}::varchar` : sql``;
    const extraSet: SQL = table === 'figures' ? sql`, source = excluded.source` : sql``;
    const res = await tx.execute(sql`
      insert into ${name} (dealer_id, concept_id, year, month, value, updated_by${extra})
      select t.d, t.c, ${year}::int2, t.m, t.v, ${userId}::int4${extraValue}
      from unnest(${ints(set.map((c) => c.dealer_id))}, ${ints(set.map((c) => c.concept_id))},
                  ${ints(set.map((c) => c.month))}, ${sql.param(set.map((c) => String(c.value)))}::numeric[])
        as t(d, c, m, v)
      on conflict (dealer_id, year, month, concept_id) do update
        set value = excluded.value, updated_by = excluded.updated_by, updated_at = now()${extraSet}
        where ${name}.value is distinct from excluded.value`);
    written = affected(res);
  }
  if (gone.length) {
    const res = await tx.execute(sql`
      delete from ${name} x
      using unnest(${ints(gone.map((c) => c.dealer_id))}, ${ints(gone.map((c) => c.concept_id))},
                   ${ints(gone.map((c) => c.month))}) as t(d, c, m)
      where x.year = ${year} and x.dealer_id = t.d and x.concept_id = t.c and x.month = t.m`);
    deleted = affected(res);
  }
  return { written, deleted };
}

/** Rows a statement changed, from either driver's answer (pg: rowCount; PGlite: affectedRows). */
function affected(res: unknown): number {
  const r = res as { rowCount?: number | null; affectedRows?: number };
  return r.rowCount ?? r.affectedRows ?? 0;
}
