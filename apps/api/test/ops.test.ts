// Operations: /api/health (liveness, no database), /api/ready (the database answers, else 503 in
// the envelope), /api/metrics (Prometheus text, only from loopback or with METRICS_TOKEN), and
// the password hashes through a bounded semaphore (at most PASSWORD_CONCURRENCY at once).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_BAD_TOKEN_MESSAGE, METRICS_FORBIDDEN_MESSAGE } from '../src/core/metrics';
import { hashPassword, passwordSlots, Semaphore, verifyPassword } from '../src/core/passwords';
import { NOT_READY_MESSAGE, READY_TIMEOUT_MS } from '../src/modules/ops';
import { ADMIN_PASSWORD, api, createTestApp, login, type TestContext } from './harness';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: 'token-de-metricas-0123456789' });
});
afterAll(() => t?.close());

const get = (url: string, opts: { remoteAddress?: string; token?: string } = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    remoteAddress: opts.remoteAddress,
    headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
  });

describe('health and readiness', () => {
  it('answers liveness without a session, in the envelope', async () => {
    const res = await api(t.app, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, error: null, result: { status: 'ok' } });
    expect(res.body.result.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is ready when the database answers', async () => {
    const res = await api(t.app, 'GET', '/api/ready');
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ status: 'ok', database: t.handle.kind });
  });

  it('answers 503 with a Spanish message when the database does not answer in time, and liveness still 200', async () => {
    const query = t.handle.query;
    // A database that hangs (a cut network, an exhausted pool): the query never answers.
    t.handle.query = () => new Promise(() => {});
    try {
      const t0 = performance.now();
      const res = await api(t.app, 'GET', '/api/ready');
      const ms = performance.now() - t0;
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        success: false,
        result: null,
        error: { code: 503, message: NOT_READY_MESSAGE },
      });
      expect(res.headers['retry-after']).toBeDefined();
      expect(ms).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(READY_TIMEOUT_MS + 10_000);
      expect((await api(t.app, 'GET', '/api/health')).status).toBe(200);
    } finally {
      t.handle.query = query;
    }
    expect((await api(t.app, 'GET', '/api/ready')).status).toBe(200);
  });

  it('answers 503 when the database is gone (closed)', async () => {
    const other = await createTestApp();
    try {
      await other.handle.close();
      const res = await api(other.app, 'GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body.error.message).toBe(NOT_READY_MESSAGE);
    } finally {
      await other.app.close();
      other.handle.close = async () => {};
      await other.close();
    }
  });

  it('documents both, and the metrics, in the OpenAPI document', async () => {
    const doc = (await api(t.app, 'GET', '/api/docs/json')).body as unknown as {
      paths: Record<string, { get?: { security?: unknown[] } }>;
    };
    expect(doc.paths['/api/health']?.get?.security).toEqual([]);
    expect(doc.paths['/api/ready']?.get?.security).toEqual([]);
    expect(doc.paths['/api/metrics']?.get).toBeDefined();
  });
});

describe('metrics', () => {
  it('serves Prometheus text to loopback: latency per route pattern, pools, password hashes, mail queue', async () => {
    await login(t.app);
    await api(t.app, 'GET', '/api/health');
    const res = await get('/api/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    // The route's pattern, not the URL a caller typed.
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{[^}]*method="POST"[^}]*route="\/api\/auth\/login"/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{[^}]*route="\/api\/health"[^}]*status_code="200"/,
    );
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toMatch(/^password_hashes_waiting 0$/m);
    expect(text).toMatch(/^mail_outbox_messages\{status="pending"\} \d+$/m);
    if (t.handle.kind === 'postgres') {
      expect(text).toMatch(/^db_pool_connections_total\{pool="main"\} [1-9]\d*$/m);
      expect(text).toMatch(/^db_pool_connections_idle\{pool="main"\} \d+$/m);
      expect(text).toMatch(/^db_pool_requests_waiting\{pool="main"\} 0$/m);
      expect(text).toMatch(/^db_pool_connections_max\{pool="main"\} \d+$/m);
    } else {
      expect(text).toContain('# TYPE db_pool_connections_total gauge');
    }
  });

  it('refuses another address without the token (403), a wrong token (401), and serves the right token', async () => {
    const remoteAddress = '203.0.113.7';
    const anonymous = await get('/api/metrics', { remoteAddress });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      success: false,
      result: null,
      error: { code: 401, message: METRICS_BAD_TOKEN_MESSAGE },
    });
    const wrong = await get('/api/metrics', { remoteAddress, token: 'otro-token' });
    expect(wrong.statusCode).toBe(401);
    // A session token of the application is not the metrics token.
    const session = await get('/api/metrics', { remoteAddress, token: await login(t.app) });
    expect(session.statusCode).toBe(401);
    const right = await get('/api/metrics', { remoteAddress, token: 'token-de-metricas-0123456789' });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('http_request_duration_seconds');
  });

  it('without METRICS_TOKEN, serves only loopback', async () => {
    const other = await createTestApp();
    try {
      const outside = await other.app.inject({
        method: 'GET',
        url: '/api/metrics',
        remoteAddress: '10.1.2.3',
      });
      expect(outside.statusCode).toBe(403);
      expect(outside.json().error.message).toBe(METRICS_FORBIDDEN_MESSAGE);
      const mapped = await other.app.inject({
        method: 'GET',
        url: '/api/metrics',
        remoteAddress: '::ffff:127.0.0.1',
      });
      expect(mapped.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('password hashes', () => {
  it('runs at most the semaphore limit at once, in order, and frees its slots', async () => {
    const s = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const task = (n: number) =>
      s.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        order.push(n);
        return n;
      });
    const all = Promise.all(Array.from({ length: 10 }, (_, n) => task(n)));
    expect(s.running).toBe(2);
    expect(s.waiting).toBe(8);
    expect(await all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([s.running, s.waiting]).toEqual([0, 0]);
    // A failing task frees its slot too.
    await expect(s.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(s.running).toBe(0);
  });

  it('hashes and verifies through the bounded slots, with argon2id parameters unchanged', async () => {
    const pending = Array.from({ length: 8 }, (_, i) => hashPassword(`Clave-${i}`));
    expect(passwordSlots.running).toBeLessThanOrEqual(passwordSlots.limit);
    expect(passwordSlots.waiting).toBe(8 - passwordSlots.limit);
    const hashes = await Promise.all(pending);
    for (const h of hashes) expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hashes[3], 'Clave-3')).toBe(true);
    expect(await verifyPassword(hashes[3], 'Clave-4')).toBe(false);
    expect([passwordSlots.running, passwordSlots.waiting]).toEqual([0, 0]);
  });

  // Five: more than the hashes allowed at once, and what the lockout lets one account try at a
  // time (attempts in flight count against it, see login-security.test.ts).
  it('5 logins at once all succeed, and a cheap call is not stuck behind them', async () => {
    expect(passwordSlots.limit).toBeLessThan(5);
    const logins = Array.from({ length: 5 }, () =>
      api(t.app, 'POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } }),
    );
    await new Promise((r) => setImmediate(r));
    expect(passwordSlots.running).toBeLessThanOrEqual(passwordSlots.limit);
    const health = await api(t.app, 'GET', '/api/health');
    expect(health.status).toBe(200);
    const results = await Promise.all(logins);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
  });
});
