/// <reference types="vite/client" />
// The authorisation matrix: every route of the app's route table × {anonymous, dealer user A,
// dealer user B, staff user without permissions, administrator}, and dealer isolation on every
// dealer-scoped resource. Expectations come from the registry (src/modules/index.ts): each
// declared resource's generic routes and each declared action's `access`; CUSTOM below holds the
// few routes outside it (the API docs) and calls not converted to actions yet. A route with no
// expectation fails the test, so a new call cannot ship without saying who may use it.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, actionPermission } from '../src/core/action';
import { allActions, allResources } from '../src/core/registry';
import type { Resource } from '../src/core/resource';
import { API_MODULES } from '../src/modules';
import { seedDemo } from '../src/seed/demo';
import { api, createTestApp, login, type TestContext } from './harness';

type Access =
  /** No token needed. */
  | { access: 'public' }
  /** Any signed-in user. */
  | { access: 'login' }
  /** Signed in and holding this permission (403 without it). */
  | { access: 'permission'; permission: string };

type Expectation = Access & {
  /** Statuses ≥ 500 a caller holding access may get (e.g. 503 from an unconfigured connector). */
  allow?: number[];
  /** The URL to call (params filled in); defaults replace :id by 999999. */
  url?: (who: Principal) => string;
  /** Runs after every other route (it ends the caller's sessions). */
  last?: boolean;
};

/**
 * Routes outside the registry, and custom calls not declared as actions yet. An entry here for
 * a declared action overrides what the action says (only to give a URL or mark it last).
 */
const CUSTOM: Record<string, Expectation> = {
  'POST /api/auth/logout': { access: 'login', last: true },
  'GET /api/docs': { access: 'public' },
  'GET /api/docs/json': { access: 'public' },
  'GET /api/docs/yaml': { access: 'public' },
  'GET /api/docs/static/index.html': { access: 'public' },
  'GET /api/docs/static/swagger-initializer.js': { access: 'public' },
  'GET /api/docs/static/*': { access: 'public', url: () => '/api/docs/static/index.css' },
  // Prometheus metrics: from loopback (app.inject's address) anyone; from elsewhere only with
  // METRICS_TOKEN (test/ops.test.ts).
  'GET /api/metrics': { access: 'public' },
  'GET /api/public/quiz/:token': { access: 'public', url: () => '/api/public/quiz/token-inexistente' },
  'POST /api/public/quiz/:token': { access: 'public', url: () => '/api/public/quiz/token-inexistente' },
  // Own profile only: each caller edits itself.
  'PUT /api/user/:id': { access: 'login', url: (who) => `/api/user/${who.userId}` },
  'POST /api/sales-api': { access: 'permission', permission: 'Sales.store', allow: [503] },
};

/**
 * A valid create body per dealer-scoped resource, for "a create by A is always A's". `ctx` holds
 * ids of the demo network. A scoped resource without a sample fails the isolation test.
 */
const SAMPLES: Record<string, (ctx: SampleContext) => Record<string, unknown>> = {
  'dealer-branches': (c) => ({ dealer_id: c.dealerB, name: `Sede matriz ${c.n}` }),
  employees: (c) => ({ dealer_id: c.dealerB, first_name: 'Matriz', last_name: `Prueba ${c.n}` }),
  'dealer-contacts': (c) => ({ dealer_id: c.dealerB, name: `Contacto matriz ${c.n}` }),
  sales: (c) => ({
    dealer_id: c.dealerB,
    sale_date: '2026-01-15',
    invoice: `F999-${c.n}`,
    buyer_name: 'Comprador Matriz',
    document_type: 'DNI',
    document_number: '12345678',
    vin: `9MATRX${String(c.n).padStart(11, '0')}`,
    manufacturer_id: c.manufacturerId,
    model_name: 'Modelo',
    year: 2026,
    payment_method: 'E',
  }),
  transactions: (c) => ({
    dealer_id: c.dealerB,
    manufacturer_id: c.manufacturerId,
    model_name: 'Modelo',
    vin: `9MATRD${String(c.n).padStart(11, '0')}`,
    dispatch_date: '2026-01-15',
    units: 1,
  }),
  agreements: (c) => ({
    dealer_id: c.dealerB,
    title: `Acuerdo matriz ${c.n}`,
    level: 'medium',
    due_date: '2026-12-31',
  }),
  'workshop-infos': (c) => ({
    dealer_id: c.dealerB,
    year: 2016,
    month: 1,
    work_orders_opened: 1,
    work_orders_closed: 1,
    hours_sold: 1,
    hours_worked: 1,
    labour_revenue: 1,
    parts_revenue: 1,
  }),
};

