// Builds the Fastify application: envelope, auth, OpenAPI, every module's calls, and (when
// given) the built web client with an index.html fallback for client routes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyJwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import type { AppConfig } from './config';
import { APP_VERSION } from './core/app-info';
import { watchDownloadRoutes } from './core/download-ticket';
import { fail, notFoundEnvelope, registerEnvelope } from './core/envelope';
import { NotFoundError } from './core/errors';
import { JobRunner } from './core/jobs';
import { assertJsonDepth } from './core/json-depth';
import { registerMetrics } from './core/metrics';
import { registerOpenApi } from './core/openapi';
import { registerRateLimit } from './core/rate-limit';
import { registerModules } from './core/registry';
import { registerSecurityHeaders } from './core/security-headers';
import { type FileStorage, folderStorageFor } from './core/storage';
import type { DatabaseHandle } from './db/client';
import { redactErrorSerializer, redactRequestSerializer } from './lib/log-redact';
import { allowExternalHosts } from './lib/outbound-host';
import { API_MODULES } from './modules';

export { APP_NAME, APP_VERSION } from './core/app-info';

/** JSON bodies above this answer 413; uploads have their own limits (multipart). */
export const BODY_LIMIT = 2 * 1024 * 1024;
export const UPLOAD_LIMIT = 20 * 1024 * 1024;
/** A path parameter up to this length reaches its route (whose id parser answers 404). */
export const MAX_PARAM_LENGTH = 500;

/** One registered route (HEAD twins included), for tests that walk every call. */
export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered, in order (see test/authorization-matrix.test.ts). */
    routeTable: RouteEntry[];
  }
}

export interface BuildAppOptions {
  handle: DatabaseHandle;
  config: AppConfig;
  jwtSecret: string;
  webDist?: string;
  logger?: boolean;
  /** Where log lines go (tests read them); standard output by default. */
  logStream?: { write(line: string): void };
  /** The file store (an object store when several servers run); DATA_DIR/files by default. */
  storage?: FileStorage;
}

function trustProxyOption(value: AppConfig['trustProxy'] | undefined) {
  if (typeof value === 'number') return (_address: string, hop: number) => hop < value;
  return value || false;
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Warnings and errors only by default: a 500 is always logged, a request costs no log line.
    logger: opts.logger === false ? false : loggerOptions(opts),
    bodyLimit: BODY_LIMIT,
    // Behind a reverse proxy set TRUST_PROXY, or every client shares the proxy's address; trusting
    // X-Forwarded-For from anyone would let a client pick its address (and dodge the limits).
    // A hop count trusts the nearest N proxies whatever their address (Fastify itself would
    // trust none for a number); never every hop (`true` is refused in config.ts).
    trustProxy: trustProxyOption(opts.config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    // While closing, new requests answer our own 503 envelope (registerClosingAnswer).
    return503OnClosing: false,
  });
  app.decorate('ctx', {
    handle: opts.handle,
    config: opts.config,
    jwtSecret: opts.jwtSecret,
    storage: opts.storage ?? folderStorageFor(opts.config.dataDir),
    jobs: undefined as unknown as JobRunner,
  });
  app.ctx.jobs = new JobRunner(app);
  app.addHook('onClose', () => app.ctx.jobs.stop());
  app.decorateRequest('auth', null);
  app.decorate('routeTable', [] as RouteEntry[]);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.routeTable.push({ method, url: route.url });
  });
  watchDownloadRoutes(app);
  allowExternalHosts(opts.config.externalHostsAllow ?? []);
  registerEnvelope(app);
  registerClosingAnswer(app);
  await registerSecurityHeaders(app);
  registerApiAnswerRules(app);
  // An empty body sent as JSON (e.g. a DELETE with a Content-Type header) is no body, not an error.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      assertJsonDepth(text);
    } catch (err) {
      return done(err as Error, undefined);
    }
    return jsonParser(request, text, done);
  });
  await app.register(fastifyJwt, { secret: opts.jwtSecret });
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT, files: 5, fields: 50 } });
  await registerOpenApi(app, APP_VERSION);
  // Before the modules: the plugin sees the routes registered after it (per-route limits).
  await registerRateLimit(app);
  // Before the modules too: the route latency is measured on the routes registered after it.
  await registerMetrics(app);

  registerModules(app, API_MODULES);

  const webDist =
    opts.webDist && existsSync(path.join(opts.webDist, 'index.html')) ? opts.webDist : undefined;
  if (webDist) {
    const root = path.resolve(webDist);
    // wildcard: files are looked up on each request, so a rebuild of the client (new hashed
    // assets) is served without restarting the server. Hashed assets never change: cached for good.
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: ['index.html'],
      setHeaders: (reply, filePath) => {
        const file = path.relative(root, filePath);
        if (file.startsWith(`assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else if (file === 'index.html') {
          reply.header('Cache-Control', 'no-cache');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (
      webDist &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api') &&
      !isFileRequest(url)
    ) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(notFoundEnvelope(request));
  });
  return app;
}

export const CLOSING_MESSAGE = 'El servidor se está reiniciando. Intente nuevamente en unos segundos.';

/**
 * Once the server is stopping (SIGTERM), a request that still arrives on an open connection is
 * not started: 503 in the envelope, `Connection: close`, so a balancer or the client retries it
 * on another instance. The requests already started finish.
 */
function registerClosingAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close').header('Retry-After', '2');
    return reply.status(503).send(fail({ code: 503, message: CLOSING_MESSAGE }));
  });
}

/** Longer addresses answer 414 (a real one, filters included, is a few hundred characters). */
export const MAX_URL_LENGTH = 8192;
export const URL_TOO_LONG_MESSAGE = 'La dirección solicitada es demasiado larga';

/**
 * Every API answer (JSON, xlsx exports, the login, errors) carries `Cache-Control: no-store`:
 * personal data is never kept by a browser or a proxy cache. A route may set a stricter value.
 * An address longer than MAX_URL_LENGTH answers 414 before any route runs.
 */
function registerApiAnswerRules(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api')) reply.header('Cache-Control', 'no-store');
    if (request.url.length > MAX_URL_LENGTH)
      return reply.status(414).send(fail({ code: 414, message: URL_TOO_LONG_MESSAGE }));
  });
}

/** Warnings and errors (or info), errors serialised without query parameters (log-redact). */
function loggerOptions(opts: BuildAppOptions): FastifyServerOptions['logger'] {
  return {
    level: opts.logger ? 'info' : (process.env.LOG_LEVEL ?? 'warn'),
    serializers: { err: redactErrorSerializer, req: redactRequestSerializer as never },
    ...(opts.logStream ? { stream: opts.logStream } : {}),
  };
}

/**
 * Errors the router raises before any route answer the envelope too: a parameter longer than
 * MAX_PARAM_LENGTH is no record (404), a malformed %-escape a bad address (400).
 */
function frameworkErrors(err: FastifyError, _request: unknown, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(404).send(fail({ code: 404, message: new NotFoundError().message }));
    return;
  }
  const message =
    err.code === 'FST_ERR_BAD_URL' ? 'La dirección solicitada no es válida' : 'La solicitud no es válida';
  reply.status(400).send(fail({ code: 400, message }));
}

/** A missing file (an old hashed asset, a typo) answers 404, not the client's index.html. */
function isFileRequest(url: string): boolean {
  if (url.startsWith('/assets/')) return true;
  const last = url.slice(url.lastIndexOf('/') + 1);
  return /\.[A-Za-z0-9]+$/.test(last);
}
