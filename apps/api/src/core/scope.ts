// The dealer scope of one call, resolved once by the engine from the caller and the dealer its
// query or body declares (contracts' dealerParam / dealerBodyField): a dealer user reads its own
// dealer whatever it sends (another dealer's id answered 404 before the handler ran), a
// manufacturer's user the dealer it asked for, or every dealer. Summaries, reports and imports
// read with it (`scope.on(table.dealer_id)`) instead of looking at the user or the parameter.
import { DEALER_QUERY_KEY } from '@app/contracts';
import { type Column, eq, inArray, type SQL, sql } from 'drizzle-orm';

export interface Scope {
  /** The dealers the call reads: null means every dealer (a manufacturer's user asking for none). */
  readonly dealerIds: readonly number[] | null;
  /** The one dealer the call is about (a dealer user's own, or the one asked for), else undefined. */
  readonly dealerId: number | undefined;
  /** Whether the caller is held to its own dealer (a dealer user). */
  readonly held: boolean;
  /** The condition on a dealer column; undefined when the call reads every dealer. */
  on(column: Column): SQL | undefined;
  /** Whether a dealer is in the scope (a row of an import, a cell of a grid). */
  admits(dealerId: number): boolean;
}

/** What the scope needs of the caller (a CurrentUser), or none. */
type Caller = { isDealer: boolean; dealerId: number | null } | null | undefined;

/**
 * The scope of a caller asking for `asked` (the declared dealer, already held by the engine):
 * a dealer user's own dealer, else the dealer asked for, else every dealer. No caller reads none.
 */
export function resolveScope(user: Caller, asked?: number | null): Scope {
  const held = !!user?.isDealer;
  const ids: number[] | null = !user ? [] : held ? [user.dealerId ?? 0] : asked ? [asked] : null;
  return {
    dealerIds: ids,
    dealerId: ids?.length === 1 ? ids[0] : undefined,
    held,
    on(column) {
      if (!ids) return undefined;
      if (ids.length === 0) return sql`false`;
      return ids.length === 1 ? eq(column, ids[0]!) : inArray(column, ids);
    },
    admits: (dealerId) => !ids || ids.includes(dealerId),
  };
}

/** The scope of a parsed query: its declared dealer (`dealer_id`), held to a dealer user's own. */
export function queryScope(user: Caller, query: unknown): Scope {
  const asked = (query as Record<string, unknown> | null | undefined)?.[DEALER_QUERY_KEY];
  return resolveScope(user, typeof asked === 'number' ? asked : null);
}
