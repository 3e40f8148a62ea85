// Who a grid call is about. The dealers a caller may name are those the dealers resource lets it
// see (its declared scope: a dealer user, its own dealer only), so every call of the module
// reads and writes through the same scope as the generic lists.
import {
  type ConceptAggregation,
  type ConceptRow,
  FIGURE_MESSAGES,
  type GridDealer,
  type PeriodRules,
} from '@app/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ForbiddenError, NotFoundError } from '../../core/errors';
import type { QueryParams } from '../../core/http';
import { readPeriod, readRef } from '../../core/period';
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
 * it), else a dealer user's own; null means every dealer (manufacturer, 'Todos').
 */
export async function requestedDealer(
  db: Executor,
  user: CurrentUser,
  requested: number | null | undefined,
): Promise<GridDealer | null> {
  if (requested) return (await dealersInScope(db, user, [requested]))[0];
  if (user.isDealer && user.dealerId) return (await dealersInScope(db, user, [user.dealerId]))[0];
  return null;
}

/** The dealers of a grid query: the one requested (or a dealer user's own), else all in scope. */
export async function gridDealers(db: Executor, user: CurrentUser, id: number | null): Promise<GridDealer[]> {
  const one = await requestedDealer(db, user, id);
  return one ? [one] : dealersInScope(db, user);
}

/** /api/docs of the query of a grid call: year, month, dealer_id. */
export const GRID_QUERY_DOC = {
  year: { type: 'integer', description: 'Año (por defecto el actual)' },
  month: { type: 'integer', description: '1..12' },
  dealer_id: {
    type: 'integer',
    description: 'Concesionario; ausente: todos (un usuario de concesionario: el suyo)',
  },
};

/**
 * year (default this year in Lima; up to next year, for fees planned ahead), month (optional, or
 * required, or this month by default) and dealer_id of a grid or report query.
 */
export function gridQuery(query: QueryParams, rules: PeriodRules = {}) {
  const { year, month } = readPeriod(query, { lastYear: 'next', ...rules });
  return { year, month, dealerId: readRef(query, ['dealer_id'], 'Concesionario') };
}

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
    })
    .from(concepts)
    .where(eq(concepts.active, true))
    .orderBy(asc(concepts.order), asc(concepts.name));
}

export const monthKey = (dealerId: number, month: number) => `${dealerId}:${month}`;