/** Scoped resources a dealer user may never create in (the dealer itself, the manufacturer's documents). */
const NO_DEALER_CREATE = new Set(['dealers', 'documents']);
/** A valid body for those (the refusal must not be a validation error). */
const REFUSED_SAMPLES: Record<string, Record<string, unknown>> = {
  documents: { title: 'Documento de A', category_id: 1, published_at: '2026-01-15', file_ids: [1] },
};

interface SampleContext {
  dealerA: number;
  dealerB: number;
  manufacturerId: number;
  n: number;
}

interface Principal {
  name: string;
  token?: string;
  userId?: number;
  /** Permissions held; undefined = every permission (administrator). */
  permissions?: Set<string>;
}

// Every declared resource and action, from the one registry the app registers.
const declared = new Map<string, Resource>(allResources(API_MODULES).map((r) => [r.path, r]));
const actions = new Map<string, Action>(allActions(API_MODULES).map((a) => [`${a.method} ${a.path}`, a]));

/** The expectation of a declared action: who its `access` lets in. */
function actionExpectation(method: string, url: string): Expectation | undefined {
  const a = actions.get(`${method} ${url}`);
  if (!a) return undefined;
  const permission = actionPermission(a);
  if (permission) return { access: 'permission', permission };
  return { access: a.access === 'public' ? 'public' : 'login' };
}

/** The expectation of a generic route of a declared resource, if the route is one. */
function genericExpectation(method: string, url: string): Expectation | undefined {
  const m = /^\/api\/([a-z0-9-]+)(\/get\/:id|\/query-search|\/export|\/:id)?$/.exec(url);
  if (!m) return undefined;
  const res = declared.get(m[1]);
  if (!res) return undefined;
  const p = (action: string): Expectation => ({
    access: 'permission',
    permission: `${res.permission}.${action}`,
  });
  const tail = m[2] ?? '';
  if (method === 'GET' && tail === '') return p('view');
  if (method === 'GET' && tail === '/export') return p('export');
  // Lookup catalogues answer one record and quick searches to any signed-in user (selects,
  // location picker, dealer selector); the dealer scope still applies.
  if (method === 'GET' && (tail === '/query-search' || tail === '/get/:id'))
    return res.lookup === 'authenticated' ? { access: 'login' } : p('view');
  if (res.readOnly) return undefined;
  if (method === 'POST' && tail === '') return p('store');
  if (method === 'PUT' && tail === '/:id') return p('update');
  if (method === 'DELETE' && tail === '/:id') return p('destroy');
  return undefined;
}

function expectationFor(method: string, url: string): Expectation | undefined {
  const declaredAccess = actionExpectation(method, url);
  const custom = CUSTOM[`${method} ${url}`];
  if (declaredAccess && custom)
    return { ...custom, ...declaredAccess, url: custom.url, last: custom.last, allow: custom.allow };
  return custom ?? declaredAccess ?? genericExpectation(method, url);
}

let t: TestContext;
let admin: Principal;
let dealerA: Principal;
let dealerB: Principal;
let staff: Principal;
let anonymous: Principal;
/** Dealer users holding every permission: isolation must come from the scope, not the menu. */
let fullA: Principal;
let ids: { dealerA: number; dealerB: number; manufacturerId: number };
let routes: { method: string; url: string }[];

async function permissionsOf(roleName: string, adminToken: string): Promise<Set<string>> {
  const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: adminToken });
  const role = roles.body.result.find((r: { name: string }) => r.name === roleName);
  const res = await api(t.app, 'GET', `/api/get-permissions?role_id=${role.id}`, { token: adminToken });
  return new Set(res.body.result.granted as string[]);
}

