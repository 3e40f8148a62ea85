// Opens the database: PGlite in a data folder by default, PostgreSQL when a URL is given.
// Both sides speak the same SQL and run the same migrations from ./drizzle.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Each side's driver is loaded only when that side is used: a PGlite start never loads pg.
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { errorLine } from '../lib/log-redact';

/** Queries are built from the tables themselves (no relational `db.query`): no schema given. */
export type Database = NodePgDatabase;

export interface DatabaseHandle {
  db: Database;
  /**
   * For the list pages' prepared statements only: on PostgreSQL a small pool of its own whose
   * named statements always run their generic plan (plan_cache_mode=force_generic_plan), planned
   * once per connection instead of on every page. Not for other queries: there a generic plan
   * can be far worse than one made for the values (a search pattern, a skewed dealer).
   * PGlite (one connection, no statement cache): the same as `db`.
   */
  pagesDb: Database;
  kind: 'pglite' | 'postgres';
  /** Raw SQL with positional parameters, for the few hand-written queries (bench, counts). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  migrate(): Promise<void>;
  /**
   * Runs fn while holding the start-up lock of the database (a PostgreSQL advisory lock), so
   * instances started together migrate and seed one after the other. PGlite: one process anyway.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * PostgreSQL: holds SERVER_LOCK shared, on a connection of its own, until close(), so that a
   * restore (which takes it exclusively) knows a server uses the database even when every pool
   * connection is idle and closed. A lost connection is opened again and the lock taken again.
   * Waits while a restore runs. PGlite: nothing (the data folder's lock, ops/data-lock.ts).
   */
  holdServerLock(): Promise<void>;
  close(): Promise<void>;
  /** The connection pools' counts now (PostgreSQL: the main pool and the pages' pool; PGlite: none). */
  poolStats(): PoolStats[];
  /**
   * Where the job queue (core/jobs.ts, pg-boss) runs its statements: PostgreSQL, a small pool of
   * its own on the same URL; PGlite, the one embedded connection itself.
   */
  jobTarget: { kind: 'postgres'; url: string } | { kind: 'pglite'; client: unknown };
}

/** One pg pool's connections: open, idle among them, and requests waiting for one. */
export interface PoolStats {
  pool: 'main' | 'pages';
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** The advisory lock key of migrations and seed (any constant the application owns). */
const STARTUP_LOCK = 727_001;
/** Held shared by every server for its lifetime, exclusively by a restore (727_002 is the mail retry's). */
const SERVER_LOCK = 727_003;
/** After a lost lock connection, the next attempt to take it again. */
const SERVER_LOCK_RETRY_MS = 2000;

/**
 * The restore's side of SERVER_LOCK: taken exclusively on a connection of its own if no server
 * holds it (answers undefined and how many do otherwise). Kept until release().
 */
export async function tryServerLockExclusive(
  databaseUrl: string,
): Promise<{ release(): Promise<void>; backendPid: number } | { holders: number }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ ok: boolean; pid: number }>(
      `select pg_try_advisory_lock(${SERVER_LOCK}) as ok, pg_backend_pid() as pid`,
    );
    if (rows[0].ok) return { backendPid: rows[0].pid, release: () => client.end().catch(() => {}) };
    const held = await client.query<{ n: number }>(
      `select count(distinct pid)::int as n from pg_locks
        where locktype = 'advisory' and classid = 0 and objid = ${SERVER_LOCK} and granted
          and database = (select oid from pg_database where datname = current_database())`,
    );
    await client.end().catch(() => {});
    return { holders: held.rows[0]?.n ?? 1 };
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
}

/** The migrations folder, found both from src/ (tsx, vitest) and from dist/ (tsup bundle). */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [
    path.join(here, '../../drizzle'),
    path.join(here, '../drizzle'),
    path.join(here, 'drizzle'),
  ]) {
    if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
  }
  throw new Error('No se encontró la carpeta de migraciones (drizzle/)');
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Told when an idle PostgreSQL connection is lost (default: one line on stderr). */
  onConnectionLost?: (err: Error) => void;
}

const CONNECT_TIMEOUT_MS = 30_000;

