// Opens the database: PGlite in a data folder by default, PostgreSQL when a URL is given.
// Both sides speak the same SQL and run the same migrations from ./drizzle.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Each side's driver is loaded only when that side is used: a PGlite start never loads pg.
import type { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import * as schema from './tables';

export type Database = ReturnType<typeof drizzlePg<typeof schema>>;

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
  close(): Promise<void>;
}

/** The advisory lock key of migrations and seed (any constant the application owns). */
const STARTUP_LOCK = 727_001;

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
  console.error(`Conexión con PostgreSQL perdida (${err.message}); se reconectará en la próxima consulta.`);
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
    const common = {
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    };
    const pool = new pg.Pool({ ...common, max: size });
    const pagesPool = new pg.Pool({
      ...common,
      max: Math.max(2, Math.ceil(size / 2)),
      options: '-c plan_cache_mode=force_generic_plan',
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
    const db = drizzlePg(pool, { schema });
    return {
      db,
      pagesDb: drizzlePg(pagesPool, { schema }),
      kind: 'postgres',
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
      close: async () => {
        await Promise.all([pool.end(), pagesPool.end()]);
      },
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
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    pagesDb: db,
    kind: 'pglite',
    async query(text, params) {
      const res = await client.query(text, params as unknown[]);
      return res.rows as never;
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: migrationsFolder() }),
    exclusive: (fn) => fn(),
    close: () => client.close(),
  };
}
