// Lists read a page's ids from the base table first and join only those rows (deferred join);
// a search matches the fields of small joined tables through the base table's references. The
// answer must stay what the single joined query answered before: same rows, order and totals.
// Also: the pg_trgm indexes of the quick search exist after the migrations and can serve it.
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCurrentUser } from '../src/core/auth';
import type { CurrentUser } from '../src/core/context';
import type { QueryParams } from '../src/core/http';
import type { Resource } from '../src/core/resource';
import {
  listConditions,
  lookupOrder,
  orderBy,
  readPaging,
  selectFrom,
  withComputed,
} from '../src/core/resource-query';
import { CACHED_CATALOGUES } from '../src/db/schema';
import { dealerContactResource, dealerResource } from '../src/modules/organisation/organisation.resources';
import { ADMIN_USERNAME, api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let adminUser: CurrentUser;
let dealer: { dealerId: number; token: string; userId: number };
let dealerUser: CurrentUser;
let districtName: string;

const q = <T = any>(text: string, params: unknown[] = []) => t.handle.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealer = await createDealerUser(t.app, admin, 'DJ0001');
  const [{ id: adminId }] = await q<{ id: number }>('select id from users where username = $1', [
    ADMIN_USERNAME,
  ]);
  adminUser = (await loadCurrentUser(t.app, adminId))!;
  dealerUser = (await loadCurrentUser(t.app, dealer.userId))!;

  await q(`insert into zones (code, name) values ('LN', 'Zona Lista Norte'), ('LS', 'Zona Lista Sur'),
    ('LC', 'Zona Lista Centro')`);
  // 60 dealers: repeated names (the id breaks ties), some without zone or district, every
  // seventh inactive, over five districts of the seeded ubigeo.
  await q(`insert into dealers (code, name, ruc, zone_id, department_id, province_id, district_id,
      address_address1, active)
    select 'DJ' || lpad(g::text, 4, '0'),
           'Deferido ' || chr(65 + g % 6),
           (20500000000 + g)::text,
           case when g % 5 = 0 then null else z.ids[1 + g % 3] end,
           u.deps[1 + g % 5], u.provs[1 + g % 5],
           case when g % 11 = 0 then null else u.dists[1 + g % 5] end,
           'Calle ' || g, g % 7 <> 0
    from generate_series(2, 61) g,
      (select array_agg(id order by code) ids from zones where code in ('LN', 'LS', 'LC')) z,
      (select array_agg(d.id order by d.id) dists, array_agg(p.id order by d.id) provs,
              array_agg(p.department_id order by d.id) deps
         from (select * from districts order by id limit 5) d join provinces p on p.id = d.province_id) u`);
  [{ name: districtName }] = await q<{ name: string }>('select name from districts order by id limit 1');
  // Contacts: 25 for the dealer user's dealer, 4 for each of the others.
  await q(
    `insert into dealer_contacts (dealer_id, name, email, position, receives_alerts)
     select $1, 'Contacto ' || chr(65 + g % 4), 'c' || g || '@lista.pe', 'Cargo ' || g % 3, g % 2 = 0
     from generate_series(1, 25) g`,
    [dealer.dealerId],
  );
  await q(
    `insert into dealer_contacts (dealer_id, name, email, position)
    select d.id, 'Persona ' || chr(65 + (d.id + g) % 5), 'p' || d.id || '_' || g || '@lista.pe', 'Jefe'
    from dealers d, generate_series(1, 4) g where d.code like 'DJ00%' and d.id <> $1`,
    [dealer.dealerId],
  );
});

afterAll(async () => {
  await t?.close();
});

/**
 * What the list answered before the deferred join: one query with every join, the plain search on
 * the joins (the catalogue names from SQL, not from the server's copy), the computed fields.
 */
