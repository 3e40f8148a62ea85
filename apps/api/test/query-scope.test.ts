// The period and the dealer scope of every call, from the registry: a call that reads its query
// declares it (a zod schema of contracts/query the engine parses: 422 naming the parameter, the
// defaults of Lima's clock, /api/docs); a call whose query names a dealer holds a dealer user to
// its own, whatever dealer_id it sends (another dealer's id answers 404, as any record of another
// dealer does), even a dealer user whose role holds every permission.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionQuerySchema, bodyDealer, bodyDealerPath, declaresDealer } from '../src/core/action';
import { allActions } from '../src/core/registry';
import { API_MODULES } from '../src/modules';
import {
  api,
  createDealerAdmin,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
  testToday,
} from './harness';

const actions = allActions(API_MODULES);
const scoped = actions.filter((a) => a.method === 'GET' && declaresDealer(a));
const bodyScoped = actions.filter((a) => bodyDealer(a));

let t: TestContext;
let admin: string;
let own: number;
let other: number;
let dealerAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  const a = await createDealerUser(t.app, admin);
  const b = await createDealerUser(t.app, admin);
  own = a.dealerId;
  other = b.dealerId;
  // A dealer user whose role holds every permission: only the dealer scope stands in its way.
  dealerAdmin = await createDealerAdmin(t.app, admin, own);
});

afterAll(async () => {
  await t?.close();
});