let lastWarning = 0;
/** At most one line per 10 s: a restart drops every idle connection at once. */
function warnConnectionLost(err: Error): void {
  if (Date.now() - lastWarning < 10_000) return;
  lastWarning = Date.now();
  console.error(
    `Conexión con PostgreSQL perdida (${errorLine(err)}); se reconectará en la próxima consulta.`,
  );
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const size = options.poolSize ?? 20;
    // A connection that cannot be had within 30 s fails the request (503) instead of holding it
    // forever. pg counts the wait for a free connection of the pool in it too, so it must stay
    // well above the queueing of a loaded server (a refused or reset connection fails at once
    // anyway). Keep-alive notices a peer that vanished without closing the socket.
    // No JIT: the application's statements run in milliseconds, and compiling one (above
    // jit_above_cost, which a year of a big network's rows passes) took 80 ms to seconds on a
    // busy machine, more than running it (issue 28's scale bench).
    const common = {
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      options: '-c jit=off',
    };
    const pool = new pg.Pool({ ...common, max: size });
    const pagesPool = new pg.Pool({
      ...common,
      max: Math.max(2, Math.ceil(size / 2)),
      options: '-c jit=off -c plan_cache_mode=force_generic_plan',
    });
    // A connection the server dropped (restart, network cut) emits 'error': on its pool while
    // idle, on the client itself while checked out between two queries (a transaction waiting
    // for other work). Unheard, either would end the process. The broken connection is then
    // discarded and a new one opened when needed; the request that held it answers 503.
    const onLost = options.onConnectionLost ?? warnConnectionLost;
    for (const p of [pool, pagesPool]) {
      p.on('error', onLost);
      p.on('connect', (client) => client.on('error', onLost));
    }
    const db = drizzlePg(pool);
    const serverLock = sharedServerLock(() => new pg.Client(common), onLost);
    return {
      db,
      pagesDb: drizzlePg(pagesPool),
      kind: 'postgres',
      jobTarget: { kind: 'postgres', url: options.databaseUrl },
      async query(text, params) {
        const res = await pool.query(text, params as unknown[]);
        return res.rows;
      },
      migrate: () => migratePg(db, { migrationsFolder: migrationsFolder() }),
      async exclusive(fn) {
        const client = await pool.connect();
        try {
          await client.query(`select pg_advisory_lock(${STARTUP_LOCK})`);
          return await fn();
        } finally {
          await client.query(`select pg_advisory_unlock(${STARTUP_LOCK})`).catch(() => {});
          client.release();
        }
      },
      holdServerLock: () => serverLock.hold(),
      close: async () => {
        await serverLock.stop();
        await Promise.all([pool.end(), pagesPool.end()]);
      },
      poolStats: () =>
        (
          [
            ['main', pool],
            ['pages', pagesPool],
          ] as const
        ).map(([name, p]) => ({
          pool: name,
          total: p.totalCount,
          idle: p.idleCount,
          waiting: p.waitingCount,
          max: p.options.max ?? 10,
        })),
    };
  }
  const dataDir = path.resolve(options.dataDir ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all(
    [
      import('@electric-sql/pglite'),
      // The trigram indexes of the quick search (migration 0002 creates the extension).
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ],
  );
  const client = new PGlite(path.join(dataDir, 'pgdata'), { extensions: { pg_trgm } });
  await client.waitReady;
  const db = drizzlePglite(client) as unknown as Database;
  return {
    db,
    pagesDb: db,
    kind: 'pglite',
    jobTarget: { kind: 'pglite', client },
    async query(text, params) {
      const res = await client.query(text, params as unknown[]);
      return res.rows as never;
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    exclusive: (fn) => fn(),
    holdServerLock: async () => {},
    close: () => client.close(),
    poolStats: () => [],
  };
}

interface LockClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(event: 'error' | 'end', listener: (err?: Error) => void): unknown;
}

/** SERVER_LOCK held shared on a dedicated connection, taken again whenever that one is lost. */
function sharedServerLock(newClient: () => LockClient, onLost: (err: Error) => void) {
  let client: LockClient | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let waitingSaid = false;
  const again = () => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      take().catch(again);
    }, SERVER_LOCK_RETRY_MS);
    retry.unref();
  };
  const take = async () => {
    const c = newClient();
    client = c;
    let lost = false;
    const lose = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (client === c) client = undefined;
      c.end().catch(() => {});
      if (stopped) return;
      if (err) onLost(err);
      again();
    };
    c.on('error', lose);
    c.on('end', () => lose());
    try {
      await c.connect();
      const [{ ok }] = (await c.query(`select pg_try_advisory_lock_shared(${SERVER_LOCK}) as ok`)).rows;
      if (!ok) {
        // A restore holds it: this server waits for it to end (and says so once).
        if (!waitingSaid) console.error('La base de datos se está restaurando: esperando a que termine...');
        waitingSaid = true;
        await c.query(`select pg_advisory_lock_shared(${SERVER_LOCK})`);
      }
    } catch (err) {
      lose(err as Error);
      throw err;
    }
  };
  return {
    hold: () => take(),
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
