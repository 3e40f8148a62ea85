// Special calls beside the generic CRUD: permissions per role, tab trees, settings, type values,
// export contents, big-table counting, OpenAPI and the web client fallback.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { limaDateOf } from '@app/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { api, createDealerUser, createTestApp, JWT_SECRET, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

describe('roles and permissions', () => {
  it('grants and revokes permissions, and the user sees the change at once', async () => {
    const role = await api(t.app, 'POST', '/api/roles', { token: admin, body: { name: 'Consulta zonas' } });
    const roleId = role.body.result.id;
    await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: 'consulta',
        email: 'c@example.com',
        full_name: 'Consulta',
        password: 'Consulta-1',
        roles: [roleId],
      },
    });
    const token = await login(t.app, 'consulta', 'Consulta-1');
    expect((await api(t.app, 'GET', '/api/zones', { token })).status).toBe(403);

    const grant = await api(t.app, 'PUT', '/api/save-permission', {
      token: admin,
      body: { role_id: roleId, permissions: ['Admin.Zones.view', 'Admin.Zones.export'] },
    });
    expect(grant.status).toBe(200);
    expect(grant.body.result.granted).toEqual(['Admin.Zones.export', 'Admin.Zones.view']);
    expect((await api(t.app, 'GET', '/api/zones', { token })).status).toBe(200);

    const perms = await api(t.app, 'GET', `/api/get-permissions?role_id=${roleId}`, { token: admin });
    expect(perms.body.result.granted).toEqual(['Admin.Zones.export', 'Admin.Zones.view']);
    const org = perms.body.result.all.find((n: { name: string }) => n.name === 'organization');
    const zone = org.children.find((n: { name: string }) => n.name === 'zone');
    expect(zone.permissions).toEqual([
      'Admin.Zones.view',
      'Admin.Zones.store',
      'Admin.Zones.update',
      'Admin.Zones.destroy',
      'Admin.Zones.export',
    ]);

    const revoke = await api(t.app, 'PUT', '/api/revoke-permission', {
      token: admin,
      body: { role_id: roleId, permissions: ['Admin.Zones.view'] },
    });
    expect(revoke.body.result.granted).toEqual(['Admin.Zones.export']);
    expect((await api(t.app, 'GET', '/api/zones', { token })).status).toBe(403);

    const unknown = await api(t.app, 'PUT', '/api/save-permission', {
      token: admin,
      body: { role_id: roleId, permissions: ['No.Existe.view'] },
    });
    expect(unknown.status).toBe(422);
    const noRole = await api(t.app, 'GET', '/api/get-permissions?role_id=99999', { token: admin });
    expect(noRole.status).toBe(404);
    const missing = await api(t.app, 'GET', '/api/get-permissions', { token: admin });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toBe('Rol es obligatorio');
  });

  it('does not delete a system role, nor a role in use', async () => {
    const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: admin });
    const adminRole = roles.body.result.find((r: { name: string }) => r.name === 'Administrador');
    const res = await api(t.app, 'DELETE', `/api/roles/${adminRole.id}`, { token: admin });
    expect(res.status).toBe(409);
    const got = await api(t.app, 'GET', `/api/roles/get/${adminRole.id}`, { token: admin });
    expect(got.body.result.permissions).toContain('Admin.Roles.update');
  });

  it('answers the full tab tree and user role ids', async () => {
    const tree = await api(t.app, 'GET', '/api/tabs-tree', { token: admin });
    expect(tree.status).toBe(200);
    expect(tree.body.result.map((n: { name: string }) => n.name)).toContain('security');
    const u = await createDealerUser(t.app, admin);
    const user = await api(t.app, 'GET', `/api/users/get/${u.userId}`, { token: admin });
    expect(user.body.result.roles).toHaveLength(1);
    expect(user.body.result.role_names).toBe('Concesionario');
    expect(user.body.result).not.toHaveProperty('password_hash');
    expect(user.body.result).not.toHaveProperty('token_version');
    expect((await api(t.app, 'GET', '/api/tabs-tree', { token: u.token })).status).toBe(403);
  });
});