describe('query declarations', () => {
  it('every call that reads its query declares it (no hand reader of year, month or dealer_id)', () => {
    const undeclared = actions
      // (`query: {}`: an empty query handed on, nothing read)
      .filter((a) => /\bquery\b(?!\s*(\(|:\s*\{\s*\}))/.test(a.handler.toString()) && !actionQuerySchema(a))
      .map((a) => `${a.method} ${a.path}`);
    expect(undeclared).toEqual([]);
    // Every call that takes a query at all takes it as a schema (the old documentation-only form is gone).
    expect(actions.filter((a) => a.query && !actionQuerySchema(a)).map((a) => a.path)).toEqual([]);
  });

  it('the reports, grids and dashboard calls that filter by dealer declare it', () => {
    const paths = scoped.map((a) => a.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/resumen-comparativo',
        '/api/resumen-comparativo/export',
        '/api/reports/report-info',
        '/api/reports/report-info/export',
        '/api/objectives-summary',
        '/api/transaction-summary',
        '/api/daily-sales',
        '/api/daily-sales-report',
        '/api/table-stats',
        '/api/table-stats/export',
        '/api/agreements-summary',
        '/api/dash-widgets',
        '/api/figures',
        '/api/fees',
        '/api/capacities',
      ]),
    );
  });

  it('a dealer user never sees another dealer, whatever dealer_id it sends', async () => {
    const month = Number(testToday().slice(5, 7));
    const year = Number(testToday().slice(0, 4));
    const leaks: string[] = [];
    for (const a of scoped) {
      const q = `year=${year}&month=${month}&schema=ventas`;
      const res = await api(t.app, 'GET', `${a.path}?${q}&dealer_id=${other}`, { token: dealerAdmin });
      if (res.status !== 404 || res.body.error?.message !== 'El concesionario no existe')
        leaks.push(`${a.path}: ${res.status}`);
      // The same call on its own dealer (or with no dealer) is answered.
      for (const mine of [`&dealer_id=${own}`, '']) {
        const ok = await api(t.app, 'GET', `${a.path}?${q}${mine}`, { token: dealerAdmin });
        if (ok.status !== 200) leaks.push(`${a.path}${mine ? ' (propio)' : ''}: ${ok.status}`);
      }
    }
    expect(leaks).toEqual([]);
    // The old name of the parameter (dispatches' ?dealer) is held the same way.
    const old = await api(t.app, 'GET', `/api/objectives-summary?dealer=${other}`, { token: dealerAdmin });
    expect(old.status).toBe(404);
  });

  it('a call whose body names a dealer declares it, and holds a dealer user to its own', async () => {
    const exports = [
      '/api/transaction/export-dynamic-report',
      '/api/transaction/export-internal-report',
      '/api/transaction/export-internal-daily-report',
    ];
    expect(bodyScoped.map((a) => `${a.method} ${a.path}`)).toEqual(
      expect.arrayContaining([
        ...exports.map((p) => `POST ${p}`),
        'POST /api/figures/confirm',
        'POST /api/casis-api',
        'PUT /api/figure-batch',
        'POST /api/sales-quiz-request',
      ]),
    );
    const year = Number(testToday().slice(0, 4));
    const month = Number(testToday().slice(5, 7));
    const leaks: string[] = [];
    for (const a of bodyScoped) {
      // Another dealer answers 404 whatever else the body holds (nothing is written).
      const [first, nested] = bodyDealerPath(a)!;
      const body = { year, month, [first]: nested ? { [nested]: other } : other };
      const res = await api(t.app, a.method, a.path, { token: dealerAdmin, body });
      // A manufacturer's call (fees) refuses a dealer user before its body: 403.
      if (a.authorize && res.status === 403) continue;
      if (res.status !== 404 || res.body.error?.message !== 'El concesionario no existe')
        leaks.push(`${a.method} ${a.path}: ${res.status}`);
    }
    // The reports answer a dealer user's own dealer, named or not: the file of its own dealer.
    for (const path of exports) {
      for (const mine of [{ dealer: own }, {}]) {
        const ok = await t.app.inject({
          method: 'POST',
          url: path,
          headers: { authorization: `Bearer ${dealerAdmin}` },
          payload: { year, month, ...mine },
        });
        if (ok.statusCode !== 200) leaks.push(`${path} ${JSON.stringify(mine)}: ${ok.statusCode}`);
      }
    }
    expect(leaks).toEqual([]);
    // The administrator may still name any dealer.
    const adminAsk = await t.app.inject({
      method: 'POST',
      url: '/api/transaction/export-internal-report',
      headers: { authorization: `Bearer ${admin}` },
      payload: { year, month, dealer: other },
    });
    expect(adminAsk.statusCode).toBe(200);
  });

  it('a resource list filtered by another dealer answers 404 to a dealer user, as the actions do', async () => {
    const scopedLists = ['/api/sales', '/api/agreements', '/api/dealer-branches', '/api/quiz-alerts'];
    for (const path of scopedLists) {
      for (const q of [`filter[dealer_id]=${other}`, `filter[dealer_id]=${own},${other}`]) {
        const res = await api(t.app, 'GET', `${path}?${q}`, { token: dealerAdmin });
        expect(res.status, `${path}?${q}`).toBe(404);
        expect(res.body.error.message).toBe('El concesionario no existe');
      }
      const mine = await api(t.app, 'GET', `${path}?filter[dealer_id]=${own}`, { token: dealerAdmin });
      expect(mine.status, path).toBe(200);
      // The administrator filters by any dealer.
      const any = await api(t.app, 'GET', `${path}?filter[dealer_id]=${other}`, { token: admin });
      expect(any.status, path).toBe(200);
    }
    // The old plain parameter of the alerts (?dealer_id=) and the export are held the same way.
    expect(
      (await api(t.app, 'GET', `/api/quiz-alerts?dealer_id=${other}`, { token: dealerAdmin })).status,
    ).toBe(404);
    expect(
      (await api(t.app, 'GET', `/api/sales/export?filter[dealer_id]=${other}`, { token: dealerAdmin }))
        .status,
    ).toBe(404);
  });

  it('answers a bad period with a 422 naming the parameter, in Spanish', async () => {
    const year = Number(testToday().slice(0, 4));
    const res = await api(t.app, 'GET', `/api/resumen-comparativo?year=${year + 1}&month=13`, {
      token: admin,
    });
    expect(res.status).toBe(422);
    const errors = res.body.error.validationErrors as { field: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'year', message: 'Año no es válido' },
        { field: 'month', message: 'Mes no es válido' },
      ]),
    );
    const noMonth = await api(t.app, 'GET', `/api/daily-sales?year=${year}`, { token: admin });
    expect(noMonth.body.error.validationErrors).toEqual([{ field: 'month', message: 'Mes es obligatorio' }]);
  });

  it('/api/docs shows each call query schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as {
      paths: Record<
        string,
        { get?: { parameters?: { name: string; in: string; schema: { type: string } }[] } }
      >;
    };
    const params = doc.paths['/api/resumen-comparativo']?.get?.parameters ?? [];
    expect(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema.type])).toEqual([
      ['year', 'integer'],
      ['month', 'integer'],
      ['dealer_id', 'integer'],
    ]);
  });
});