async function principal(name: string, username: string, password: string, permissions?: Set<string>) {
  const token = await login(t.app, username, password);
  const me = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token });
  return { name, token, userId: me.body.result.user.id as number, permissions };
}

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.routeTable.filter((r) => r.method !== 'HEAD');
  const demo = await seedDemo(t.handle, { password: 'Matriz-2026' });
  expect(demo.created.dealers).toBeGreaterThanOrEqual(12);
  admin = { ...(await principal('administrador', 'admin', 'Admin-Test-123')), permissions: undefined };
  const dealerPerms = await permissionsOf('Concesionario', admin.token!);
  dealerA = await principal('concesionario A', 'lim01', 'Matriz-2026', dealerPerms);
  dealerB = await principal('concesionario B', 'tru01', 'Matriz-2026', dealerPerms);
  anonymous = { name: 'anonimo', permissions: new Set() };

  const staffUser = await api(t.app, 'POST', '/api/users', {
    token: admin.token,
    body: {
      username: 'sinpermiso',
      email: 'sinpermiso@example.com',
      full_name: 'Sin permisos',
      password: 'Sin-Permiso-1',
    },
  });
  expect(staffUser.status, JSON.stringify(staffUser.body)).toBe(200);
  staff = await principal('personal sin permiso', 'sinpermiso', 'Sin-Permiso-1', new Set());

  const dealers = await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: admin.token });
  const byCode = (code: string) =>
    dealers.body.result.find((d: { code: string }) => d.code === code).id as number;
  const brands = await api(t.app, 'GET', '/api/manufacturers?perPage=-1', { token: admin.token });
  ids = { dealerA: byCode('LIM01'), dealerB: byCode('TRU01'), manufacturerId: brands.body.result[0].id };
  await surveyRows([ids.dealerA, ids.dealerB]);

  // A role with every permission, held by a second user of dealer A.
  const role = await api(t.app, 'POST', '/api/roles', { token: admin.token, body: { name: 'Matriz total' } });
  expect(role.status, JSON.stringify(role.body)).toBe(200);
  const tree = await api(t.app, 'GET', `/api/get-permissions?role_id=${role.body.result.id}`, {
    token: admin.token,
  });
  const all: string[] = [];
  const walk = (nodes: { permissions: string[]; children: any[] }[]) => {
    for (const n of nodes) {
      all.push(...n.permissions);
      walk(n.children);
    }
  };
  walk(tree.body.result.all);
  const granted = await api(t.app, 'PUT', '/api/save-permission', {
    token: admin.token,
    body: { role_id: role.body.result.id, permissions: all },
  });
  expect(granted.status, JSON.stringify(granted.body)).toBe(200);
  const full = await api(t.app, 'POST', '/api/users', {
    token: admin.token,
    body: {
      username: 'a.total',
      email: 'a.total@example.com',
      full_name: 'Concesionario A con todo',
      password: 'Matriz-2026',
      dealer_id: ids.dealerA,
      roles: [role.body.result.id],
    },
  });
  expect(full.status, JSON.stringify(full.body)).toBe(200);
  fullA = await principal('concesionario A (todos los permisos)', 'a.total', 'Matriz-2026');
}, 300_000);

afterAll(() => t?.close());

/**
 * An answered survey with an open alert on a sale of each dealer: the survey responses and
 * alerts are dealer-scoped resources, and their isolation test needs rows of both.
 */
async function surveyRows(dealerIds: number[]) {
  const [quiz] = await t.handle.query<{ id: number }>(
    "select id from quizzes where kind = 'sales' order by id limit 1",
  );
  for (const dealerId of dealerIds) {
    // A sale the demo's surveys did not invite yet (one invitation per sale and questionnaire).
    const [sale] = await t.handle.query<{ id: number }>(
      `select id from sales s where dealer_id = $1
          and not exists (select 1 from quiz_invitations i where i.sale_id = s.id and i.quiz_id = $2)
        order by id limit 1`,
      [dealerId, quiz.id],
    );
    const [invitation] = await t.handle.query<{ id: number }>(
      `insert into quiz_invitations (sale_id, quiz_id, token_hash, email, expires_at, answered_at)
       values ($1, $2, md5(random()::text), 'matriz@example.com', now() + interval '1 day', now()) returning id`,
      [sale.id, quiz.id],
    );
    const [response] = await t.handle.query<{ id: number }>(
      `insert into quiz_responses (invitation_id, sale_id, quiz_id, dealer_id) values ($1, $2, $3, $4) returning id`,
      [invitation.id, sale.id, quiz.id, dealerId],
    );
    await t.handle.query(
      `insert into quiz_alerts (response_id, sale_id, dealer_id, detail) values ($1, $2, $3, 'Prueba de matriz')`,
      [response.id, sale.id, dealerId],
    );
  }
}

