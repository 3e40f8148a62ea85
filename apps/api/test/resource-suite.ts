// Tests generated from the resource declarations: every declared resource is checked the way a
// user would (list, paging, sort, search, create, a bad field, update, delete, permission
// denied, export, and dealer isolation for the scoped ones).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allResources } from '../src/core/registry';
import type { Resource } from '../src/core/resource';
import { API_MODULES } from '../src/modules';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

export interface CaseContext {
  /** A fresh code/name fragment, unique within the run. */
  next(): number;
  /** A dealer created for the file (admin owned). */
  dealerId: number;
}

export interface ResourceCase {
  resource: Resource;
  /** A valid create body whose search field contains `marker`. */
  sample(marker: string, ctx: CaseContext): Record<string, unknown>;
  /** A change for update, with the field to read back. */
  update(marker: string): Record<string, unknown>;
  /** A bad body and the validation message it must produce. */
  invalid: { body: (ctx: CaseContext) => Record<string, unknown>; field: string; message: string };
  /** Resources seeded with rows that cannot be deleted freely (skip nothing else). */
  label?: string;
}

let counter = 0;

/** The resource the API serves at a path, declared by a module or plain (core/registry). */
export function servedResource(path: string): Resource {
  const found = allResources(API_MODULES).find((r) => r.path === path);
  if (!found) throw new Error(`No se sirve el recurso ${path}`);
  return found;
}

