// Security hardening: headers on every answer, where a query token is accepted, what a token
// must carry, long path parameters, what catalogue lookups show without .view, avatars, and
// logged database errors without their parameters.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { nowMs, pinClock } from '../src/core/lima';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  api,
  createDealerUser,
  createTestApp,
  JWT_SECRET,
  login,
  type TestContext,
  testClockInstant,
  uniq,
} from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

/** An app on the test database with extra options (a web client folder, a log sink). */
async function withApp(
  opts: { webDist?: string; logStream?: { write(line: string): void } },
  use: (app: FastifyInstance) => Promise<void>,
  extra?: (app: FastifyInstance) => void,
): Promise<void> {
  const app = await buildApp({ handle: t.handle, config: loadConfig({}), jwtSecret: JWT_SECRET, ...opts });
  extra?.(app);
  try {
    await app.ready();
    await use(app);
  } finally {
    await app.close();
  }
}

function expectSecurityHeaders(headers: Record<string, unknown>, where: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, where).toContain("default-src 'self'");
  expect(csp, where).toContain("script-src 'self'");
  expect(csp, where).toContain("frame-ancestors 'none'");
  expect(csp, where).toContain("object-src 'none'");
  expect(csp, where).not.toContain('unsafe-eval');
  expect(csp, where).not.toContain('upgrade-insecure-requests');
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['referrer-policy'], where).toBe('no-referrer');
  expect(headers['x-frame-options'], where).toBe('DENY');
}

