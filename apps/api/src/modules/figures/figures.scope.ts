// Who a grid call is about. The dealers a call may name are those of its scope, the engine's
// (core/scope: a dealer user, its own dealer only; else the dealer the call declares, or every
// dealer), so every call of the module reads and writes through the same scope as the lists.
import { type ConceptAggregation, type ConceptRow, FIGURE_MESSAGES, type GridDealer } from '@app/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import type { Scope } from '../../core/scope';
import { concepts, dealers } from '../../db/schema';

/** `authorize` of the manufacturer's actions: a dealer user is refused whatever its role holds. */
export function manufacturerOnly({ user }: { user: CurrentUser }): void {
  if (user.isDealer) throw new ForbiddenError(FIGURE_MESSAGES.manufacturerOnly);
}

/**
 * The dealers of `ids` within the scope (all of them, or 404 naming none), or with `ids`
 * undefined every active dealer of the scope, by name.
 */
export async function scopedDealers(db: Executor, scope: Scope, ids?: number[]): Promise<GridDealer[]> {
  const rows = await db
    .select({ id: dealers.id, code: dealers.code, name: dealers.name })
    .from(dealers)
    .where(
      and(scope.on(dealers.id), ids ? inArray(dealers.id, ids.length ? ids : [0]) : eq(dealers.active, true)),
    )
    .orderBy(asc(dealers.name), asc(dealers.id));
  if (ids && rows.length !== new Set(ids).size) throw new NotFoundError('El concesionario no existe');
  return rows;
}

/**
 * The one dealer a call is about: the requested one within the caller's scope (404 outside
 * it); null means every dealer (manufacturer, 'Todos'). A dealer user's request is always its
 * own: the engine holds the declared dealer_id of every query and body that reaches here.
 */
export async function requestedDealer(
  db: Executor,
  scope: Scope,
  requested: number | null | undefined,
): Promise<GridDealer | null> {
  return requested ? (await scopedDealers(db, scope, [requested]))[0] : null;
}

/** The dealers of a grid query: the one requested (or a dealer user's own), else all in scope. */
export async function gridDealers(db: Executor, scope: Scope, id: number | null): Promise<GridDealer[]> {
  const one = await requestedDealer(db, scope, id);
  return one ? [one] : scopedDealers(db, scope);
}

// The grid queries (gridQuery, monthGridQuery, yearGridQuery) are the calls' (contracts/calls/figures).

/** The active concepts in grid order (the rows of figures and fees). */
export async function activeConcepts(db: Executor): Promise<ConceptRow[]> {
  return db
    .select({
      id: concepts.id,
      code: concepts.code,
      name: concepts.name,
      unit: concepts.unit,
      group: concepts.group,
      order: concepts.order,
      higher_is_better: concepts.higher_is_better,
      aggregation: sql<ConceptAggregation>`${concepts.aggregation}`,
      decimals: concepts.decimals,
      plausible_min: concepts.plausible_min,
      plausible_max: concepts.plausible_max,
    })
    .from(concepts)
    .where(eq(concepts.active, true))
    .orderBy(asc(concepts.order), asc(concepts.name));
}

export const monthKey = (dealerId: number, month: number) => `${dealerId}:${month}`;
