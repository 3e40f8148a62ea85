// Logins: one account per typed name (e-mails unique whatever their case and spaces), one lockout
// per account whatever name is typed, per-address limits (429 + Retry-After), old attempts pruned.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { BUSY_LOGIN_MESSAGE, THROTTLE_MESSAGE } from '../src/modules/security/security.actions';
import { api, createDealerUser, createTestApp, JWT_SECRET, login, type TestContext, uniq } from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
const TAKEN_EMAIL = 'El valor de Email ya existe';

async function attempt(username: string, password: string) {
  return api(t.app, 'POST', '/api/auth/login', { body: { username, password } });
}

describe('e-mails and user names designate one account', () => {
  it('stores e-mails trimmed and lower-cased, and refuses another case of a user name', async () => {
    const name = uniq('mixto').toLowerCase();
    const res = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: name,
        email: `  ${name.toUpperCase()}@Example.COM `,
        full_name: 'Mixto',
        password: 'Mixto-Pass-1',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.email).toBe(`${name}@example.com`);
    const again = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: name.toUpperCase(),
        email: `${name}.2@example.com`,
        full_name: 'Otro',
        password: 'Mixto-Pass-1',
      },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('El valor de Usuario ya existe');
  });

  it('refuses an upper-case or spaced copy of another user e-mail through the user form', async () => {
    const victim = await createDealerUser(t.app, admin);
    const victimEmail = `${victim.username}@example.com`;
    for (const email of [victimEmail.toUpperCase(), `  ${victimEmail.replace('example', 'EXAMPLE')}  `]) {
      const created = await api(t.app, 'POST', '/api/users', {
        token: admin,
        body: { username: uniq('copia').toLowerCase(), email, full_name: 'Copia', password: 'Copia-Pass-1' },
      });
      expect(created.status, email).toBe(409);
      expect(created.body).toEqual({
        success: false,
        result: null,
        error: { code: 409, message: TAKEN_EMAIL },
      });
    }
    const other = await createDealerUser(t.app, admin);
    const updated = await api(t.app, 'PUT', `/api/users/${other.userId}`, {
      token: admin,
      body: { email: victimEmail.toUpperCase() },
    });
    expect(updated.status).toBe(409);
    expect(updated.body.error.message).toBe(TAKEN_EMAIL);
    // Saving the own e-mail again (another case) is no conflict.
    const same = await api(t.app, 'PUT', `/api/users/${other.userId}`, {
      token: admin,
      body: { email: `${other.username.toUpperCase()}@EXAMPLE.COM` },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.result.email).toBe(`${other.username}@example.com`);
  });

  it('refuses it through the profile, and login by e-mail still finds the right user', async () => {
    const victim = await createDealerUser(t.app, admin);
    const intruder = await createDealerUser(t.app, admin);
    const victimEmail = `${victim.username}@example.com`;
    for (const email of [victimEmail.toUpperCase(), ` ${victimEmail} `]) {
      const res = await api(t.app, 'PUT', `/api/user/${intruder.userId}`, {
        token: intruder.token,
        body: { email, current_password: 'Dealer-Pass-1' },
      });
      expect(res.status, email).toBe(409);
      expect(res.body.error.message).toBe(TAKEN_EMAIL);
    }
    // A user name that looks like an e-mail is taken as well.
    const mailName = `${uniq('nombre').toLowerCase()}@example.com`;
    const named = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: mailName,
        email: `x.${mailName}`,
        full_name: 'Nombre Correo',
        password: 'Nombre-Pass-1',
      },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    const clash = await api(t.app, 'PUT', `/api/user/${intruder.userId}`, {
      token: intruder.token,
      body: { email: mailName.toUpperCase(), current_password: 'Dealer-Pass-1' },
    });
    expect(clash.status).toBe(409);

    for (const typed of [victimEmail, ` ${victimEmail.toUpperCase()} `]) {
      const res = await attempt(typed, 'Dealer-Pass-1');
      expect(res.status, typed).toBe(200);
      expect(decode(res.body.result.access_token).sub).toBe(String(victim.userId));
    }
    const byName = await attempt(mailName.toUpperCase(), 'Nombre-Pass-1');
    expect(byName.status).toBe(200);
    expect(decode(byName.body.result.access_token).sub).toBe(String(named.body.result.id));
  });
});

