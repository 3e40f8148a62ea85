// Prometheus metrics at GET /api/metrics (fastify-metrics over prom-client): the request latency
// per route (histogram `http_request_duration_seconds{method,route,status_code}`, the route's
// pattern, never the raw URL), the process's defaults (CPU, memory, event-loop lag, GC), the
// PostgreSQL pools (connections open, idle, requests waiting for one), the password hashes
// running and waiting (core/passwords.ts) and the mail outbox not delivered yet (the one queue of
// work the server keeps). Each app has its own registry (tests build several apps per process).
//
// Who may read them: a caller on the loopback interface (a scraper on the same machine), or one
// that sends `Authorization: Bearer <METRICS_TOKEN>`. Anyone else: 401/403 in the envelope. Behind
// a proxy on the same machine set TRUST_PROXY, or every request seems to come from loopback.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as fastifyMetricsModule from 'fastify-metrics';
import promClient from 'prom-client';
import { ForbiddenError, UnauthorizedError } from './errors';
import { contractOf } from './openapi';
import { passwordSlots } from './passwords';

export const METRICS_PATH = '/api/metrics';

export const METRICS_FORBIDDEN_MESSAGE =
  'Las métricas solo se sirven desde la propia máquina o con el token de métricas (METRICS_TOKEN).';
export const METRICS_BAD_TOKEN_MESSAGE = 'El token de métricas no es válido.';

/** Latency buckets (seconds): from a cached lookup to a large export. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The mail outbox's count is read at scrape time; a slow database must not hold the scrape. */
const OUTBOX_TIMEOUT_MS = 1_000;

// A CommonJS module with `exports.default`: Node's ESM import gives the exports object as the
// default, a bundler's interop may give the function itself.
type MetricsPlugin = (typeof fastifyMetricsModule)['default'];
const fastifyMetrics: MetricsPlugin =
  (fastifyMetricsModule.default as unknown as { default?: MetricsPlugin }).default ??
  fastifyMetricsModule.default;

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopback(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return v4.startsWith('127.') || ip === '::1';
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return m?.[1];
}

/** Loopback callers, or the METRICS_TOKEN bearer; a wrong token is refused even from loopback. */
function guard(token: string | undefined) {
  return async (request: FastifyRequest) => {
    const sent = bearerOf(request);
    if (sent !== undefined && token) {
      if (!timingSafeEqual(digest(sent), digest(token)))
        throw new UnauthorizedError(METRICS_BAD_TOKEN_MESSAGE);
      return;
    }
    if (isLoopback(request.ip)) return;
    if (token) throw new UnauthorizedError(METRICS_BAD_TOKEN_MESSAGE);
    throw new ForbiddenError(METRICS_FORBIDDEN_MESSAGE);
  };
}

export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const { handle, config } = app.ctx;
  const registry = new promClient.Registry();
  await app.register(fastifyMetrics, {
    promClient,
    endpoint: {
      url: METRICS_PATH,
      method: 'GET',
      logLevel: 'warn',
      exposeHeadRoute: false,
      onRequest: guard(config.metricsToken),
      schema: {
        tags: ['Operacion'],
        summary:
          'Metricas Prometheus (texto): latencia por ruta, conexiones a la base, contraseñas y correo en cola. Solo desde la propia maquina o con METRICS_TOKEN como bearer.',
        security: [{ bearerAuth: [] }, {}],
        // Text, not the envelope; 401 for a wrong METRICS_TOKEN, 403 from another machine.
        ...contractOf({ access: 'permission', file: 'text/plain' }),
      },
      handler: () => undefined,
    },
    defaultMetrics: { enabled: true, register: registry },
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      registeredRoutesOnly: true,
      routeBlacklist: [METRICS_PATH],
      overrides: {
        histogram: { buckets: LATENCY_BUCKETS, registers: [registry] },
        summary: { registers: [registry] },
      },
    },
  });

  const poolGauge = (
    name: string,
    help: string,
    pick: (s: ReturnType<typeof handle.poolStats>[number]) => number,
  ) =>
    new promClient.Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        this.reset();
        for (const s of handle.poolStats()) this.set({ pool: s.pool }, pick(s));
      },
    });
  poolGauge('db_pool_connections_total', 'Conexiones abiertas del pool de PostgreSQL', (s) => s.total);
  poolGauge('db_pool_connections_idle', 'Conexiones libres del pool de PostgreSQL', (s) => s.idle);
  poolGauge('db_pool_requests_waiting', 'Consultas esperando una conexion del pool', (s) => s.waiting);
  poolGauge('db_pool_connections_max', 'Tamaño máximo del pool de PostgreSQL', (s) => s.max);

  new promClient.Gauge({
    name: 'password_hashes_running',
    help: 'Hashes o verificaciones de contraseña (argon2) en curso',
    registers: [registry],
    collect() {
      this.set(passwordSlots.running);
    },
  });
  new promClient.Gauge({
    name: 'password_hashes_waiting',
    help: 'Hashes o verificaciones de contraseña esperando turno',
    registers: [registry],
    collect() {
      this.set(passwordSlots.waiting);
    },
  });
  new promClient.Gauge({
    name: 'mail_outbox_messages',
    help: 'Correos de mail_outbox aun no entregados, por estado',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      this.set({ status: 'pending' }, 0);
      this.set({ status: 'failed' }, 0);
      let timer: NodeJS.Timeout | undefined;
      const rows = await Promise.race([
        handle.query<{ status: string; n: number }>(
          "select status, count(*)::int as n from mail_outbox where status in ('pending', 'failed') group by status",
        ),
        new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), OUTBOX_TIMEOUT_MS);
        }),
      ]).catch(() => null);
      clearTimeout(timer);
      for (const r of rows ?? []) this.set({ status: r.status }, r.n);
    },
  });
}