describe('route table', () => {
  it('has an expectation for every route, and none for a route that no longer exists', () => {
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((r) => !expectationFor(r.method, r.url)).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'Rutas sin expectativa: agreguelas a CUSTOM en authorization-matrix.test.ts').toEqual([]);
    const known = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const stale = Object.keys(CUSTOM).filter((k) => !known.has(k));
    expect(stale, 'Expectativas de rutas que ya no existen').toEqual([]);
  });

  it('serves every action and resource of the registry', () => {
    const known = new Set(routes.map((r) => `${r.method} ${r.url}`));
    const unserved = [
      ...[...actions.keys()].filter((k) => !known.has(k)),
      ...[...declared.values()].map((r) => `GET /api/${r.path}`).filter((k) => !known.has(k)),
    ];
    expect(unserved).toEqual([]);
  });
});

describe('every route × every caller', () => {
  const allows = (who: Principal, e: Expectation) => {
    if (e.access === 'public') return true;
    if (!who.token) return false;
    if (e.access === 'login') return true;
    return who.permissions === undefined || who.permissions.has(e.permission);
  };

  it('answers 401 to anonymous callers, 403 without the permission, and serves those who hold it', async () => {
    const failures: string[] = [];
    const ordered = [...routes].sort(
      (a, b) =>
        Number(!!expectationFor(a.method, a.url)?.last) - Number(!!expectationFor(b.method, b.url)?.last),
    );
    let checked = 0;
    for (const route of ordered) {
      const e = expectationFor(route.method, route.url);
      if (!e) continue;
      for (const who of [anonymous, staff, dealerA, dealerB, admin]) {
        const url = e.url
          ? e.url(who)
          : route.url
              .replace(/:id/g, '999999')
              .replace(/:([a-z_]+)/gi, 'x')
              .replace('*', 'x');
        const body = route.method === 'POST' || route.method === 'PUT' ? {} : undefined;
        const res = await api(t.app, route.method as any, url, { token: who.token, body });
        checked++;
        const label = `${route.method} ${route.url} como ${who.name}: ${res.status}`;
        if (!allows(who, e)) {
          const want = who.token ? 403 : 401;
          if (res.status !== want) failures.push(`${label}, se esperaba ${want}`);
          else if (res.body?.success !== false || !res.body?.error?.message)
            failures.push(`${label} sin sobre de error en español`);
        } else if (res.status === 401 || res.status === 403) {
          failures.push(`${label}, se esperaba acceso`);
        } else if (res.status >= 500 && !e.allow?.includes(res.status)) {
          failures.push(`${label}: error del servidor ${JSON.stringify(res.body?.error)}`);
        }
      }
    }
    // The logout calls ended these sessions: sign in again for the isolation tests.
    admin.token = await login(t.app, 'admin', 'Admin-Test-123');
    dealerB.token = await login(t.app, 'tru01', 'Matriz-2026');
    expect(failures).toEqual([]);
    expect(checked).toBe(routes.length * 5);
  }, 300_000);
});

