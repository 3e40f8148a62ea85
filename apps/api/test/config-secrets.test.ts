// The token-signing secret is server-owned (server_secrets), out of reach of the settings calls,
// and those calls accept only the declared setting keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIGURATIONS } from '../src/modules/preferences/declared-settings';
import { ensureJwtSecret } from '../src/seed';
import { api, createTestApp, login, type TestContext, uniq } from './harness';

let t: TestContext;
let admin: string;
/** A user holding only Admin.Preferences.view and .update. */
let prefs: string;
/** The generated secret, as a start without JWT_SECRET makes it. */
let secret: string;

const unknownKey = (key: string) =>
  `La clave ${key} no es una configuración del sistema. Use una de las claves existentes.`;

async function configurationId(key: string): Promise<number> {
  const [row] = await t.handle.query<{ id: number }>('select id from configurations where key = $1', [key]);
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  secret = await ensureJwtSecret(t.handle);
  const role = await api(t.app, 'POST', '/api/roles', { token: admin, body: { name: uniq('Preferencias') } });
  expect(role.status, JSON.stringify(role.body)).toBe(200);
  const grant = await api(t.app, 'PUT', '/api/save-permission', {
    token: admin,
    body: {
      role_id: role.body.result.id,
      permissions: ['Admin.Preferences.view', 'Admin.Preferences.update'],
    },
  });
  expect(grant.status, JSON.stringify(grant.body)).toBe(200);
  const user = await api(t.app, 'POST', '/api/users', {
    token: admin,
    body: {
      username: 'preferencias',
      email: 'preferencias@example.com',
      full_name: 'Solo Preferencias',
      password: 'Prefs-Pass-1',
      roles: [role.body.result.id],
    },
  });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  prefs = await login(t.app, 'preferencias', 'Prefs-Pass-1');
});
afterAll(() => t?.close());

describe('the token-signing secret', () => {
  it('is kept in server_secrets, not among the settings', async () => {
    const [row] = await t.handle.query<{ value: string }>(
      `select value from server_secrets where key = 'jwt_secret'`,
    );
    expect(row.value).toBe(secret);
    expect(await t.handle.query(`select id from configurations where key ~* 'jwt'`)).toEqual([]);
  });

  it('is in no answer of the settings calls', async () => {
    for (const token of [prefs, admin]) {
      const answers = [
        await api(t.app, 'GET', '/api/configurations?perPage=-1', { token }),
        await api(t.app, 'GET', '/api/configurations?perPage=50&query=jwt', { token }),
        await api(t.app, 'GET', '/api/configurations/query-search?query=secret', { token }),
        await api(t.app, 'GET', '/api/getUserConfigurations', { token }),
        await api(t.app, 'GET', '/api/getUserConfigurations'),
      ];
      for (const res of answers) {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const text = JSON.stringify(res.body);
        expect(text).not.toContain(secret);
        expect(text).not.toMatch(/jwt/i);
      }
      const all = answers[0].body.result as { key: string }[];
      expect(all.map((r) => r.key)).toEqual(expect.arrayContaining(CONFIGURATIONS.map((c) => c.key)));
    }
  });

  it('cannot be written by the preferences user (save, create, update, delete)', async () => {
    const saved = await api(t.app, 'PUT', '/api/configurations/save', {
      token: prefs,
      body: { jwt_secret: 'elegido-por-el-atacante' },
    });
    expect(saved.status).toBe(422);
    expect(saved.body).toMatchObject({
      success: false,
      result: null,
      error: {
        code: 422,
        message: unknownKey('jwt_secret'),
        validationErrors: [{ field: 'jwt_secret', message: unknownKey('jwt_secret') }],
      },
    });
    const nulled = await api(t.app, 'PUT', '/api/configurations/save', {
      token: prefs,
      body: { jwt_secret: null },
    });
    expect(nulled.status).toBe(422);

    // Create needs .store (403); an administrator is refused the key itself (422).
    const created = await api(t.app, 'POST', '/api/configurations', {
      token: prefs,
      body: { key: 'jwt_secret', value: 'x' },
    });
    expect(created.status).toBe(403);
    const byAdmin = await api(t.app, 'POST', '/api/configurations', {
      token: admin,
      body: { key: 'jwt_secret', value: 'x' },
    });
    expect(byAdmin.status).toBe(422);
    expect(byAdmin.body.error.validationErrors).toEqual([
      { field: 'key', message: unknownKey('jwt_secret') },
    ]);

    // A declared row cannot be renamed into the secret.
    const company = await configurationId('COMPANY_NAME');
    const renamed = await api(t.app, 'PUT', `/api/configurations/${company}`, {
      token: prefs,
      body: { key: 'jwt_secret', value: 'x' },
    });
    expect(renamed.status).toBe(422);
    expect(renamed.body.error.message).toBe('La clave de una configuración no se puede cambiar');

    // Delete needs .destroy; an administrator cannot delete a declared setting either.
    expect((await api(t.app, 'DELETE', `/api/configurations/${company}`, { token: prefs })).status).toBe(403);
    const deleted = await api(t.app, 'DELETE', `/api/configurations/${company}`, { token: admin });
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.message).toBe(
      'No se puede eliminar la configuración COMPANY_NAME: es un ajuste del sistema. Para no usarla, deje su valor vacío.',
    );

    // Nothing changed: the next start signs with the same secret.
    expect(await t.handle.query(`select id from configurations where key ~* 'jwt'`)).toEqual([]);
    expect(await ensureJwtSecret(t.handle)).toBe(secret);
  });
});

