// Per-address limits with @fastify/rate-limit: registered with `global: false`, so only the
// routes that declare `config: { rateLimit: perAddressLimit(kind) }` are counted (login and
// profile, the public survey, uploads). The counts live in this process: several instances each
// count their own (the account lockout of the login is in the database and shared).
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_RATE_LIMITS, type RateLimits } from '../config';
import { TooManyRequestsError } from './errors';

export type RateLimitKind = keyof RateLimits;

/** The window of every limit: the configured numbers are per minute. */
export const RATE_WINDOW_MS = 60_000;

export const rateLimitMessage = (seconds: number) =>
  `Demasiadas solicitudes desde su direccion. Intente nuevamente en ${seconds} segundos.`;

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // Thrown: the envelope's error handler answers 429 {success:false, error:{code, message}};
    // the plugin has already set Retry-After (seconds) on the reply.
    errorResponseBuilder: (_request, context) =>
      new TooManyRequestsError(rateLimitMessage(Math.max(1, Math.ceil(context.ttl / 1000)))),
  });
}

const limitOf = (request: FastifyRequest, kind: RateLimitKind): number =>
  request.server.ctx.config.rateLimits?.[kind] ?? DEFAULT_RATE_LIMITS[kind];

/** Route option: at most RATE_LIMIT_<KIND> requests per minute from one address (0: none). */
export function perAddressLimit(kind: RateLimitKind): RateLimitOptions {
  return {
    timeWindow: RATE_WINDOW_MS,
    max: (request) => Math.max(1, limitOf(request, kind)),
    allowList: (request) => limitOf(request, kind) <= 0,
  };
}