describe('audit log', () => {
  it('filters by resource, user and date range', async () => {
    const zone = await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: 'Zona Auditada' } });
    // The audit row's time is the real instant; the filter's day is Lima's.
    const today = limaDateOf(Date.now());
    const q = `filter[resource]=zones&filter[record_id]=${zone.body.result.id}&filter[user_id]=1`;
    const hit = await api(
      t.app,
      'GET',
      `/api/audit-logs?${q}&filter[date_from]=${today}&filter[date_to]=${today}`,
      {
        token: admin,
      },
    );
    expect(hit.status).toBe(200);
    expect(hit.body.result.data).toHaveLength(1);
    expect(hit.body.result.data[0]).toMatchObject({
      action: 'create',
      username: 'admin',
      after: { name: 'Zona Auditada' },
    });
    const miss = await api(t.app, 'GET', `/api/audit-logs?${q}&filter[date_to]=2020-01-01`, { token: admin });
    expect(miss.body.result.data).toHaveLength(0);
    const bad = await api(t.app, 'GET', '/api/audit-logs?filter[date_from]=ayer', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('Formato de fecha YYYY-MM-DD');
  });

  it('rejects a user with a role that does not exist, saving nothing', async () => {
    const res = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: 'rolmalo',
        email: 'rolmalo@example.com',
        full_name: 'Rol Malo',
        password: 'Rol-Malo-1',
        roles: [999],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toEqual([{ field: 'roles', message: 'Rol no existe' }]);
    const list = await api(t.app, 'GET', '/api/users?query=rolmalo', { token: admin });
    expect(list.body.result.total).toBe(0);
  });
});

describe('settings and types', () => {
  it('answers public settings without a token, more with one, never secrets', async () => {
    const saved = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: { COMPANY_NAME: 'Importadora Andina', SALES_API_TOKEN: 'oculto', SURVEY_EXPIRY_DAYS: 30 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.result.COMPANY_NAME).toBe('Importadora Andina');
    expect(saved.body.result.SURVEY_EXPIRY_DAYS).toBe('30');
    expect(saved.body.result).not.toHaveProperty('SALES_API_TOKEN');

    const anon = await api(t.app, 'GET', '/api/getUserConfigurations');
    expect(anon.status).toBe(200);
    const withToken = await api(t.app, 'GET', '/api/getUserConfigurations', { token: admin });
    expect(Object.keys(withToken.body.result).length).toBeGreaterThanOrEqual(
      Object.keys(anon.body.result).length,
    );
    expect(withToken.body.result.COMPANY_NAME).toBe('Importadora Andina');
    for (const body of [anon.body.result, withToken.body.result]) {
      expect(Object.keys(body).filter((k) => /secret|password|token/i.test(k))).toEqual([]);
    }
    const list = await api(t.app, 'GET', '/api/configurations?query=SALES_API_TOKEN', { token: admin });
    expect(list.body.result.data[0].value).toBeNull();
    expect(JSON.stringify(list.body)).not.toContain('oculto');
    const bad = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: { 'mal clave': 1 },
    });
    expect(bad.status).toBe(422);
  });

  it('answers type values grouped by general type code', async () => {
    const res = await api(t.app, 'GET', '/api/general-types-values', { token: admin });
    expect(res.status).toBe(200);
    const codes = Object.keys(res.body.result);
    expect(codes.length).toBeGreaterThan(0);
    const first = res.body.result[codes[0]][0];
    expect(first).toEqual(
      expect.objectContaining({ id: expect.any(Number), code: expect.any(String), name: expect.any(String) }),
    );
  });
});

const CLIENT_HTML = '<html><body>cliente</body></html>';

/** An app that serves a temporary web client folder made of `files` (both gone afterwards). */
async function withWebDist(
  files: Record<string, string>,
  use: (app: FastifyInstance, dist: string) => Promise<void>,
): Promise<void> {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dist, name), text);
  const app = await buildApp({
    handle: t.handle,
    config: loadConfig({}),
    jwtSecret: JWT_SECRET,
    webDist: dist,
  });
  try {
    await app.ready();
    await use(app, dist);
  } finally {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  }
}

