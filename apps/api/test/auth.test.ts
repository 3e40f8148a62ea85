import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  api,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
} from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());

describe('login', () => {
  it('answers a short session without rememberMe and a long one with it', async () => {
    const short = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(short.status).toBe(200);
    expect(short.body.result.expire_in_seconds).toBe(8 * 3600);
    const s = decode(short.body.result.access_token);
    expect(s.exp - s.iat).toBe(8 * 3600);
    expect(short.body.result.encrypted_access_token).toBeTruthy();
    const long = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD, rememberMe: true },
    });
    expect(long.body.result.expire_in_seconds).toBe(30 * 24 * 3600);
    const l = decode(long.body.result.access_token);
    expect(l.exp - l.iat).toBe(30 * 24 * 3600);
  });

  it('accepts the email as user name', async () => {
    const u = await createDealerUser(t.app, admin);
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: `${u.username}@EXAMPLE.com`, password: 'Dealer-Pass-1' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses wrong credentials with 401 and the Spanish message', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: 'nope' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      result: null,
      error: { code: 401, message: 'Usuario o contraseña incorrectos' },
    });
    const unknown = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: 'nadie', password: 'x' },
    });
    expect(unknown.status).toBe(401);
  });

  it('locks a user name for 15 minutes after 5 failures (6th attempt 429), even with the right password', async () => {
    const u = await createDealerUser(t.app, admin);
    for (let i = 0; i < 5; i++) {
      const res = await api(t.app, 'POST', '/api/auth/login', {
        body: { username: u.username, password: 'mal' },
      });
      expect(res.status).toBe(401);
    }
    const sixth = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: u.username, password: 'Dealer-Pass-1' },
    });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error.message).toBe('Demasiados intentos fallidos. Intente nuevamente en 15 minutos.');
    // Other users are not affected.
    expect(
      (
        await api(t.app, 'POST', '/api/auth/login', {
          body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
        })
      ).status,
    ).toBe(200);
    // After 15 minutes the lock is gone (the attempts are moved back in time).
    await t.handle.query(`update login_attempts set at = at - interval '16 minutes' where username = $1`, [
      u.username,
    ]);
    const later = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: u.username, password: 'Dealer-Pass-1' },
    });
    expect(later.status).toBe(200);
  });

  it('refuses a user whose account is not confirmed yet (401, and only with the right password)', async () => {
    const u = await createDealerUser(t.app, admin);
    const put = await api(t.app, 'PUT', `/api/users/${u.userId}`, {
      token: admin,
      body: { confirmed: false },
    });
    expect(put.status).toBe(200);
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: u.username, password: 'Dealer-Pass-1' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      success: false,
      result: null,
      error: {
        code: 401,
        message: 'Su cuenta aún no ha sido confirmada. Consulte con el administrador del sistema.',
      },
    });
    // A wrong password says nothing about the account.
    const wrong = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: u.username, password: 'mal' },
    });
    expect(wrong.body.error.message).toBe('Usuario o contraseña incorrectos');
    await api(t.app, 'PUT', `/api/users/${u.userId}`, { token: admin, body: { confirmed: true } });
    const confirmed = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: u.username, password: 'Dealer-Pass-1' },
    });
    expect(confirmed.status).toBe(200);
  });

  it('validates the login body', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', { body: { username: '' } });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toContainEqual({
      field: 'username',
      message: 'Usuario es obligatorio',
    });
  });
});

