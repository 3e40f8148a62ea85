// The security and preferences calls declared as actions: the audit rows their writes leave,
// the tabs tree for either screen's permission, the own profile refused for another id before its
// body is read, and their bodies documented in /api/docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

/** The latest audit row of a resource, record and action. */
async function lastAudit(resource: string, action: string, recordId?: number) {
  const filter = [`filter[resource]=${resource}`, `filter[action]=${action}`];
  if (recordId !== undefined) filter.push(`filter[record_id]=${recordId}`);
  const res = await api(t.app, 'GET', `/api/audit-logs?${filter.join('&')}&sort=id&order=desc`, {
    token: admin,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.data[0];
}

/** A user holding only the role made of `permissions`. */
async function userWith(permissions: string[]) {
  const role = await api(t.app, 'POST', '/api/roles', { token: admin, body: { name: uniq('Rol ') } });
  const grant = await api(t.app, 'PUT', '/api/save-permission', {
    token: admin,
    body: { role_id: role.body.result.id, permissions },
  });
  expect(grant.status).toBe(200);
  const username = uniq('u').toLowerCase();
  const user = await api(t.app, 'POST', '/api/users', {
    token: admin,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: 'Usuario de prueba',
      password: 'Prueba-Clave-1',
      roles: [role.body.result.id],
    },
  });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  return { roleId: role.body.result.id as number, token: await login(t.app, username, 'Prueba-Clave-1') };
}

describe('audit rows of the security and preferences actions', () => {
  it('grant and revoke name the role and the permissions', async () => {
    const role = await api(t.app, 'POST', '/api/roles', { token: admin, body: { name: uniq('Auditado ') } });
    const roleId = role.body.result.id;
    const body = { role_id: roleId, permissions: ['Admin.Zones.view'] };
    expect((await api(t.app, 'PUT', '/api/save-permission', { token: admin, body })).status).toBe(200);
    expect(await lastAudit('roles', 'grant', roleId)).toMatchObject({
      username: 'admin',
      record_id: roleId,
      before: null,
      after: { permissions: ['Admin.Zones.view'] },
    });
    expect((await api(t.app, 'PUT', '/api/revoke-permission', { token: admin, body })).status).toBe(200);
    expect(await lastAudit('roles', 'revoke', roleId)).toMatchObject({
      record_id: roleId,
      after: { permissions: ['Admin.Zones.view'] },
    });
  });

  it('the profile keeps before and after without the password hash; a reset names only the user', async () => {
    const u = await createDealerUser(t.app, admin);
    const res = await api(t.app, 'PUT', `/api/user/${u.userId}`, {
      token: u.token,
      body: { full_name: 'Nombre Auditado' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await lastAudit('users', 'profile', u.userId);
    expect(row.before.full_name).toMatch(/^Usuario /);
    expect(row.after.full_name).toBe('Nombre Auditado');
    for (const side of [row.before, row.after]) {
      expect(side).not.toHaveProperty('password_hash');
      expect(side).not.toHaveProperty('token_version');
    }

    const reset = await api(t.app, 'PUT', `/api/users/${u.userId}/reset-password`, {
      token: admin,
      body: { password: 'Otra-Clave-77' },
    });
    expect(reset.status).toBe(200);
    expect(await lastAudit('users', 'reset-password', u.userId)).toMatchObject({
      record_id: u.userId,
      before: null,
      after: null,
    });
    const missing = await api(t.app, 'PUT', '/api/users/999999/reset-password', {
      token: admin,
      body: { password: 'Otra-Clave-77' },
    });
    expect(missing.status).toBe(404);
  });

  it('configurations/save keeps the values before and after, secrets masked', async () => {
    const res = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: { COMPANY_NAME: 'Empresa Auditada', SALES_API_TOKEN: 'muy-secreto' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await lastAudit('configurations', 'save');
    expect(row.record_id).toBeNull();
    expect(row.after).toEqual({ COMPANY_NAME: 'Empresa Auditada', SALES_API_TOKEN: '***' });
    expect(row.before).toHaveProperty('COMPANY_NAME');
    expect(JSON.stringify(row)).not.toContain('muy-secreto');
  });
});

describe('who may call', () => {
  it('the full tab tree answers the roles screen permission too, and neither is refused', async () => {
    const roles = await userWith(['Admin.Roles.view']);
    expect((await api(t.app, 'GET', '/api/tabs-tree', { token: roles.token })).status).toBe(200);
    const tabs = await userWith(['Admin.Tabs.view']);
    expect((await api(t.app, 'GET', '/api/tabs-tree', { token: tabs.token })).status).toBe(200);
    const neither = await userWith(['Admin.Zones.view']);
    const denied = await api(t.app, 'GET', '/api/tabs-tree', { token: neither.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toBe('Permiso requerido: Admin.Tabs.view');
  });

  it("another user's profile is refused before its body is read", async () => {
    const u = await createDealerUser(t.app, admin);
    const res = await api(t.app, 'PUT', '/api/user/1', { token: u.token, body: { email: 'no es correo' } });
    expect(res.status).toBe(403);
    const own = await api(t.app, 'PUT', `/api/user/${u.userId}`, {
      token: u.token,
      body: { email: 'no es correo' },
    });
    expect(own.status).toBe(422);
  });
});

describe('/api/docs', () => {
  it('documents the bodies of the login, permissions, profile, reset and settings calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: any }> } }>>;
    };
    const props = (path: string, method: string) =>
      Object.keys(
        doc.paths[path]?.[method]?.requestBody?.content['application/json'].schema.properties ?? {},
      );
    expect(props('/api/auth/login', 'post')).toEqual(['username', 'password', 'rememberMe']);
    expect(props('/api/save-permission', 'put')).toEqual(['role_id', 'permissions']);
    expect(props('/api/user/{id}', 'put')).toContain('current_password');
    expect(props('/api/users/{id}/reset-password', 'put')).toEqual(['password']);
    expect(doc.paths['/api/configurations/save']?.put?.requestBody).toBeDefined();
    expect(doc.paths['/api/auth/login']?.post).toMatchObject({ security: [] });
  });
});