describe('security headers', () => {
  it('are on /, /encuesta, client routes, assets, API answers, errors and /api/docs', async () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(dist, 'index.html'), '<html><body>cliente</body></html>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    try {
      await withApp({ webDist: dist }, async (app) => {
        const token = await login(app);
        for (const [url, status, auth] of [
          ['/', 200, false],
          ['/encuesta?token=abc123', 200, false],
          ['/main/dealer', 200, false],
          ['/assets/app-1.js', 200, false],
          ['/api/zones', 200, true],
          ['/api/zones', 401, false],
          ['/api/no-existe', 404, false],
          ['/api/docs', 200, false],
        ] as const) {
          const res = await api(app, 'GET', url, auth ? { token } : {});
          expect(res.status, url).toBe(status);
          expectSecurityHeaders(res.headers, url);
        }
        const page = await api(app, 'GET', '/encuesta?token=abc123');
        expect(page.raw.toString()).toContain('cliente');
      });
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('download links: a one-use ticket, never the session', () => {
  const ticketFor = async (path: string, token = admin) =>
    api(t.app, 'POST', '/api/auth/download-ticket', { token, body: { path } });
  const refused = (res: { status: number; body: any }) => {
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe(
      'El enlace de descarga no es válido o ya venció. Vuelva a descargar el archivo desde la aplicación.',
    );
  };

  it('refuses the session token in the address, even an old link that worked before', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const enc = encodeURIComponent(res.body.result.encrypted_access_token);
    const raw = encodeURIComponent(res.body.result.access_token);
    for (const url of [
      `/api/zones/export?enc_auth_token=${enc}`,
      `/api/sales/template?token=${raw}`,
      `/api/table-stats/export?access_token=${raw}`,
    ])
      refused(await api(t.app, 'GET', url));
    // Elsewhere a query token is no session at all.
    const other = await api(t.app, 'GET', `/api/zones?enc_auth_token=${enc}`);
    expect(other.status).toBe(401);
    expect(other.body.error.message).toBe('Debe iniciar sesión para continuar');
  });

  it('serves its own path once, with the query the client adds; not another path, not twice', async () => {
    const issued = await ticketFor('/api/zones/export?columns=name');
    expect(issued.status).toBe(200);
    expect(issued.body.result.expires_in_seconds).toBe(60);
    const { ticket, url } = issued.body.result;
    expect(url).toBe(`/api/zones/export?columns=name&ticket=${ticket}`);
    // Another download with this ticket: refused, and the ticket still serves its own path.
    refused(await api(t.app, 'GET', `/api/dealers/export?ticket=${ticket}`));
    const file = await api(t.app, 'GET', url);
    expect(file.status).toBe(200);
    expect(file.raw.subarray(0, 2).toString()).toBe('PK');
    refused(await api(t.app, 'GET', url));
    // A ticket is only for a download; a made-up one serves nothing.
    const list = await ticketFor('/api/zones');
    expect(list.status).toBe(422);
    expect(list.body.error.message).toBe('Ruta no es una descarga de esta aplicación');
    refused(await api(t.app, 'GET', `/api/zones/export?ticket=${'A'.repeat(43)}`));
    // Not for a call that is not a download either: as if there were no session.
    const page = await api(
      t.app,
      'GET',
      `/api/zones?ticket=${(await ticketFor('/api/zones/export')).body.result.ticket}`,
    );
    expect(page.status).toBe(401);
  });

  it('expires after 60 seconds (pinned clock) and ends with the session it came from', async () => {
    const issued = (await ticketFor('/api/sales/template')).body.result;
    pinClock(nowMs() + 61_000);
    try {
      refused(await api(t.app, 'GET', issued.url));
    } finally {
      pinClock(testClockInstant());
    }
    const fresh = (await ticketFor('/api/sales/template')).body.result;
    pinClock(nowMs() + 55_000);
    try {
      expect((await api(t.app, 'GET', fresh.url)).status).toBe(200);
    } finally {
      pinClock(testClockInstant());
    }
    // A dealer's ticket: the session's logout ends it.
    const u = await createDealerUser(t.app, admin);
    const used = (await ticketFor('/api/sales/template', u.token)).body.result;
    expect((await api(t.app, 'GET', used.url)).status).toBe(200);
    const mine = (await ticketFor('/api/sales/template', u.token)).body.result;
    expect((await api(t.app, 'POST', '/api/auth/logout', { token: u.token })).status).toBe(200);
    const after = await api(t.app, 'GET', mine.url);
    expect(after.status).toBe(401);
  });
});

describe('token claims', () => {
  it('refuses a token signed with the key but without exp, or issued in the future', async () => {
    const now = Math.floor(Date.now() / 1000);
    // The signer keeps a given iat and adds one when missing (unless noTimestamp).
    const sign = (payload: object) =>
      'iat' in payload ? t.app.jwt.sign(payload) : t.app.jwt.sign(payload, { noTimestamp: true } as never);
    const good = sign({ sub: '1', tv: 0, iat: now, exp: now + 600 });
    expect((await api(t.app, 'GET', '/api/zones', { token: good })).status).toBe(200);
    // A little clock skew between instances is fine.
    const skewed = sign({ sub: '1', tv: 0, iat: now + 30, exp: now + 600 });
    expect((await api(t.app, 'GET', '/api/zones', { token: skewed })).status).toBe(200);
    for (const [what, payload] of [
      ['no exp', { sub: '1', tv: 0, iat: now }],
      ['no iat', { sub: '1', tv: 0, exp: now + 600 }],
      ['iat in the future', { sub: '1', tv: 0, iat: now + 3600, exp: now + 7200 }],
      ['longer than any session', { sub: '1', tv: 0, iat: now, exp: now + 365 * 24 * 3600 }],
    ] as const) {
      const token = sign(payload);
      const res = await api(t.app, 'GET', '/api/zones', { token });
      expect(res.status, what).toBe(401);
      expect(res.body.error.message).toBe('Sesión expirada o token inválido, inicie sesión nuevamente');
    }
  });
});

describe('long path parameters', () => {
  it('answer the envelope (404: no such record), not a bare 414', async () => {
    for (const len of [101, 400, 5000]) {
      for (const url of [`/api/zones/get/${'9'.repeat(len)}`, `/api/zones/${'a'.repeat(len)}`]) {
        const res = await api(t.app, url.includes('/get/') ? 'GET' : 'DELETE', url, { token: admin });
        expect(res.status, `${len} ${url.slice(0, 20)}`).toBe(404);
        expect(res.body).toEqual({
          success: false,
          result: null,
          error: { code: 404, message: 'El registro solicitado no existe' },
        });
      }
    }
    const badEscape = await api(t.app, 'GET', '/api/zones/get/%E0%A4%A', { token: admin });
    expect(badEscape.status).toBe(400);
    expect(badEscape.body.error.message).toBe('La dirección solicitada no es válida');
  });
});

describe('catalogue lookups without .view', () => {
  let staff: string;
  let dealerId: number;
  beforeAll(async () => {
    const code = uniq('LK');
    const dealer = await api(t.app, 'POST', '/api/dealers', {
      token: admin,
      body: {
        code,
        name: `Autos Lookup ${code}`,
        ruc: '20123456789',
        email: 'ventas@lookup.pe',
        address_address1: 'Av. Secreta 123',
        address_phone: '014445555',
      },
    });
    expect(dealer.status, JSON.stringify(dealer.body)).toBe(200);
    dealerId = dealer.body.result.id;
    const username = uniq('staff').toLowerCase();
    const u = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username,
        email: `${username}@example.com`,
        full_name: 'Personal sin permisos',
        password: 'Staff-Pass-1',
        roles: [],
      },
    });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    staff = await login(t.app, username, 'Staff-Pass-1');
  });

  const leaks = (body: unknown) => {
    const text = JSON.stringify(body);
    return ['20123456789', 'ventas@lookup.pe', 'Av. Secreta', '014445555'].filter((s) => text.includes(s));
  };

  it('answers a dealer as id, code and name only (no RUC, e-mail, address)', async () => {
    const list = await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: staff });
    expect(list.status).toBe(200);
    const mine = list.body.result.find((d: { id: number }) => d.id === dealerId);
    expect(Object.keys(mine).sort()).toEqual(['active', 'code', 'id', 'name']);
    expect(leaks(list.body)).toEqual([]);
    const search = await api(t.app, 'GET', '/api/dealers/query-search?query=Lookup', { token: staff });
    expect(search.body.result.map((d: { id: number }) => d.id)).toContain(dealerId);
    expect(leaks(search.body)).toEqual([]);
    // Searching a hidden field finds nothing (it would tell the value otherwise).
    const byRuc = await api(t.app, 'GET', '/api/dealers/query-search?query=20123456789', { token: staff });
    expect(byRuc.body.result).toEqual([]);
    const one = await api(t.app, 'GET', `/api/dealers/get/${dealerId}`, { token: staff });
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.result).sort()).toEqual(['active', 'code', 'id', 'name']);
    // The administrator (Admin.Dealers.view) still reads the whole record.
    const full = await api(t.app, 'GET', `/api/dealers/get/${dealerId}`, { token: admin });
    expect(full.body.result).toMatchObject({ ruc: '20123456789', email: 'ventas@lookup.pe' });
    const fullSearch = await api(t.app, 'GET', '/api/dealers/query-search?query=20123456789', {
      token: admin,
    });
    expect(fullSearch.body.result.map((d: { id: number }) => d.id)).toContain(dealerId);
  });

  it('answers a role without its permission list', async () => {
    const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: staff });
    expect(roles.status).toBe(200);
    const adminRole = roles.body.result.find((r: { name: string }) => r.name === 'Administrador');
    expect(Object.keys(adminRole).sort()).toEqual(['active', 'description', 'id', 'is_static', 'name']);
    const one = await api(t.app, 'GET', `/api/roles/get/${adminRole.id}`, { token: staff });
    expect(one.status).toBe(200);
    expect(one.body.result.permissions).toBeUndefined();
    expect(JSON.stringify(one.body)).not.toContain('Admin.Dealers');
    const asAdmin = await api(t.app, 'GET', `/api/roles/get/${adminRole.id}`, { token: admin });
    expect(asAdmin.body.result.permissions).toContain('Admin.Dealers.view');
  });

  it('answers branches and companies without addresses', async () => {
    const branch = await api(t.app, 'POST', '/api/dealer-branches', {
      token: admin,
      body: {
        dealer_id: dealerId,
        code: uniq('S'),
        name: 'Sede Lookup',
        address_address1: 'Av. Secreta 456',
      },
    });
    expect(branch.status, JSON.stringify(branch.body)).toBe(200);
    const company = await api(t.app, 'POST', '/api/companies', {
      token: admin,
      body: { name: uniq('Empresa'), ruc: '20123456789', email: 'ventas@lookup.pe' },
    });
    expect(company.status, JSON.stringify(company.body)).toBe(200);
    const branches = await api(
      t.app,
      'GET',
      `/api/dealer-branches?perPage=-1&filter[dealer_id]=${dealerId}`,
      {
        token: staff,
      },
    );
    expect(branches.body.result).toEqual([
      expect.objectContaining({ name: 'Sede Lookup', dealer_id: dealerId }),
    ]);
    expect(leaks(branches.body)).toEqual([]);
    const companies = await api(t.app, 'GET', '/api/companies?perPage=-1', { token: staff });
    expect(companies.body.result.map((c: { id: number }) => c.id)).toContain(company.body.result.id);
    expect(leaks(companies.body)).toEqual([]);
  });
});

