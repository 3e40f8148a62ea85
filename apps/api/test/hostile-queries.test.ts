// Hostile query strings and bodies: keys named like object members, deep JSON, and exports whose
// query fails answer a 4xx envelope (never a 500, never a function's source, never a cut file).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let dealer: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealer = (await createDealerUser(t.app, admin)).token;
});
afterAll(() => t?.close());

const MEMBER_KEYS = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  'isPrototypeOf',
  '__defineGetter__',
];
const LISTS = ['/api/sales', '/api/audit-logs', '/api/dealers'];
const SUFFIXES = ['', '/export', '/query-search'];

async function get(url: string, token: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body };
}

describe('filter, sort and column keys are the declaration’s own names only', () => {
  it('filter[<member>]=1 answers 422 on lists, exports and searches (admin and dealer user)', async () => {
    for (const base of LISTS) {
      for (const suffix of SUFFIXES) {
        for (const key of MEMBER_KEYS) {
          for (const token of base === '/api/sales' ? [admin, dealer] : [admin]) {
            const url = `${base}${suffix}?filter[${key}]=1&query=ab`;
            const res = await get(url, token);
            expect(res.status, `${url}: ${res.body.slice(0, 200)}`).toBe(422);
            expect(JSON.parse(res.body).error.message).toBe(`No se puede filtrar por ${key}`);
          }
        }
      }
    }
  });

  it('the same keys in the JSON filter answer 422', async () => {
    for (const base of LISTS) {
      for (const key of MEMBER_KEYS) {
        const filter = encodeURIComponent(`{"${key}":"1"}`);
        const res = await get(`${base}?filter=${filter}`, admin);
        expect(res.status, `${base} ${key}: ${res.body.slice(0, 200)}`).toBe(422);
      }
    }
  });

  it('sort=<member> answers 422 with the key, never a function’s source', async () => {
    for (const base of LISTS) {
      for (const key of MEMBER_KEYS) {
        const res = await get(`${base}?sort=${key}`, admin);
        expect(res.status, `${base} sort=${key}`).toBe(422);
        expect(res.body).not.toMatch(/function|native code|=>/);
        expect(JSON.parse(res.body).error.message).toBe(`No se puede ordenar por ${key}`);
      }
    }
  });

  it('columns=<member> on an export answers 422', async () => {
    const res = await get('/api/dealers/export?columns=id,__proto__', admin);
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).error.message).toContain('Columnas no válidas: __proto__');
    const res2 = await get('/api/dealers/export?columns=constructor', admin);
    expect(res2.status).toBe(422);
  });
});

describe('JSON bodies', () => {
  it('a body nested 5,000 levels deep answers 400 in the envelope', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await api(t.app, 'POST', '/api/type-values', { token: admin, rawBody: deep });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.message).toContain('demasiados niveles de anidamiento');
    const arrays = await api(t.app, 'POST', '/api/type-values', {
      token: admin,
      rawBody: `${'['.repeat(5000)}${']'.repeat(5000)}`,
    });
    expect(arrays.status).toBe(400);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await api(t.app, 'POST', '/api/zones', {
      token: admin,
      body: { name: `Zona ${'{['.repeat(100)}` },
    });
    expect(res.status).not.toBe(400);
  });
});

describe('exports run their query before the first byte', () => {
  const cases = [
    ['a NUL in the search', '/api/dealers/export?query=%00abc'],
    ['an impossible date', '/api/sales/export?filter[date_from]=2024-02-31'],
    ['an id out of range', '/api/sales/export?filter[dealer_id]=99999999999'],
    ['a NUL in a text filter', '/api/audit-logs/export?filter[resource]=%00'],
  ] as const;
  for (const [name, url] of cases) {
    it(`${name}: a 4xx envelope, not a file cut short`, async () => {
      const res = await get(url, admin);
      expect(res.status, res.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.type).toContain('application/json');
      expect(JSON.parse(res.body).success).toBe(false);
    });
  }

  it('a good export still answers a whole workbook', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/dealers/export',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
