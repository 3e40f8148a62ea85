// Per-address limits with @fastify/rate-limit: registered with `global: false`, so only the
// routes that declare `config: { rateLimit: perAddressLimit(kind) }` are counted (login and
// profile, the public survey, uploads: one budget for all the upload routes together). The counts live in the database (rate_limit_hits), not in
// the process: several instances on one PostgreSQL count together, so N instances behind a
// balancer still allow RATE_LIMIT_<KIND> per minute, not N times that.
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../config';
import { rateLimitHits } from '../db/schema';
import type { Db } from '../db/types';
import { TooManyRequestsError } from './errors';

export type RateLimitKind = keyof RateLimits;

/** The window of every limit: the configured numbers are per minute. */
export const RATE_WINDOW_MS = 60_000;

export const rateLimitMessage = (seconds: number) =>
  `Demasiadas solicitudes desde su dirección. Intente nuevamente en ${seconds} segundos.`;

/** Every this many counts, one instance sweeps the rows whose window ended. */
const SWEEP_EVERY = 500;

type Done = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The plugin's store interface (incr/child) over one upsert: the window starts with the first
 * request and is measured by the database's clock, the same for every instance.
 */
function databaseStore(getDb: () => Db) {
  let counted = 0;
  return class DatabaseRateLimitStore {
    /** The plugin builds the first store with its options; children are per route. */
    constructor(
      _options?: unknown,
      private readonly route = '',
    ) {}

    incr(key: string, done: Done, timeWindow: number): void {
      const window = sql`now() + ${timeWindow} * interval '1 millisecond'`;
      const ended = sql`${rateLimitHits.reset_at} <= now()`;
      getDb()
        .insert(rateLimitHits)
        .values({ key: `${this.route} ${key}`.slice(0, 300), hits: 1, reset_at: window })
        .onConflictDoUpdate({
          target: rateLimitHits.key,
          set: {
            hits: sql`case when ${ended} then 1 else ${rateLimitHits.hits} + 1 end`,
            reset_at: sql`case when ${ended} then ${window} else ${rateLimitHits.reset_at} end`,
          },
        })
        .returning({
          hits: rateLimitHits.hits,
          ttl: sql<number>`greatest(0, ceil(extract(epoch from ${rateLimitHits.reset_at} - now()) * 1000))::int`,
        })
        .then(([row]) => {
          done(null, { current: row.hits, ttl: row.ttl });
          if (++counted % SWEEP_EVERY === 0) void sweepRateLimits(getDb()).catch(() => {});
        }, done);
    }

    child(options: { groupId?: string; routeInfo?: { method?: string | string[]; url?: string } }) {
      // Routes of a group (every upload) share one count per address.
      if (options.groupId) return new DatabaseRateLimitStore(undefined, `group:${options.groupId}`);
      const info = options.routeInfo ?? {};
      return new DatabaseRateLimitStore(
        undefined,
        `${[info.method ?? ''].flat().join(',')} ${info.url ?? ''}`,
      );
    }
  };
}

/** Deletes the counts whose window ended a minute ago or more. */
export async function sweepRateLimits(db: Db): Promise<void> {
  await db.delete(rateLimitHits).where(lt(rateLimitHits.reset_at, sql`now() - interval '1 minute'`));
}

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: databaseStore(() => app.ctx.handle.db) as never,
    // Thrown: the envelope's error handler answers 429 {success:false, error:{code, message}};
    // the plugin has already set Retry-After (seconds) on the reply.
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(rateLimitMessage(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
}

const limitOf = (request: FastifyRequest, kind: RateLimitKind): number =>
  request.server.ctx.config.rateLimits?.[kind] ?? DEFAULT_RATE_LIMITS[kind];

/** Kinds whose routes share one budget per address, whichever route is called. */
const SHARED_KINDS: ReadonlySet<RateLimitKind> = new Set(['upload']);

/**
 * Route option: at most RATE_LIMIT_<KIND> requests per minute from one address (0: none). The
 * uploads share one budget: RATE_LIMIT_UPLOAD per minute across every upload route together.
 */
export function perAddressLimit(kind: RateLimitKind): RateLimitOptions {
  return {
    ...(SHARED_KINDS.has(kind) ? { groupId: kind } : {}),
    timeWindow: RATE_WINDOW_MS,
    max: (request) => Math.max(1, limitOf(request, kind)),
    allowList: (request) => limitOf(request, kind) <= 0,
  };
}
