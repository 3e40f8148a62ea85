// Saved views (issue 29): a user saves a list's filters, sort, columns and page size by name and
// finds them again; another user does not see them; an administrator shares one with a role and
// its users find it (and cannot delete it); only an administrator shares; names are unique per
// list and user; the page is never kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createDealerUser>>;
let b: Awaited<ReturnType<typeof createDealerUser>>;
let dealerRole: number;

const views = async (token: string, screen = '/main/dealer-contact') => {
  const r = await api(t.app, 'GET', `/api/saved-views?screen=${encodeURIComponent(screen)}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as {
    id: number;
    name: string;
    params: string;
    role_name: string | null;
    own: boolean;
  }[];
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: admin });
  dealerRole = roles.body.result.find((r: { name: string }) => r.name === 'Concesionario').id;
});
afterAll(() => t?.close());

describe('saved views', () => {
  it('a user saves a view by name and finds it again, without its page; another user does not see it', async () => {
    const r = await api(t.app, 'POST', '/api/saved-views', {
      token: a.token,
      body: {
        screen: '/main/dealer-contact',
        name: 'Activos por nombre',
        params: '?page=3&perPage=25&sort=name&order=desc&filter[active]=true&hide=phone,email&junk=1',
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await views(a.token)).toEqual([
      {
        id: r.body.result.id,
        screen: '/main/dealer-contact',
        name: 'Activos por nombre',
        params: 'perPage=25&sort=name&order=desc&filter%5Bactive%5D=true&hide=phone%2Cemail',
        role_id: null,
        role_name: null,
        own: true,
      },
    ]);
    expect(await views(b.token)).toEqual([]);
    expect(await views(a.token, '/main/dealer')).toEqual([]);
    const again = await api(t.app, 'POST', '/api/saved-views', {
      token: a.token,
      body: { screen: '/main/dealer-contact', name: 'Activos por nombre', params: '' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Ya tiene una vista llamada "Activos por nombre" en esta lista');
    const audit = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from audit_logs where resource = 'saved-views' and action = 'create' and user_id = $1`,
      [a.userId],
    );
    expect(audit[0].n).toBe(1);
  });

  it('only an administrator shares a view with a role; the role’s users find it and cannot delete it', async () => {
    const refused = await api(t.app, 'POST', '/api/saved-views', {
      token: a.token,
      body: { screen: '/main/dealer-contact', name: 'Para todos', params: '', role_id: dealerRole },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('Solo un administrador comparte vistas con un rol');
    const shared = await api(t.app, 'POST', '/api/saved-views', {
      token: admin,
      body: {
        screen: '/main/dealer-contact',
        name: 'Contactos con correo',
        params: 'sort=email',
        role_id: dealerRole,
      },
    });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    const seenByB = await views(b.token);
    expect(seenByB.map((v) => [v.name, v.role_name, v.own])).toEqual([
      ['Contactos con correo', 'Concesionario', false],
    ]);
    const del = await api(t.app, 'DELETE', `/api/saved-views/${shared.body.result.id}`, { token: b.token });
    expect(del.status).toBe(404);
    expect((await views(b.token)).length).toBe(1);
    const mine = (await views(a.token)).find((v) => v.own)!;
    expect((await api(t.app, 'DELETE', `/api/saved-views/${mine.id}`, { token: a.token })).status).toBe(200);
    expect((await views(a.token)).map((v) => v.name)).toEqual(['Contactos con correo']);
  });

  it('a view needs a name and a screen (422 in Spanish)', async () => {
    const r = await api(t.app, 'POST', '/api/saved-views', { token: a.token, body: { params: '' } });
    expect(r.status).toBe(422);
    expect(r.body.error.validationErrors.map((e: { message: string }) => e.message)).toEqual(
      expect.arrayContaining(['Pantalla es obligatorio', 'Nombre es obligatorio']),
    );
  });
});