describe('configuration keys', () => {
  it('an unknown key answers 422 naming it (save, create, update); declared ones are saved', async () => {
    const save = await api(t.app, 'PUT', '/api/configurations/save', {
      token: prefs,
      body: { COMPANY_NAME: 'Autos del Norte', CLAVE_INVENTADA: 'x', otra: 1 },
    });
    expect(save.status).toBe(422);
    expect(save.body.error.validationErrors).toEqual([
      { field: 'CLAVE_INVENTADA', message: unknownKey('CLAVE_INVENTADA') },
      { field: 'otra', message: unknownKey('otra') },
    ]);
    // All or nothing: the declared key of the refused body was not saved either.
    const [company] = await t.handle.query<{ value: string }>(
      `select value from configurations where key = 'COMPANY_NAME'`,
    );
    expect(company.value).not.toBe('Autos del Norte');

    const ok = await api(t.app, 'PUT', '/api/configurations/save', {
      token: prefs,
      body: { COMPANY_NAME: 'Autos del Norte', SMTP_URL: 'smtp://u:p@correo.example.com:587' },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.COMPANY_NAME).toBe('Autos del Norte');
    expect(ok.body.result).not.toHaveProperty('SMTP_URL');

    const create = await api(t.app, 'POST', '/api/configurations', {
      token: admin,
      body: { key: 'NUEVA_CLAVE', value: 'x' },
    });
    expect(create.status).toBe(422);
    expect(create.body.error.validationErrors).toEqual([
      { field: 'key', message: unknownKey('NUEVA_CLAVE') },
    ]);
    // Case matters: keys are declared exactly.
    const lower = await api(t.app, 'PUT', '/api/configurations/save', {
      token: prefs,
      body: { company_name: 'x' },
    });
    expect(lower.status).toBe(422);
  });

  it('updates a declared setting through PUT /api/configurations/:id and lists, sorts and exports', async () => {
    const id = await configurationId('SURVEY_MIN_SAMPLE');
    const upd = await api(t.app, 'PUT', `/api/configurations/${id}`, {
      token: prefs,
      body: { key: 'SURVEY_MIN_SAMPLE', value: '7' },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.result).toMatchObject({ key: 'SURVEY_MIN_SAMPLE', value: '7' });
    const list = await api(t.app, 'GET', '/api/configurations?sort=key&order=desc&perPage=5', {
      token: prefs,
    });
    expect(list.status).toBe(200);
    expect(list.body.result.data).toHaveLength(5);
    const keys = list.body.result.data.map((r: { key: string }) => r.key);
    expect(keys).toEqual([...keys].sort().reverse());
    const file = await api(t.app, 'GET', '/api/configurations/export', { token: admin });
    expect(file.status).toBe(200);
    expect(file.raw.subarray(0, 2).toString()).toBe('PK');
  });

  it('a leftover row of an unknown key can be deleted, not edited', async () => {
    await t.handle.query(`insert into configurations (key, value) values ('CLAVE_ANTIGUA', 'x')`);
    const id = await configurationId('CLAVE_ANTIGUA');
    const upd = await api(t.app, 'PUT', `/api/configurations/${id}`, { token: prefs, body: { value: 'y' } });
    expect(upd.status).toBe(422);
    expect(upd.body.error.message).toBe(unknownKey('CLAVE_ANTIGUA'));
    const del = await api(t.app, 'DELETE', `/api/configurations/${id}`, { token: admin });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
  });
});