async function joinedAnswer(res: Resource, user: CurrentUser, query: QueryParams) {
  const db = t.handle.db as any;
  const cond = await listConditions(res, user, query);
  const order = orderBy(res, query);
  const { page, perPage } = readPaging(res, query);
  const data = await selectFrom(db, res)
    .where(cond.where)
    .orderBy(...order)
    .limit(perPage)
    .offset((page - 1) * perPage);
  const all = selectFrom(db, res, { one: sql`1` }).where(cond.where).as('all_rows');
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(all);
  return { total: n, data: JSON.parse(JSON.stringify(withComputed(res, data))) };
}

/** The old lookup (perPage=-1, query-search): every join, ordered by the lookup order. */
async function lookupBefore(res: Resource, user: CurrentUser, query: QueryParams, limit: number) {
  const cond = await listConditions(res, user, query, true);
  const rows = await selectFrom(t.handle.db as any, res)
    .where(cond.where)
    .orderBy(...lookupOrder(res))
    .limit(limit);
  return JSON.parse(JSON.stringify(withComputed(res, rows)));
}

const qs = (query: QueryParams) =>
  new URLSearchParams(Object.entries(query) as [string, string][]).toString();

describe('the deferred-join list answers what the joined query answered', () => {
  const dealerCases: QueryParams[] = [
    {},
    { page: '2', perPage: '10' },
    { sort: 'zone_name', perPage: '7', page: '2' },
    { sort: 'zone_name', order: 'desc', perPage: '9', page: '3' },
    { sort: 'district_name', perPage: '100' },
    { query: 'lista nor', perPage: '100' },
    { query: 'LISTA', sort: 'zone_name', order: 'desc', perPage: '6', page: '2' },
    { query: 'dj001', perPage: '100' },
    { query: '2050000002', perPage: '100' },
    { 'filter[active]': 'true', sort: 'zone_name', perPage: '8', page: '2' },
    { 'filter[active]': 'false', query: 'Deferido', perPage: '100' },
    { 'filter[zone_id]': 'null', sort: 'district_name', order: 'desc', perPage: '100' },
    // From DIRECT_OFFSET on, the deferred join (the pages above read their rows directly).
    { page: '6', perPage: '10' },
    { sort: 'zone_name', order: 'desc', perPage: '9', page: '7' },
    { sort: 'district_name', perPage: '25', page: '3' },
    { query: 'deferido', perPage: '10', page: '6' },
  ];

  it('dealers as the administrator: joined sorts, searches (incl. zone and district names), filters', async () => {
    for (const query of [...dealerCases, { query: districtName.slice(1, 6), perPage: '100' }]) {
      const res = await api(t.app, 'GET', `/api/dealers?${qs(query)}`, { token: admin });
      expect(res.status, JSON.stringify(query)).toBe(200);
      const expected = await joinedAnswer(dealerResource, adminUser, query);
      expect(expected.data.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(res.body.result, JSON.stringify(query)).toEqual(expected);
    }
  });

  it('dealers and dealer contacts as a dealer user (scoped, also with a search and a joined sort)', async () => {
    // The dealer select of a dealer user (no Admin.Dealers.view): its own dealer, lookup fields.
    const select = await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: dealer.token });
    expect(select.body.result).toEqual([
      { id: dealer.dealerId, code: 'DJ0001', name: 'Concesionario DJ0001', active: true },
    ]);

    const cases: QueryParams[] = [
      {},
      { perPage: '5', page: '3' },
      { sort: 'dealer_name', order: 'desc', perPage: '4', page: '2' },
      { query: 'contacto b' },
      { query: 'concesionario dj0001', perPage: '100' },
      { query: 'Deferido', perPage: '100' },
      { 'filter[receives_alerts]': 'false', sort: 'email', order: 'desc', perPage: '6', page: '2' },
    ];
    for (const query of cases) {
      const res = await api(t.app, 'GET', `/api/dealer-contacts?${qs(query)}`, { token: dealer.token });
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body.result, JSON.stringify(query)).toEqual(
        await joinedAnswer(dealerContactResource, dealerUser, query),
      );
      for (const row of res.body.result.data) expect(row.dealer_id).toBe(dealer.dealerId);
    }
    // The dealer's 25 contacts, and none of another dealer's even when searched by its name.
    const all = await api(t.app, 'GET', '/api/dealer-contacts?perPage=100', { token: dealer.token });
    expect(all.body.result.total).toBe(25);
    const other = await api(t.app, 'GET', '/api/dealer-contacts?query=Deferido', { token: dealer.token });
    expect(other.body.result).toEqual({ total: 0, data: [] });
  });

  it('dealer contacts as the administrator, sorted and searched by the dealer name', async () => {
    for (const query of [
      { sort: 'dealer_name', order: 'desc', perPage: '4', page: '3' },
      { sort: 'dealer_name', order: 'desc', perPage: '10', page: '8' },
      { perPage: '20', page: '4' },
      { query: 'deferido c', sort: 'dealer_name', perPage: '100' },
      { 'filter[dealer_id]': String(dealer.dealerId), query: 'lista.pe', perPage: '10', page: '2' },
    ] as QueryParams[]) {
      const res = await api(t.app, 'GET', `/api/dealer-contacts?${qs(query)}`, { token: admin });
      expect(res.status).toBe(200);
      const expected = await joinedAnswer(dealerContactResource, adminUser, query);
      expect(expected.data.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(res.body.result, JSON.stringify(query)).toEqual(expected);
    }
  });

  it('lookups (perPage=-1) and the quick search answer the same rows as before', async () => {
    const list = await api(t.app, 'GET', '/api/dealers?perPage=-1&query=deferido', { token: admin });
    expect(list.body.result).toEqual(
      await lookupBefore(dealerResource, adminUser, { query: 'deferido' }, 5000),
    );
    expect(list.body.result.length).toBeGreaterThan(40);
    const search = await api(t.app, 'GET', '/api/dealers/query-search?query=lista sur', { token: admin });
    expect(search.body.result).toEqual(
      await lookupBefore(dealerResource, adminUser, { query: 'lista sur' }, 20),
    );
    expect(search.body.result.length).toBeGreaterThan(5);
  });

  it('an export holds the rows of the list in its order', async () => {
    const query = { sort: 'zone_name', order: 'desc', query: 'deferido', perPage: '100' };
    const list = await api(t.app, 'GET', `/api/dealers?${qs(query)}`, { token: admin });
    const exp = await api(t.app, 'GET', `/api/dealers/export?${qs(query)}&columns=code,zone_name`, {
      token: admin,
    });
    expect(exp.status).toBe(200);
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exp.raw as any);
    const codes: string[] = [];
    book.worksheets[0].eachRow((row, n) => {
      if (n > 1) codes.push(String(row.getCell(1).value));
    });
    expect(codes).toEqual(list.body.result.data.map((d: { code: string }) => d.code));
  });
});