describe('one lockout per account', () => {
  it('counts guesses by user name and e-mail together; the right password via the e-mail is then refused', async () => {
    const u = await createDealerUser(t.app, admin);
    const names = [u.username, `${u.username}@example.com`];
    for (let i = 0; i < 5; i++) {
      const res = await attempt(i % 2 === 0 ? names[0] : names[1].toUpperCase(), `mal-${i}`);
      expect(res.status, `guess ${i + 1}`).toBe(401);
    }
    for (let i = 5; i < 10; i++) {
      const res = await attempt(names[i % 2], `mal-${i}`);
      expect(res.status, `guess ${i + 1}`).toBe(429);
    }
    // The 11th, with the right password through the e-mail.
    const eleventh = await attempt(names[1], 'Dealer-Pass-1');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      success: false,
      result: null,
      error: { code: 429, message: THROTTLE_MESSAGE },
    });
    expect((await attempt(` ${names[0].toUpperCase()} `, 'Dealer-Pass-1')).status).toBe(429);
    // The failures are counted on the account (the locked attempts are not counted).
    const rows = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from login_attempts where user_id = $1 and not succeeded',
      [u.userId],
    );
    expect(rows[0].n).toBe(5);
  });

  it('20 wrong passwords sent at once: 5 reach the password check (401), the other 15 are refused (429)', async () => {
    const u = await createDealerUser(t.app, admin);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        attempt(i % 2 ? u.username : `${u.username}@example.com`, `mal-${i}`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    const rows = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from login_attempts where user_id = $1 and not succeeded',
      [u.userId],
    );
    expect(rows[0].n).toBe(5);
    // Locked: the right password is refused too.
    expect((await attempt(u.username, 'Dealer-Pass-1')).status).toBe(429);
  });

  it('parallel right passwords (12 at once: people sharing an account) all succeed and are recorded as successes', async () => {
    const u = await createDealerUser(t.app, admin);
    const answers = await Promise.all(Array.from({ length: 12 }, () => attempt(u.username, 'Dealer-Pass-1')));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    const rows = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from login_attempts where user_id = $1 and not succeeded',
      [u.userId],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe('a sign-in that waits too long for the five being checked', () => {
  it('is told to retry in seconds, not that its attempts failed, and locks nothing', async () => {
    const u = await createDealerUser(t.app, admin);
    // Five sign-ins of the account still being checked (a saturated server, or another server's
    // clock a little ahead): the sixth waits for them the whole 30 s.
    await t.handle.query(
      `insert into login_attempts (username, user_id, succeeded, ip, at)
       select $1, $2, null, '127.0.0.1', now() + interval '40 seconds' from generate_series(1, 5)`,
      [u.username, u.userId],
    );
    const busy = await attempt(u.username, 'Dealer-Pass-1');
    expect(busy.status).toBe(429);
    expect(busy.body.error.message).toBe(BUSY_LOGIN_MESSAGE);
    expect(busy.body.error.message).not.toBe(THROTTLE_MESSAGE);
    await t.handle.query('delete from login_attempts where user_id = $1', [u.userId]);
    expect((await attempt(u.username, 'Dealer-Pass-1')).status).toBe(200);
  }, 120_000);
});

describe('old attempts', () => {
  it('are pruned by later failures, unknown names included', async () => {
    const ghost = uniq('fantasma').toLowerCase();
    expect((await attempt(ghost, 'x')).status).toBe(401);
    const count = async (name: string) =>
      (
        await t.handle.query<{ n: number }>(
          'select count(*)::int as n from login_attempts where username = $1',
          [name],
        )
      )[0].n;
    expect(await count(ghost)).toBe(1);
    await t.handle.query(`update login_attempts set at = at - interval '25 hours' where username = $1`, [
      ghost,
    ]);
    const other = uniq('otro').toLowerCase();
    expect((await attempt(other, 'x')).status).toBe(401);
    expect(await count(ghost)).toBe(0);
    expect(await count(other)).toBe(1);
  });
});

describe('per-address limits', () => {
  let limited: FastifyInstance;
  beforeAll(async () => {
    // The same database, an app with real low limits.
    limited = await buildApp({
      handle: t.handle,
      config: { ...loadConfig({}), rateLimits: { login: 3, survey: 2, upload: 1 } },
      jwtSecret: JWT_SECRET,
    });
    await limited.ready();
  });
  afterAll(() => limited?.close());

  const send = (
    method: 'GET' | 'POST',
    url: string,
    opts: { payload?: object; ip?: string; headers?: Record<string, string> } = {},
  ) =>
    limited.inject({
      method,
      url,
      payload: opts.payload,
      headers: opts.headers,
      remoteAddress: opts.ip ?? '203.0.113.7',
    });

  const expectLimited = (res: Awaited<ReturnType<typeof send>>) => {
    expect(res.statusCode).toBe(429);
    const retry = Number(res.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(res.json()).toEqual({
      success: false,
      result: null,
      error: {
        code: 429,
        message: `Demasiadas solicitudes desde su dirección. Intente nuevamente en ${retry} segundos.`,
      },
    });
  };

  it('answers 429 with Retry-After and the Spanish envelope on the login', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await send('POST', '/api/auth/login', {
        payload: { username: uniq('spray'), password: 'x' },
      });
      expect(res.statusCode).toBe(401);
    }
    expectLimited(await send('POST', '/api/auth/login', { payload: { username: 'admin', password: 'x' } }));
    // A forged X-Forwarded-For does not make another address.
    expectLimited(
      await send('POST', '/api/auth/login', {
        payload: { username: 'admin', password: 'x' },
        headers: { 'x-forwarded-for': '198.51.100.9' },
      }),
    );
    // Another address is not affected.
    const elsewhere = await send('POST', '/api/auth/login', {
      payload: { username: 'nadie', password: 'x' },
      ip: '203.0.113.8',
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('limits the public survey (read and answer) and the sales upload', async () => {
    for (const method of ['GET', 'POST'] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await send(method, '/api/public/quiz/token-que-no-existe', {
          payload: method === 'POST' ? {} : undefined,
        });
        expect(res.statusCode, `${method} ${i}`).not.toBe(429);
      }
      expectLimited(
        await send(method, '/api/public/quiz/token-que-no-existe', {
          payload: method === 'POST' ? {} : undefined,
        }),
      );
    }
    const token = await login(t.app);
    const headers = { authorization: `Bearer ${token}` };
    expect((await send('POST', '/api/sales/import', { headers })).statusCode).not.toBe(429);
    expectLimited(await send('POST', '/api/sales/import', { headers }));
  });

  it('one upload budget per address across every upload route', async () => {
    const headers = { authorization: `Bearer ${await login(t.app)}` };
    const ip = '203.0.113.21';
    expect((await send('POST', '/api/workshop-infos/import', { headers, ip })).statusCode).not.toBe(429);
    for (const url of [
      '/api/sales/import',
      '/api/dispatches-objectives/import',
      '/api/daily-sales/import?year=2025&month=1',
      '/api/workshop-infos/import',
      '/api/figures/import',
      '/api/fees/import',
      '/api/documents/upload',
    ])
      expectLimited(await send('POST', url, { headers, ip }));
    // Another address has its own budget.
    expect((await send('POST', '/api/sales/import', { headers, ip: '203.0.113.22' })).statusCode).not.toBe(
      429,
    );
  });
});
