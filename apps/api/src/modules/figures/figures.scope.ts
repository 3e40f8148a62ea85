// Who a grid call is about. The dealers a caller may name are those the dealers resource lets it
// see (its declared scope: a dealer user, its own dealer only), so every call of the module
// reads and writes through the same scope as the generic lists.
import { type ConceptAggregation, type ConceptRow, FIGURE_MESSAGES, type GridDealer } from '@app/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import { scopeCondition } from '../../core/resource-query';
import { concepts, dealers } from '../../db/schema';
import { dealerResource } from '../organisation/organisation.resources';

/** `authorize` of the manufacturer's actions: a dealer user is refused whatever its role holds. */
export function manufacturerOnly({ user }: { user: CurrentUser }): void {
  if (user.isDealer) throw new ForbiddenError(FIGURE_MESSAGES.manufacturerOnly);
}

/**
 * The dealers of `ids` the caller may see (all of them, or 404 naming none), or with `ids`
 * undefined every active dealer in its scope, by name.
 */
export async function dealersInScope(db: Executor, user: CurrentUser, ids?: number[]): Promise<GridDealer[]> {
  const scope = scopeCondition(dealerResource, user);
  const rows = await db
    .select({ id: dealers.id, code: dealers.code, name: dealers.name })
    .from(dealers)
    .where(and(scope, ids ? inArray(dealers.id, ids.length ? ids : [0]) : eq(dealers.active, true)))
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
  user: CurrentUser,
  requested: number | null | undefined,
): Promise<GridDealer | null> {
  return requested ? (await dealersInScope(db, user, [requested]))[0] : null;
}

/** The dealers of a grid query: the one requested (or a dealer user's own), else all in scope. */
export async function gridDealers(db: Executor, user: CurrentUser, id: number | null): Promise<GridDealer[]> {
  const one = await requestedDealer(db, user, id);
  return one ? [one] : dealersInScope(db, user);
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
