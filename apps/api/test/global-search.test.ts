// The global search of the top bar (GET /api/search): grouped hits of the kinds the caller may
// view, a dealer user only its own dealer's (even by an exact VIN), a document only when it is
// published to the user's dealer; short texts find nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';

let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createDealerUser>>;
let b: Awaited<ReturnType<typeof createDealerUser>>;
const VIN_A = 'SRCHA000000000001';
const VIN_B = 'SRCHB000000000002';
let docShared = 0;
let docForB = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin, 'BUSQA');
  b = await createDealerUser(t.app, admin, 'BUSQB');
  await t.handle.query("insert into zones (id, name) values (1, 'Zona Uno') on conflict do nothing");
  const [m] = await t.handle.query<{ id: number }>('select id from manufacturers order by id limit 1');
  const sale = (dealer: number, vin: string, buyer: string, invoice: string) =>
    t.handle.query(
      `insert into sales (dealer_id, sale_date, invoice, buyer_name, document_type, document_number, vin,
         manufacturer_id, model_name, year, payment_method)
       values ($1, '2026-01-15', $2, $3, 'DNI', '12345678', $4, $5, 'Modelo', 2026, 'C')`,
      [dealer, invoice, buyer, vin, m!.id],
    );
  await sale(a.dealerId, VIN_A, 'Rosa Quispe Mamani', 'F001-777001');
  await sale(b.dealerId, VIN_B, 'Rosa Quispe Huamán', 'F001-777002');
  await t.handle.query(
    `insert into agreements (zone_id, dealer_id, title, due_date) values
       (1, $1, 'Renovar la sala de ventas', '2026-12-01'), (1, $2, 'Renovar el taller', '2026-12-01')`,
    [a.dealerId, b.dealerId],
  );
  const [cat] = await t.handle.query<{ id: number }>(
    "insert into categories (name) values ('Manuales de búsqueda') returning id",
  );
  const doc = async (title: string, all: boolean) =>
    (
      await t.handle.query<{ id: number }>(
        `insert into documents (title, category_id, published_at, all_dealers) values ($1, $2, '2026-01-01', $3) returning id`,
        [title, cat.id, all],
      )
    )[0]!.id;
  docShared = await doc('Circular de garantías 2026', true);
  docForB = await doc('Circular de precios solo para B', false);
  await t.handle.query('insert into document_dealers (document_id, dealer_id) values ($1, $2)', [
    docForB,
    b.dealerId,
  ]);
});
afterAll(() => t?.close());

const search = (token: string, q: string) =>
  api(t.app, 'GET', `/api/search?q=${encodeURIComponent(q)}`, { token });
const kinds = (res: Awaited<ReturnType<typeof search>>) =>
  res.body.result.groups.map((g: { kind: string }) => g.kind);
const hits = (res: Awaited<ReturnType<typeof search>>, kind: string) =>
  res.body.result.groups.find((g: { kind: string }) => g.kind === kind)?.hits ?? [];

