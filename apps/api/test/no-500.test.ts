// Bad input never gives a 500: odd bodies and query strings sent to every declared resource and
// every declared action, and no error message shows a stack, SQL or a file path.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { allActions, allResources } from '../src/core/registry';
import { API_MODULES } from '../src/modules';
import { api, createTestApp, login, type TestContext } from './harness';

// Every declared resource and action of the registry: a new call is fuzzed without a line here.
const resources = allResources(API_MODULES);
const actions = allActions(API_MODULES).filter((a) => a.path !== '/api/auth/logout');

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

const BODIES: unknown[] = [
  [],
  'texto',
  42,
  null,
  { id: 'x', name: { a: 1 }, code: ['a'] },
  { name: 'x'.repeat(10_000), code: 'y'.repeat(5000) },
  { dealer_id: 1e20, zone_id: -5, department_id: 1.5, province_id: 'NaN', active: 'si' },
  { __proto__: { admin: true }, constructor: { prototype: { x: 1 } }, name: 'Proto' },
  { email: 'a@b', password: 1234, roles: 'admin', payload: { deep: [[[[1]]]] } },
];

const QUERIES = [
  'page=999999999&perPage=100',
  'page=-1',
  'perPage=-2',
  'perPage=1e3',
  'sort=name;drop table users&order=asc',
  'sort=&order=',
  "query=' or 1=1 --",
  `query=${'x'.repeat(500)}`,
  'filter[id]=1,abc',
  "filter[active]=1'",
  'filter=[1,2]',
  'filter={"active":{"$ne":1}}',
  'columns=,,,',
];

it('answers 4xx (or 200) for odd bodies and query strings on every resource, never 500', async () => {
  const seen: string[] = [];
  for (const r of resources) {
    const base = `/api/${r.path}`;
    for (const q of QUERIES) {
      for (const url of [`${base}?${q}`, `${base}/query-search?${q}`, `${base}/export?${q}`]) {
        const res = await api(t.app, 'GET', url, { token: admin });
        if (res.status >= 500) seen.push(`GET ${url} → ${res.status}`);
      }
    }
    if (r.readOnly) continue;
    for (const body of BODIES) {
      for (const [m, url] of [
        ['POST', base],
        ['PUT', `${base}/1`],
      ] as const) {
        const res = await api(t.app, m, url, { token: admin, rawBody: JSON.stringify(body) });
        if (res.status >= 500) seen.push(`${m} ${url} ${JSON.stringify(body).slice(0, 60)} → ${res.status}`);
        else if (res.status >= 400) expect(res.body.success, `${m} ${url}`).toBe(false);
      }
    }
    for (const id of ['0', '-1', '99999999999', '1.5', '%00']) {
      const res = await api(t.app, 'GET', `${base}/get/${id}`, { token: admin });
      if (res.status >= 500) seen.push(`GET ${base}/get/${id} → ${res.status}`);
    }
  }
  expect(seen).toEqual([]);
}, 300_000);

/** What an error message must never show a user. */
const LEAK = /\bat .+:\d+:\d+|node_modules|\/src\/|\bselect\b.+\bfrom\b|\binsert into\b|syntax error at/i;

it('answers every declared action with odd bodies, query strings and ids without a 500 or a leak', async () => {
  const seen: string[] = [];
  for (const a of actions) {
    const urls = ['1', '999999', '0', '%00', 'x'.repeat(120)].map((id) =>
      a.path.replace(/:id/g, id).replace(/:([a-z_]+)/gi, 'token-de-prueba'),
    );
    for (const base of urls) {
      for (const q of QUERIES) {
        const url = `${base}?${q}`;
        const bodies = a.method === 'GET' || a.method === 'DELETE' ? [undefined] : BODIES;
        for (const body of bodies) {
          const res = await api(t.app, a.method, url, {
            token: admin,
            rawBody: body === undefined ? undefined : JSON.stringify(body),
          });
          const what = `${a.method} ${url.slice(0, 80)} ${JSON.stringify(body)?.slice(0, 40) ?? ''}`;
          if (res.status >= 500) seen.push(`${what} → ${res.status}`);
          else if (res.status >= 400) {
            if (res.body?.success !== false) seen.push(`${what} → ${res.status} sin sobre`);
            else if (LEAK.test(`${res.body.error.message} ${res.body.error.details ?? ''}`))
              seen.push(`${what} → filtra: ${res.body.error.message}`);
          }
        }
      }
    }
  }
  expect(seen).toEqual([]);
}, 300_000);