describe('engine', () => {
  it('exports only the columns asked, with Spanish headers, typed cells and formulas neutralised', async () => {
    await api(t.app, 'POST', '/api/zones', { token: admin, body: { code: '=1+1', name: '@Zona Formula' } });
    const res = await api(t.app, 'GET', '/api/zones/export?columns=id,name,code,active&query=Formula', {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(
      /attachment; filename="Zonas_\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    // A title of two words names the file without spaces (issue 27).
    const types = await api(t.app, 'GET', '/api/general-types/export', { token: admin });
    expect(types.status).toBe(200);
    expect(String(types.headers['content-disposition'])).toMatch(
      /attachment; filename="Tipos_generales_\d{4}-\d{2}-\d{2}\.xlsx"/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, 'Id', 'Nombre', 'Código', 'Habilitado']);
    const row = ws.getRow(2);
    expect(typeof row.getCell(1).value).toBe('number');
    // Formula-like text is written as it was typed, as a text cell in the Text format (@): never a formula.
    expect(row.getCell(2).value).toBe('@Zona Formula');
    expect(row.getCell(3).value).toBe('=1+1');
    for (const c of [2, 3]) {
      expect(row.getCell(c).type).toBe(ExcelJS.ValueType.String);
      expect(row.getCell(c).numFmt).toBe('@');
    }
    expect(row.getCell(4).value).toBe('Sí');
    const bad = await api(t.app, 'GET', '/api/zones/export?columns=id,password', { token: admin });
    expect(bad.status).toBe(422);
  });

  it('counts exactly up to 10,000 rows and estimates beyond', async () => {
    await t.handle.query(
      `insert into concepts (code, name) select 'BIG' || g, 'Concepto ' || g from generate_series(1, 10050) g`,
    );
    await t.handle.query('analyze concepts');
    const all = await api(t.app, 'GET', '/api/concepts?perPage=5', { token: admin });
    expect(all.body.result.totalIsEstimate).toBe(true);
    expect(all.body.result.total).toBeGreaterThan(10_000);
    const filtered = await api(t.app, 'GET', '/api/concepts?perPage=5&query=Concepto', { token: admin });
    expect(filtered.body.result).toMatchObject({ total: 10_001, totalIsEstimate: true });
    const exact = await api(t.app, 'GET', '/api/concepts?perPage=5&query=Concepto 1005', { token: admin });
    expect(exact.body.result.total).toBe(2); // Concepto 1005 and Concepto 10050
    expect(exact.body.result.totalIsEstimate).toBeUndefined();
    const lookup = await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin });
    expect(lookup.body.result.length).toBe(5000);
    // SPEC §9: a list whose size the spec does not name defaults to 10 rows, as the client asks.
    const firstPage = await api(t.app, 'GET', '/api/concepts', { token: admin });
    expect(firstPage.body.result.data).toHaveLength(10);
  });

  it('answers manufacturer models as items/totalCount too', async () => {
    const res = await api(t.app, 'GET', '/api/manufacturer-models?perPage=5', { token: admin });
    expect(res.body.result).toHaveProperty('items');
    expect(res.body.result.totalCount).toBe(res.body.result.total);
  });

  it('describes every declared call in OpenAPI at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.paths).toHaveProperty('/api/dealers');
    expect(doc.paths).toHaveProperty('/api/dealers/get/{id}');
    expect(doc.paths['/api/dealers'].post.requestBody.content['application/json'].schema.required).toContain(
      'code',
    );
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });

  it('serves the web client and answers index.html for client routes', async () => {
    await withWebDist({ 'index.html': CLIENT_HTML, 'app.js': 'console.log(1)' }, async (app) => {
      const page = await app.inject({ method: 'GET', url: '/main/dealer' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('cliente');
      const js = await app.inject({ method: 'GET', url: '/app.js' });
      expect(js.body).toContain('console.log');
      const apiMiss = await app.inject({ method: 'GET', url: '/api/nada' });
      expect(apiMiss.statusCode).toBe(404);
      expect(apiMiss.json().success).toBe(false);
    });
  });

  it('answers 404 for a missing file and serves files written after start (a rebuild)', async () => {
    await withWebDist({ 'index.html': CLIENT_HTML }, async (app, dist) => {
      for (const url of ['/assets/index-viejo.js', '/assets/nada', '/favicon.ico', '/main/logo.png']) {
        const miss = await app.inject({ method: 'GET', url });
        expect(miss.statusCode, url).toBe(404);
        expect(miss.body, url).not.toContain('cliente');
      }
      // A rebuild writes new hashed assets into the same folder while the server runs.
      mkdirSync(path.join(dist, 'assets'));
      writeFileSync(path.join(dist, 'assets', 'index-nuevo.js'), 'console.log("nuevo")');
      const fresh = await app.inject({ method: 'GET', url: '/assets/index-nuevo.js' });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.body).toContain('nuevo');
      expect(fresh.headers['cache-control']).toContain('immutable');
      writeFileSync(path.join(dist, 'index.html'), '<html><body>cliente nuevo</body></html>');
      const route = await app.inject({ method: 'GET', url: '/main/dealer' });
      expect(route.statusCode).toBe(200);
      expect(route.body).toContain('cliente nuevo');
      expect(route.headers['cache-control']).toContain('no-cache');
      const root = await app.inject({ method: 'GET', url: '/' });
      expect(root.body).toContain('cliente nuevo');
      expect(root.headers['cache-control']).toContain('no-cache');
    });
  });
});