export function resourceSuite(cases: ResourceCase[]): void {
  let t: TestContext;
  let admin: string;
  let noRole: string;
  const ctx: CaseContext = { next: () => ++counter, dealerId: 0 };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    const d = await api(t.app, 'POST', '/api/dealers', {
      token: admin,
      body: { code: `SUITE${process.pid % 1000}`, name: 'Concesionario de pruebas' },
    });
    ctx.dealerId = d.body.result.id;
    const u = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username: 'sinrol',
        email: 'sinrol@example.com',
        full_name: 'Sin Rol',
        password: 'Sin-Rol-123',
      },
    });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    noRole = await login(t.app, 'sinrol', 'Sin-Rol-123');
  });
  afterAll(() => t?.close());

  for (const c of cases) {
    const r = c.resource;
    const base = `/api/${r.path}`;
    const create = async (marker: string) => {
      const res = await api(t.app, 'POST', base, { token: admin, body: c.sample(marker, ctx) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result as Record<string, any>;
    };

    describe(`${r.path} (${r.label})`, () => {
      it('lists with paging: {total, data}, page size respected', async () => {
        if (!r.readOnly) for (let i = 0; i < 3; i++) await create(`Pag${ctx.next()}`);
        const res = await api(t.app, 'GET', `${base}?page=1&perPage=2`, { token: admin });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(res.body.result.data.length).toBeLessThanOrEqual(2);
        expect(res.body.result.total).toBeGreaterThanOrEqual(res.body.result.data.length);
        if (res.body.result.total > 2) {
          const p2 = await api(t.app, 'GET', `${base}?page=2&perPage=2`, { token: admin });
          expect(p2.body.result.data[0]?.id).not.toBe(res.body.result.data[0]?.id);
        }
        const bad = await api(t.app, 'GET', `${base}?perPage=1000`, { token: admin });
        expect(bad.status).toBe(422);
      });

      it('sorts on every declared column and refuses others', async () => {
        for (const field of r.sortable) {
          for (const order of ['asc', 'desc']) {
            const res = await api(t.app, 'GET', `${base}?sort=${field}&order=${order}&perPage=5`, {
              token: admin,
            });
            expect(res.status, `${field} ${order}: ${JSON.stringify(res.body)}`).toBe(200);
          }
          // The order itself: on a list that fits one page, descending is ascending reversed
          // (ties are broken by id, so compare the sorted values, not the rows).
          const page = async (order: string) =>
            api(t.app, 'GET', `${base}?sort=${field}&order=${order}&perPage=100`, { token: admin });
          const asc = await page('asc');
          if (asc.body.result.total <= 100) {
            const values = (res: typeof asc) =>
              res.body.result.data.map((x: Record<string, unknown>) => JSON.stringify(x[field] ?? null));
            const desc = await page('desc');
            expect(values(desc), `${field}: desc no es asc invertido`).toEqual([...values(asc)].reverse());
          } else {
            // A big list: numbers and dates ascend on the first page.
            const seen = asc.body.result.data.map((x: Record<string, unknown>) => x[field]);
            const nums = seen.filter((v: unknown) => typeof v === 'number') as number[];
            for (let i = 1; i < nums.length; i++) expect(nums[i]).toBeGreaterThanOrEqual(nums[i - 1]);
          }
        }
        if (r.sortable.includes('id')) {
          const res = await api(t.app, 'GET', `${base}?sort=id&order=desc&perPage=10`, { token: admin });
          const ids = res.body.result.data.map((x: { id: number }) => x.id);
          expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
        }
        const bad = await api(t.app, 'GET', `${base}?sort=no_such_column`, { token: admin });
        expect(bad.status).toBe(422);
        expect(bad.body.error.validationErrors[0].field).toBe('sort');
      });

      it('answers the permission-denied error without the permission', async () => {
        const res = await api(t.app, 'GET', base, { token: noRole });
        expect(res.status).toBe(403);
        expect(res.body.success).toBe(false);
        expect(res.body.error.message).toMatch(/^No tiene permiso para ver/);
        const exp = await api(t.app, 'GET', `${base}/export`, { token: noRole });
        expect(exp.status).toBe(403);
        if (!r.readOnly) {
          const post = await api(t.app, 'POST', base, {
            token: noRole,
            body: c.sample(`X${ctx.next()}`, ctx),
          });
          expect(post.status).toBe(403);
          expect(post.body.error.message).toMatch(/^No tiene permiso para crear/);
        }
        const lookup = await api(t.app, 'GET', `${base}?perPage=-1`, { token: noRole });
        expect(lookup.status).toBe(r.lookup === 'authenticated' ? 200 : 403);
        const one = await api(t.app, 'GET', `${base}/get/1`, { token: noRole });
        expect(r.lookup === 'authenticated' ? [200, 404] : [403]).toContain(one.status);
      });

      it('exports the list to a real .xlsx', async () => {
        const res = await api(t.app, 'GET', `${base}/export?perPage=5`, { token: admin });
        expect(res.status).toBe(200);
        expect(String(res.headers['content-type'])).toContain('spreadsheetml');
        expect(res.raw.subarray(0, 2).toString()).toBe('PK');
      });

      if (r.readOnly) return;

      it('searches with ?query= and query-search, and lists active ones with perPage=-1', async () => {
        const marker = `Busq${ctx.next()}`;
        const row = await create(marker);
        const res = await api(t.app, 'GET', `${base}?query=${marker}`, { token: admin });
        expect(res.status).toBe(200);
        expect(res.body.result.data.map((x: { id: number }) => x.id)).toContain(row.id);
        expect(res.body.result.total).toBe(1);
        const none = await api(t.app, 'GET', `${base}?query=${encodeURIComponent('%_nada%')}`, {
          token: admin,
        });
        expect(none.body.result.total).toBe(0);
        const qs = await api(t.app, 'GET', `${base}/query-search?query=${marker}`, { token: admin });
        expect(qs.status).toBe(200);
        expect(qs.body.result.map((x: { id: number }) => x.id)).toEqual([row.id]);
        const all = await api(t.app, 'GET', `${base}?perPage=-1`, { token: admin });
        expect(Array.isArray(all.body.result)).toBe(true);
        expect(all.body.result.map((x: { id: number }) => x.id)).toContain(row.id);
      });

      it('creates, reads back, updates and deletes a record', async () => {
        const marker = `Crud${ctx.next()}`;
        const row = await create(marker);
        expect(row.id).toBeGreaterThan(0);
        const got = await api(t.app, 'GET', `${base}/get/${row.id}`, { token: admin });
        expect(got.status).toBe(200);
        expect(got.body.result.id).toBe(row.id);
        expect(got.body.result).not.toHaveProperty('password_hash');
        const change = c.update(`Upd${ctx.next()}`);
        const upd = await api(t.app, 'PUT', `${base}/${row.id}`, { token: admin, body: change });
        expect(upd.status, JSON.stringify(upd.body)).toBe(200);
        for (const [k, v] of Object.entries(change))
          if (k !== 'password') expect(upd.body.result[k]).toEqual(v);
        const del = await api(t.app, 'DELETE', `${base}/${row.id}`, { token: admin });
        expect(del.status, JSON.stringify(del.body)).toBe(200);
        const gone = await api(t.app, 'GET', `${base}/get/${row.id}`, { token: admin });
        expect(gone.status).toBe(404);
        const audit = await api(
          t.app,
          'GET',
          `/api/audit-logs?filter[resource]=${r.name}&filter[record_id]=${row.id}`,
          {
            token: admin,
          },
        );
        expect(audit.body.result.data.map((a: { action: string }) => a.action).sort()).toEqual([
          'create',
          'delete',
          'update',
        ]);
        expect(JSON.stringify(audit.body.result.data)).not.toContain('password');
      });

      it(`rejects a bad ${c.invalid.field} with the Spanish message`, async () => {
        const res = await api(t.app, 'POST', base, { token: admin, body: c.invalid.body(ctx) });
        expect(res.status).toBe(422);
        expect(res.body.success).toBe(false);
        expect(res.body.error.validationErrors).toContainEqual({
          field: c.invalid.field,
          message: c.invalid.message,
        });
      });

      it('answers 404 for an unknown id', async () => {
        for (const [m, url] of [
          ['GET', `${base}/get/99999999`],
          ['PUT', `${base}/99999999`],
          ['DELETE', `${base}/99999999`],
          ['GET', `${base}/get/abc`],
        ] as const) {
          const res = await api(t.app, m, url, { token: admin, body: m === 'PUT' ? {} : undefined });
          expect(res.status, `${m} ${url}`).toBe(404);
        }
      });

      if (r.dealerColumn) {
        it('keeps a dealer user to its own dealer', async () => {
          const a = await createDealerUser(t.app, admin);
          const b = await createDealerUser(t.app, admin);
          const mine: number[] = [];
          const theirs: number[] = [];
          if (r.dealerColumn === 'id') {
            mine.push(a.dealerId);
            theirs.push(b.dealerId);
          } else {
            for (const [dealer, list] of [
              [a.dealerId, mine],
              [b.dealerId, theirs],
            ] as const) {
              const body = { ...c.sample(`Iso${ctx.next()}`, ctx), [r.dealerColumn!]: dealer };
              const res = await api(t.app, 'POST', base, { token: admin, body });
              expect(res.status, JSON.stringify(res.body)).toBe(200);
              list.push(res.body.result.id);
            }
          }
          const lookup = await api(t.app, 'GET', `${base}?perPage=-1`, { token: a.token });
          if (lookup.status === 200) {
            const ids = lookup.body.result.map((x: { id: number }) => x.id);
            expect(ids).toEqual(expect.arrayContaining(mine));
            expect(ids).not.toContain(theirs[0]);
          }
          const list = await api(t.app, 'GET', `${base}?perPage=50`, { token: a.token });
          if (list.status === 200) {
            const ids = list.body.result.data.map((x: { id: number }) => x.id);
            expect(ids).toEqual(expect.arrayContaining(mine));
            expect(ids).not.toContain(theirs[0]);
            expect(list.body.result.total).toBe(mine.length);
            const other = await api(t.app, 'GET', `${base}/get/${theirs[0]}`, { token: a.token });
            expect(other.status).toBe(404);
          }
          if (lookup.status !== 200 && list.status !== 200)
            throw new Error('el rol Concesionario no puede leer');
          const canWrite = (
            await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: a.token })
          ).body.result.user.permissions as string[];
          if (canWrite.includes(`${r.permission}.update`)) {
            const upd = await api(t.app, 'PUT', `${base}/${theirs[0]}`, {
              token: a.token,
              body: c.update('x'),
            });
            expect(upd.status).toBe(404);
            const del = await api(t.app, 'DELETE', `${base}/${theirs[0]}`, { token: a.token });
            expect(del.status).toBe(404);
          }
          if (canWrite.includes(`${r.permission}.store`)) {
            const body = { ...c.sample(`Own${ctx.next()}`, ctx), [r.dealerColumn!]: b.dealerId };
            const res = await api(t.app, 'POST', base, { token: a.token, body });
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body.result[r.dealerColumn!]).toBe(a.dealerId);
          }
        });
      }
    });
  }
}
