// Per test file: a fresh copy of the seeded template database and an app on it.
// `api` sends a request with app.inject and answers {status, body, headers}.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { limaDateOf } from '@app/contracts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app';
import { type AppConfig, loadConfig, type RateLimits } from '../src/config';
import { limaToday, pinClock } from '../src/core/lima';
import { type DatabaseHandle, openDatabase } from '../src/db/client';
import { ADMIN_PASSWORD, ADMIN_USERNAME, databaseUrlFor, dropDatabaseWhenIdle } from './template';

export { ADMIN_PASSWORD, ADMIN_USERNAME };

/**
 * The instant the suite's business clock is pinned at (core/lima), from TEST_CLOCK: 'noon' (12:00
 * in Lima today), 'night' (23:30 in Lima, when UTC's day is already tomorrow: the default, so a
 * date read from the wrong clock fails at any hour), 'yearend' (22:00 on 31 December in Lima,
 * when UTC's year is already the next) or an ISO instant. scripts/test.mjs runs the date
 * suites at all three.
 */
export function testClockInstant(name = process.env.TEST_CLOCK || 'night'): number {
  const today = limaDateOf(Date.now());
  const at: Record<string, string> = {
    noon: `${today}T12:00:00-05:00`,
    night: `${today}T23:30:00-05:00`,
    yearend: `${today.slice(0, 4)}-12-31T22:00:00-05:00`,
  };
  const ms = Date.parse(at[name] ?? name);
  if (!Number.isFinite(ms)) throw new Error(`TEST_CLOCK no válido: ${name}`);
  return ms;
}
pinClock(testClockInstant());

/** Today in Lima on the suite's clock (what the server calls today), YYYY-MM-DD. */
export const testToday = () => limaToday();

/** The day `offset` days from the suite's today, YYYY-MM-DD. */
export const testDay = (offset: number) =>
  new Date(Date.parse(`${testToday()}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

export const JWT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

export interface TestContext {
  app: FastifyInstance;
  handle: DatabaseHandle;
  /** The test database's URL on PostgreSQL (TEST_DATABASE_URL); undefined on PGlite. */
  databaseUrl?: string;
  /** The configuration the app was built with. */
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * Per-address limits for tests: the suites log in and call the public survey many times from one
 * address (app.inject), so they run with limits no test reaches. A test of the limits passes its own.
 */
export const TEST_RATE_LIMITS: RateLimits = { login: 100_000, survey: 100_000, upload: 100_000 };

export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  /** A test that reads the log lines passes its logger and stream. */
  logging: Pick<BuildAppOptions, 'logger' | 'logStream'> = {},
): Promise<TestContext> {
  const url = process.env.TEST_DATABASE_URL;
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  let databaseUrl: string | undefined;
  if (url) {
    const name = `t_api_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('templateDb')}`);
    databaseUrl = databaseUrlFor(url, name);
    handle = await openDatabase({ databaseUrl, poolSize: 5 });
    cleanup = async () => {
      await dropDatabaseWhenIdle(admin, name);
    };
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'api-test-'));
    cpSync(inject('templateDir'), dir, { recursive: true });
    handle = await openDatabase({ dataDir: dir });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const config: AppConfig = {
    ...loadConfig({}),
    adminUsername: ADMIN_USERNAME,
    dataDir: '',
    rateLimits: TEST_RATE_LIMITS,
    // The stub servers of the external systems and SMTP listen on 127.0.0.1.
    externalHostsAllow: ['127.0.0.1'],
    ...overrides,
  };
  const app = await buildApp({ handle, config, jwtSecret: JWT_SECRET, ...logging });
  await app.ready();
  return {
    app,
    handle,
    databaseUrl,
    config,
    async close() {
      await app.close();
      await handle.close();
      await cleanup();
    },
  };
}

/**
 * A second server on the same database as `t` (several instances behind a balancer), in this
 * process: on PostgreSQL its own pool on the same database; on PGlite the same database instance
 * (one embedded connection). Close it before `t`.
 */
export async function createPeerApp(
  t: TestContext,
): Promise<Omit<TestContext, 'close'> & { close(): Promise<void> }> {
  const handle = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, poolSize: 5 }) : t.handle;
  const app = await buildApp({ handle, config: t.config, jwtSecret: JWT_SECRET });
  await app.ready();
  return {
    app,
    handle,
    databaseUrl: t.databaseUrl,
    config: t.config,
    async close() {
      await app.close();
      if (handle !== t.handle) await handle.close();
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  body: { success: boolean; result: T; error: any };
  headers: Record<string, unknown>;
  raw: Buffer;
}

export async function api<T = any>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.rawBody !== undefined) headers['content-type'] ??= 'application/json';
  const res = await app.inject({
    method,
    url,
    headers,
    payload: opts.rawBody ?? (opts.body === undefined ? undefined : (opts.body as object)),
  });
  let body: any;
  try {
    body = res.json();
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, headers: res.headers, raw: res.rawPayload };
}

export async function login(app: FastifyInstance, username = ADMIN_USERNAME, password = ADMIN_PASSWORD) {
  const res = await api(app, 'POST', '/api/auth/login', { body: { username, password } });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result.access_token as string;
}

let seq = 0;
/** A unique short suffix for codes and names within a test file. */
export const uniq = (prefix = 'T') => `${prefix}${Date.now().toString(36).slice(-4)}${++seq}`;

/** A dealer and a user of the Concesionario role bound to it; answers the dealer id and a token. */
export async function createDealerUser(
  app: FastifyInstance,
  adminToken: string,
  code = uniq('D'),
): Promise<{ dealerId: number; token: string; userId: number; username: string }> {
  const dealer = await api(app, 'POST', '/api/dealers', {
    token: adminToken,
    body: { code, name: `Concesionario ${code}` },
  });
  if (dealer.status !== 200) throw new Error(`dealer: ${JSON.stringify(dealer.body)}`);
  const roles = await api(app, 'GET', '/api/roles?perPage=-1', { token: adminToken });
  const dealerRole = roles.body.result.find((r: { name: string }) => r.name === 'Concesionario');
  const username = `u${code.toLowerCase()}`;
  const user = await api(app, 'POST', '/api/users', {
    token: adminToken,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: `Usuario ${code}`,
      password: 'Dealer-Pass-1',
      dealer_id: dealer.body.result.id,
      roles: [dealerRole.id],
    },
  });
  if (user.status !== 200) throw new Error(`user: ${JSON.stringify(user.body)}`);
  return {
    dealerId: dealer.body.result.id,
    userId: user.body.result.id,
    username,
    token: await login(app, username, 'Dealer-Pass-1'),
  };
}

/**
 * A user of the given dealer whose role holds every permission (Administrador): only the dealer
 * scope stands in its way. Returns its token.
 */
export async function createDealerAdmin(
  app: FastifyInstance,
  adminToken: string,
  dealerId: number,
): Promise<string> {
  const roles = await api(app, 'GET', '/api/roles?perPage=-1', { token: adminToken });
  const all = roles.body.result.find((r: { name: string }) => r.name === 'Administrador');
  const username = uniq('da').toLowerCase();
  const user = await api(app, 'POST', '/api/users', {
    token: adminToken,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: 'Administrador de concesionario',
      password: 'Dealer-Pass-1',
      dealer_id: dealerId,
      roles: [all.id],
    },
  });
  if (user.status !== 200) throw new Error(`user: ${JSON.stringify(user.body)}`);
  return login(app, username, 'Dealer-Pass-1');
}