describe('dealer isolation on every dealer-scoped resource', () => {
  const scoped = [...declared.values()].filter((r) => r.dealerScoped);

  it('covers the scoped resources of the route table', () => {
    const registered = new Set(routes.map((r) => r.url));
    const missing = scoped.filter((r) => registered.has(`/api/${r.path}`)).map((r) => r.path);
    expect(missing.length).toBeGreaterThanOrEqual(4);
  });

  for (const res of scoped) {
    const base = `/api/${res.path}`;
    it(`${res.path}: dealer A never reads, changes or deletes a row of dealer B; its creates are its own`, async () => {
      if (!t.app.routeTable.some((r) => r.url === base)) return;
      const listIds = async (who: Principal, extra = '') => {
        const out: number[] = [];
        for (let page = 1; page <= 50; page++) {
          const r = await api(t.app, 'GET', `${base}?perPage=100&page=${page}${extra}`, { token: who.token });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          out.push(...r.body.result.data.map((x: { id: number }) => x.id));
          if (r.body.result.data.length < 100) break;
        }
        return out;
      };
      let everything = await listIds(admin);
      // A big table (the demo's figures and fees) passes the 5,000 rows read: the two dealers'.
      if (everything.length >= 5000 && res.dealerColumn && res.filters?.includes(res.dealerColumn))
        everything = await listIds(admin, `&filter[${res.dealerColumn}]=${ids.dealerA},${ids.dealerB}`);
      const mine = new Set(await listIds(fullA));
      for (const id of mine) expect(everything).toContain(id);
      const hidden = everything.filter((id) => !mine.has(id));
      expect(hidden.length, `${res.path}: no hay filas de otro concesionario para probar`).toBeGreaterThan(0);

      // Rows of dealer B (by the dealer column) never appear in A's list, search or export.
      if (res.dealerColumn) {
        const [row] = await t.handle.query<{ id: number }>(
          `select id from ${res.tableName} where ${res.dealerColumn} = $1 limit 1`,
          [ids.dealerB],
        );
        expect(row, `${res.path}: la demo no tiene filas del concesionario B`).toBeDefined();
        expect(mine.has(row.id)).toBe(false);
      }
      const search = await api(t.app, 'GET', `${base}/query-search?query=`, { token: fullA.token });
      expect(search.status).toBe(200);
      for (const r of search.body.result) expect(mine.has(r.id)).toBe(true);
      const lookup = await api(t.app, 'GET', `${base}?perPage=-1`, { token: fullA.token });
      for (const r of lookup.body.result) expect(mine.has(r.id)).toBe(true);
      const exported = await api(t.app, 'GET', `${base}/export?columns=id`, { token: fullA.token });
      expect(exported.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(exported.raw as any);
      const exportedIds: number[] = [];
      wb.worksheets[0].eachRow((row, n) => {
        if (n > 1) exportedIds.push(Number(row.getCell(1).value));
      });
      expect(exportedIds.length).toBe(mine.size);
      for (const id of exportedIds) expect(mine.has(id)).toBe(true);

      // Get, update and delete of another dealer's rows: not found, and nothing changes.
      for (const id of hidden.slice(0, 3)) {
        const before = await api(t.app, 'GET', `${base}/get/${id}`, { token: admin.token });
        expect((await api(t.app, 'GET', `${base}/get/${id}`, { token: fullA.token })).status).toBe(404);
        if (!res.readOnly) {
          const put = await api(t.app, 'PUT', `${base}/${id}`, {
            token: fullA.token,
            body: { active: false },
          });
          expect(put.status).toBe(404);
          const del = await api(t.app, 'DELETE', `${base}/${id}`, { token: fullA.token });
          expect(del.status).toBe(404);
        }
        const after = await api(t.app, 'GET', `${base}/get/${id}`, { token: admin.token });
        expect(after.status).toBe(200);
        expect(after.body.result).toEqual(before.body.result);
      }

      if (res.readOnly) return;
      if (NO_DEALER_CREATE.has(res.path)) {
        const r = await api(t.app, 'POST', base, {
          token: fullA.token,
          body: REFUSED_SAMPLES[res.path] ?? { code: 'MATRIZ1', name: 'Concesionario creado por A' },
        });
        expect(r.status).toBe(403);
        return;
      }
      // A create naming dealer B is saved as dealer A's; an update cannot move it to B.
      const sample = SAMPLES[res.path];
      expect(sample, `${res.path}: falta un ejemplo en SAMPLES`).toBeDefined();
      const created = await api(t.app, 'POST', base, {
        token: fullA.token,
        body: sample({ ...ids, n: Date.now() % 100000 }),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.result[res.dealerColumn ?? 'dealer_id']).toBe(ids.dealerA);
      const moved = await api(t.app, 'PUT', `${base}/${created.body.result.id}`, {
        token: fullA.token,
        body: { dealer_id: ids.dealerB },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body.result[res.dealerColumn ?? 'dealer_id']).toBe(ids.dealerA);
      // And dealer B does not see it.
      expect(
        (await api(t.app, 'GET', `${base}/get/${created.body.result.id}`, { token: dealerB.token })).status,
      ).toBe(dealerB.permissions?.has(`${res.permission}.view`) ? 404 : 403);
    });
  }
});

describe('references across dealers', () => {
  it('refuses an employee of dealer A placed in a branch of dealer B', async () => {
    const [branchB] = await t.handle.query<{ id: number }>(
      'select id from dealer_branches where dealer_id = $1 limit 1',
      [ids.dealerB],
    );
    const r = await api(t.app, 'POST', '/api/employees', {
      token: fullA.token,
      body: {
        dealer_id: ids.dealerA,
        first_name: 'Cruzado',
        last_name: 'Prueba',
        dealer_branch_id: branchB.id,
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.validationErrors).toContainEqual({
      field: 'dealer_branch_id',
      message: 'La sede no pertenece al concesionario',
    });
  });
});