describe('the quick search of the big tables reads pg_trgm indexes', () => {
  it('creates the extension and the trigram indexes', async () => {
    expect(await q(`select extname from pg_extension where extname = 'pg_trgm'`)).toEqual([
      { extname: 'pg_trgm' },
    ]);
    const rows = await q<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where indexname in ('dealers_search_idx', 'dealer_contacts_search_idx', 'sales_search_idx')
       order by indexname`,
    );
    expect(rows.map((r) => r.indexname)).toEqual([
      'dealer_contacts_search_idx',
      'dealers_search_idx',
      'sales_search_idx',
    ]);
    for (const r of rows) expect(r.indexdef).toMatch(/USING gin \(.*gin_trgm_ops/);
    expect(rows[1].indexdef).toMatch(/code gin_trgm_ops, name gin_trgm_ops, ruc gin_trgm_ops/);
  });

  it("every branch of the dealers' search can use an index (no sequential scan is needed)", async () => {
    // A text that names a zone and a district: all five branches (code, name, ruc, zone, district).
    await q(`insert into zones (code, name) values ('LD', $1)`, [`Zona ${districtName}`]);
    const searched = districtName.toLowerCase();
    const cond = await listConditions(dealerResource, adminUser, { query: searched }, false, t.handle);
    const db = t.handle.db as any;
    const query = db.select({ id: dealerResource.columns.id }).from(dealerResource.table).where(cond.where);
    const { sql: text, params } = query.toSQL();
    const plan = await db.transaction(async (tx: any) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained = await tx.execute(sql.raw(`explain ${inline(text, params)}`));
      return explained.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/dealers_search_idx/);
    expect(plan).toMatch(/dealers_zone_idx/);
    expect(plan).toMatch(/dealers_district_idx/);
    expect(plan).not.toMatch(/Seq Scan on dealers/);
  });
});

/** The statement with its parameters written in (EXPLAIN takes no parameters on PGlite). */
function inline(text: string, params: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, i) => {
    const v = params[Number(i) - 1];
    const literal = Array.isArray(v) ? `{${v.join(',')}}` : String(v);
    return `'${literal.replace(/'/g, "''")}'`;
  });
}