describe('tokens', () => {
  it('answers 401 without a token, with a bad one and with an expired one', async () => {
    const none = await api(t.app, 'GET', '/api/zones');
    expect(none.status).toBe(401);
    expect(none.body.success).toBe(false);
    const bad = await api(t.app, 'GET', '/api/zones', { token: 'abc.def.ghi' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.message).toBe('Sesión expirada o token inválido, inicie sesión nuevamente');
    const now = Math.floor(Date.now() / 1000);
    const expired = t.app.jwt.sign({ sub: '1', tv: 0, iat: now - 100, exp: now - 10 });
    expect((await api(t.app, 'GET', '/api/zones', { token: expired })).status).toBe(401);
    const forged = t.app.jwt.sign({ sub: '1', tv: 0 }, { key: 'otra-clave' } as never);
    expect((await api(t.app, 'GET', '/api/zones', { token: forged })).status).toBe(401);
  });

  it('logout ends the tokens issued before', async () => {
    const u = await createDealerUser(t.app, admin);
    const other = await login(t.app, u.username, 'Dealer-Pass-1');
    expect(
      (await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: u.token })).status,
    ).toBe(200);
    const out = await api(t.app, 'POST', '/api/auth/logout', { token: u.token });
    expect(out.status).toBe(200);
    expect(
      (await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: u.token })).status,
    ).toBe(401);
    expect((await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: other })).status).toBe(
      401,
    );
    const again = await login(t.app, u.username, 'Dealer-Pass-1');
    expect((await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: again })).status).toBe(
      200,
    );
  });

  it('a password change on the profile ends old tokens and answers a new one', async () => {
    const u = await createDealerUser(t.app, admin);
    const wrong = await api(t.app, 'PUT', `/api/user/${u.userId}`, {
      token: u.token,
      body: { password: 'Nueva-Clave-1', current_password: 'mal' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.validationErrors).toContainEqual({
      field: 'current_password',
      message: 'La contraseña actual no es correcta',
    });
    const res = await api(t.app, 'PUT', `/api/user/${u.userId}`, {
      token: u.token,
      body: { full_name: 'Nombre Nuevo', password: 'Nueva-Clave-1', current_password: 'Dealer-Pass-1' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.full_name).toBe('Nombre Nuevo');
    expect(res.body.result).not.toHaveProperty('password_hash');
    expect((await api(t.app, 'GET', '/api/tabs/menu', { token: u.token })).status).toBe(401);
    expect((await api(t.app, 'GET', '/api/tabs/menu', { token: res.body.result.access_token })).status).toBe(
      200,
    );
    expect(await login(t.app, u.username, 'Nueva-Clave-1')).toBeTruthy();
  });

  it('the profile call edits only the own user', async () => {
    const u = await createDealerUser(t.app, admin);
    const res = await api(t.app, 'PUT', '/api/user/1', { token: u.token, body: { full_name: 'Intruso' } });
    expect(res.status).toBe(403);
  });

  it('an administrator password reset ends the user tokens', async () => {
    const u = await createDealerUser(t.app, admin);
    const denied = await api(t.app, 'PUT', `/api/users/${u.userId}/reset-password`, {
      token: u.token,
      body: { password: 'Otra-Clave-99' },
    });
    expect(denied.status).toBe(403);
    const res = await api(t.app, 'PUT', `/api/users/${u.userId}/reset-password`, {
      token: admin,
      body: { password: 'Otra-Clave-99' },
    });
    expect(res.status).toBe(200);
    expect((await api(t.app, 'GET', '/api/tabs/menu', { token: u.token })).status).toBe(401);
    expect(await login(t.app, u.username, 'Otra-Clave-99')).toBeTruthy();
  });

  it('refuses the session in a download address (?enc_auth_token=): links use a ticket', async () => {
    const res = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const enc = res.body.result.encrypted_access_token;
    const file = await api(t.app, 'GET', `/api/zones/export?enc_auth_token=${encodeURIComponent(enc)}`);
    expect(file.status).toBe(401);
    expect(file.body.error.message).toMatch(/^El enlace de descarga no es válido o ya venció/);
    const bad = await api(t.app, 'GET', '/api/zones/export?enc_auth_token=abcdef');
    expect(bad.status).toBe(401);
  });
});

describe('session information', () => {
  it('describes the admin: roles, permissions, default tab', async () => {
    const res = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: admin });
    expect(res.status).toBe(200);
    const { application, user } = res.body.result;
    expect(application.name).toBeTruthy();
    expect(user.username).toBe(ADMIN_USERNAME);
    expect(user.isDealer).toBe(false);
    expect(user.dealer_id).toBeNull();
    expect(user.roles).toContain('Administrador');
    expect(user.permissions).toContain('Admin.Dealers.view');
    expect(user.default_tab).toBeTruthy();
    expect(res.body.result).toHaveProperty('company');
  });

  it('marks a dealer user and limits its menu to what it may view', async () => {
    const u = await createDealerUser(t.app, admin);
    const info = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: u.token });
    expect(info.body.result.user.isDealer).toBe(true);
    expect(info.body.result.user.dealer_id).toBe(u.dealerId);
    const menu = await api(t.app, 'GET', '/api/tabs/menu', { token: u.token });
    const names: string[] = [];
    const walk = (nodes: { name: string; children: any[] }[]) => {
      for (const n of nodes) {
        names.push(n.name);
        walk(n.children);
      }
    };
    walk(menu.body.result);
    expect(names).toContain('employee');
    expect(names).not.toContain('user');
    expect(names).not.toContain('security');
    const adminMenu = await api(t.app, 'GET', '/api/tabs/menu', { token: admin });
    expect(JSON.stringify(adminMenu.body.result)).toContain('"name":"user"');
  });
});