describe('avatar_url', () => {
  const me = async () =>
    (await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: admin })).body;
  const png =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

  it('refuses another site address in the profile and in the users form', async () => {
    const id = (await me()).result.user.id;
    for (const avatar_url of [
      'https://tracker.example.com/pixel.png',
      'http://10.0.0.5/a.png',
      '//evil.example.com/a.png',
      '/\\evil.example.com/a.png',
      'javascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'data:image/svg+xml;base64,PHN2Zz4=',
    ]) {
      const res = await api(t.app, 'PUT', `/api/user/${id}`, { token: admin, body: { avatar_url } });
      expect(res.status, avatar_url).toBe(422);
      expect(res.body.error.validationErrors[0].field).toBe('avatar_url');
      expect(res.body.error.validationErrors[0].message).toMatch(/^Avatar debe ser una imagen/);
    }
    const users = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: uniq('av').toLowerCase(),
        email: `${uniq('av').toLowerCase()}@example.com`,
        full_name: 'Con avatar externo',
        password: 'Avatar-Pass-1',
        avatar_url: 'https://tracker.example.com/pixel.png',
      },
    });
    expect(users.status).toBe(422);
    expect(users.body.error.validationErrors[0].field).toBe('avatar_url');
    expect((await me()).result.user.avatar_url).toBeNull();
  });

  it('keeps a small inline image, a path of this server, or none', async () => {
    const id = (await me()).result.user.id;
    for (const avatar_url of [png, '/avatars/admin.png', null]) {
      const res = await api(t.app, 'PUT', `/api/user/${id}`, { token: admin, body: { avatar_url } });
      expect(res.status, String(avatar_url)).toBe(200);
      expect((await me()).result.user.avatar_url).toBe(avatar_url);
    }
    const huge = `data:image/png;base64,${'A'.repeat(200_000)}`;
    const res = await api(t.app, 'PUT', `/api/user/${id}`, { token: admin, body: { avatar_url: huge } });
    expect(res.status).toBe(422);
  });
});

describe('logged database errors', () => {
  it('carry the SQL but not the values it was sent with', async () => {
    const lines: string[] = [];
    const secret = 'valor-secreto-4711@example.com';
    await withApp(
      { logStream: { write: (line: string) => void lines.push(line) } },
      async (app) => {
        const res = await api(app, 'GET', '/api/test-db-error');
        expect(res.status).toBe(500);
        expect(JSON.stringify(res.body)).not.toContain(secret);
      },
      (app) => {
        app.get('/api/test-db-error', async () => {
          await (app.ctx.handle.db as any).execute(
            sql`select * from tabla_que_no_existe where email = ${secret} and ruc = ${'20999888777'}`,
          );
          return 'nunca';
        });
      },
    );
    const logged = lines.join('\n');
    expect(logged).toContain('tabla_que_no_existe');
    expect(logged).toContain('parámetros omitidos');
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain('20999888777');
  });
});