describe('the catalogue names a list page takes from the server’s copy', () => {
  const zoneOf = async (code: string) => {
    const page = await api(t.app, 'GET', `/api/dealers?perPage=100&query=${code}`, { token: admin });
    return page.body.result.data[0]?.zone_name;
  };

  it('every cached catalogue has its version row, and a write to it moves the version', async () => {
    const rows = await q<{ table_name: string; version: number }>(
      'select table_name, version from catalogue_versions order by table_name',
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual([...CACHED_CATALOGUES].sort());
    const before = rows.find((r) => r.table_name === 'zones')!.version;
    await q(`update zones set code = code where code = 'LN'`);
    const [{ version }] = await q<{ version: number }>(
      `select version from catalogue_versions where table_name = 'zones'`,
    );
    expect(version).toBe(before + 1);
  });

  it('a zone renamed outside the engine (plain SQL) is named anew by the very next page', async () => {
    await q(`insert into zones (code, name) values ('CV', 'Zona Copia Uno')`);
    await q(`update dealers set zone_id = (select id from zones where code = 'CV') where code = 'DJ0002'`);
    expect(await zoneOf('DJ0002')).toBe('Zona Copia Uno');
    await q(`update zones set name = 'Zona Copia Dos' where code = 'CV'`);
    expect(await zoneOf('DJ0002')).toBe('Zona Copia Dos');
  });

  it('a zone renamed through the API is named anew by the next page and by the record', async () => {
    const [{ id }] = await q<{ id: number }>(`select id from zones where code = 'CV'`);
    const saved = await api(t.app, 'PUT', `/api/zones/${id}`, {
      token: admin,
      body: { name: 'Zona Copia Tres' },
    });
    expect(saved.body.success).toBe(true);
    expect(await zoneOf('DJ0002')).toBe('Zona Copia Tres');
    const got = await api(t.app, 'GET', `/api/dealers/get/${await dealerIdOf('DJ0002')}`, { token: admin });
    expect(got.body.result.zone_name).toBe('Zona Copia Tres');
  });
  it('an export of a name and the address alone fills them as the list does', async () => {
    const list = await api(t.app, 'GET', '/api/dealers?query=deferido&perPage=100', { token: admin });
    const res = await api(
      t.app,
      'GET',
      '/api/dealers/export?query=deferido&columns=code,full_address,province_name',
      {
        token: admin,
      },
    );
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((row, n) => {
      if (n > 1) rows.push((row.values as unknown[]).slice(1, 4).map((v) => v ?? null));
    });
    const expected = list.body.result.data.map((d: Record<string, unknown>) => [
      d.code,
      d.full_address,
      d.province_name,
    ]);
    expect(expected.some((r: unknown[]) => typeof r[1] === 'string' && (r[1] as string).includes(', '))).toBe(
      true,
    );
    expect(rows).toEqual(expected);
  });
});

async function dealerIdOf(code: string): Promise<number> {
  const [{ id }] = await q<{ id: number }>('select id from dealers where code = $1', [code]);
  return id;
}
