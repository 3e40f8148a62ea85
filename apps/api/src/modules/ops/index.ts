// Operations: liveness (/api/health: the process answers, no database) and readiness
// (/api/ready: the database answers a `select 1` within READY_TIMEOUT_MS, else 503 in the
// envelope), for a balancer, an orchestrator or the container's HEALTHCHECK. Both public and
// cheap; the metrics (/api/metrics) are registered by core/metrics.ts.
import { z } from 'zod';
import { defineAction } from '../../core/action';
import { APP_VERSION } from '../../core/app-info';
import { ServiceUnavailableError } from '../../core/errors';
import { defineModule } from '../../core/registry';

/** How long readiness waits for the database (a free connection included). */
export const READY_TIMEOUT_MS = 2_000;

export const NOT_READY_MESSAGE =
  'El servidor no esta listo: la base de datos no responde. Intente nuevamente en unos segundos.';

const tags = ['Operacion'];

const health = defineAction({
  method: 'GET',
  path: '/api/health',
  summary: 'Vida del proceso (no consulta la base de datos)',
  tags,
  access: 'public',
  result: z.object({ status: z.literal('ok'), version: z.string(), uptime_seconds: z.int() }),
  async handler() {
    return { status: 'ok', version: APP_VERSION, uptime_seconds: Math.round(process.uptime()) };
  },
});

/** Resolves with fn's result, or rejects once `ms` passed (fn keeps running; its result is dropped). */
async function within<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`sin respuesta en ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([fn(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const ready = defineAction({
  method: 'GET',
  path: '/api/ready',
  summary: 'Listo para atender: la base de datos responde (503 si no)',
  tags,
  access: 'public',
  result: z.object({ status: z.literal('ok'), database: z.string(), latency_ms: z.int() }),
  async handler({ app }) {
    const { handle } = app.ctx;
    const t0 = performance.now();
    try {
      await within(READY_TIMEOUT_MS, () => handle.query('select 1'));
    } catch {
      // The envelope's handler logs the 503 as one warning line and adds Retry-After.
      throw new ServiceUnavailableError(NOT_READY_MESSAGE);
    }
    return { status: 'ok', database: handle.kind, latency_ms: Math.round(performance.now() - t0) };
  },
});

export const opsModule = defineModule({ name: 'ops', actions: [health, ready] });
