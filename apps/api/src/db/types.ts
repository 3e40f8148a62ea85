// The database as every layer above sees it: the handle, a transaction of it, either.
import type { Database } from './client';

/** The typed database (drizzle over PostgreSQL or PGlite). */
export type Db = Database;
/** A transaction of it. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either: what a query helper may run on. */
export type Executor = Db | Tx;