describe('global search', () => {
  it('finds a sale by VIN, invoice or buyer, and a dealer by code or name, grouped and titled', async () => {
    const byVin = await search(admin, VIN_A.toLowerCase());
    expect(byVin.status).toBe(200);
    expect(hits(byVin, 'sales')).toEqual([
      expect.objectContaining({
        kind: 'sales',
        title: VIN_A,
        subtitle: expect.stringContaining('Rosa Quispe Mamani'),
      }),
    ]);
    expect(hits(await search(admin, '777002'), 'sales').map((h: { title: string }) => h.title)).toEqual([
      VIN_B,
    ]);
    expect(hits(await search(admin, 'quispe'), 'sales')).toHaveLength(2);
    const dealer = await search(admin, 'busqb');
    expect(dealer.body.result.groups[0]).toMatchObject({ kind: 'dealers', title: 'Concesionarios' });
    expect(hits(dealer, 'dealers')).toEqual([
      { kind: 'dealers', id: b.dealerId, title: 'Concesionario BUSQB', subtitle: 'BUSQB' },
    ]);
    expect(hits(await search(admin, 'renovar'), 'agreements')).toHaveLength(2);
    expect(hits(await search(admin, 'circular'), 'documents')).toHaveLength(2);
    expect(hits(await search(admin, a.username), 'users')[0]).toMatchObject({ id: a.userId });
  });

  it("finds a whole invoice typed in any case, in the caller's scope, and a part of one", async () => {
    const titles = (res: Awaited<ReturnType<typeof search>>) =>
      hits(res, 'sales').map((h: { title: string }) => h.title);
    expect(titles(await search(admin, 'f001-777001'))).toEqual([VIN_A]);
    expect(titles(await search(a.token, 'F001-777001'))).toEqual([VIN_A]);
    // Another dealer's whole invoice: nothing for dealer A, not even by the part search.
    expect(titles(await search(a.token, 'F001-777002'))).toEqual([]);
    expect(titles(await search(b.token, 'F001-777002'))).toEqual([VIN_B]);
    // A part of an invoice, or a whole one that no invoice is exactly: the part search.
    expect(titles(await search(admin, 'F001-7770')).sort()).toEqual([VIN_A, VIN_B].sort());
    expect(titles(await search(a.token, 'F001-7770'))).toEqual([VIN_A]);
  });

  it("never shows a dealer user another dealer's rows, even by exact VIN", async () => {
    const other = await search(a.token, VIN_B);
    expect(other.status).toBe(200);
    expect(other.body.result.groups).toEqual([]);
    expect(hits(await search(a.token, VIN_A), 'sales').map((h: { title: string }) => h.title)).toEqual([
      VIN_A,
    ]);
    expect(hits(await search(a.token, 'quispe'), 'sales').map((h: { title: string }) => h.title)).toEqual([
      VIN_A,
    ]);
    expect(
      hits(await search(a.token, 'renovar'), 'agreements').map((h: { title: string }) => h.title),
    ).toEqual(['Renovar la sala de ventas']);
    // A document chosen for dealer B only is not found by dealer A; B finds it.
    expect(hits(await search(a.token, 'circular'), 'documents').map((h: { id: number }) => h.id)).toEqual([
      docShared,
    ]);
    expect(
      hits(await search(b.token, 'circular'), 'documents')
        .map((h: { id: number }) => h.id)
        .sort(),
    ).toEqual([docShared, docForB].sort());
    // Its own dealer only among the dealers.
    expect(kinds(await search(a.token, 'busqb'))).not.toContain('dealers');
  });

  it('answers only the kinds the caller may view', async () => {
    // The dealer role cannot view users nor the dealers screen... of users.
    expect(kinds(await search(a.token, a.username))).not.toContain('users');
    // A user without any role sees no group at all.
    const name = uniq('sinrol').toLowerCase();
    const created = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: { username: name, email: `${name}@example.com`, full_name: 'Sin Rol', password: 'Sin-Rol-123' },
    });
    expect(created.status).toBe(200);
    const bare = await login(t.app, name, 'Sin-Rol-123');
    expect((await search(bare, VIN_A)).body.result.groups).toEqual([]);
    expect((await search(bare, 'busqa')).body.result.groups).toEqual([]);
  });

  it('needs 3 characters and takes any text safely', async () => {
    expect((await search(admin, 'ro')).body.result).toEqual({ q: 'ro', groups: [] });
    for (const q of ["%'; drop table sales; --", '___', '\\\\\\', 'x'.repeat(300)]) {
      const res = await search(admin, q);
      expect(res.status, q).toBe(200);
      expect(res.body.result.groups, q).toEqual([]);
    }
    const long = await search(admin, 'x'.repeat(600));
    expect(long.status).toBe(422);
    expect(long.body.error.message).toContain('Admite como máximo 500 caracteres');
    const anonymous = await api(t.app, 'GET', '/api/search?q=rosa');
    expect(anonymous.status).toBe(401);
  });
});
