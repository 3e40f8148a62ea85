// A report's dealer scope on its default call: a dealer user who names no dealer gets only its
// own dealer's rows. query-scope.test checks the 404 for another dealer's id; this one reads
// what every call that declares a dealer answers on the demo network (16 dealers with data) and
// finds no other dealer in it, so a report that forgets `scope.on(...)` fails here (found by
// adding a module in a scratch clone: without it, a dealer user saw every dealer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaresDealer } from '../src/core/action';
import { allActions } from '../src/core/registry';
import { API_MODULES } from '../src/modules';
import { seedDemo } from '../src/seed/demo';
import { createDealerAdmin, createTestApp, login, type TestContext, testToday } from './harness';

const scoped = allActions(API_MODULES).filter((a) => a.method === 'GET' && declaresDealer(a));

let t: TestContext;
let own: { id: number; code: string };
let dealerAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.handle);
  const admin = await login(t.app);
  [own] = await t.handle.query<{ id: number; code: string }>(
    "select id, code from dealers where code = 'LIM01'",
  );
  // A dealer user whose role holds every permission: only the dealer scope stands in its way.
  dealerAdmin = await createDealerAdmin(t.app, admin, own.id);
}, 180_000);

afterAll(() => t?.close());

/** Every dealer id and dealer code named anywhere in an answer. */
function dealersIn(value: unknown, ids: Set<number>, codes: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) dealersIn(v, ids, codes);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === 'dealer_id' && typeof v === 'number') ids.add(v);
      else if (k === 'dealer_code' && typeof v === 'string') codes.add(v);
      else dealersIn(v, ids, codes);
    }
}

describe('the default call of a dealer-scoped read', () => {
  it('answers a dealer user its own dealer only, on every call that declares a dealer', async () => {
    const year = Number(testToday().slice(0, 4));
    const month = Number(testToday().slice(5, 7));
    const leaks: string[] = [];
    let read = 0;
    let withDealers = 0;
    for (const a of scoped) {
      // Last month too: this month has little yet; the whole year for the reports that take no month.
      for (const q of [
        `year=${year}`,
        `year=${year}&month=${month > 1 ? month - 1 : 1}`,
        `year=${year - 1}`,
      ]) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${a.path}?${q}&schema=ventas`,
          headers: { authorization: `Bearer ${dealerAdmin}` },
        });
        if (res.statusCode !== 200) continue; // a query this call does not take (422), checked elsewhere
        if (!String(res.headers['content-type']).includes('json')) continue; // an xlsx export
        read++;
        const ids = new Set<number>();
        const codes = new Set<string>();
        dealersIn(res.json().result, ids, codes);
        if (ids.size || codes.size) withDealers++;
        const others = [...ids].filter((id) => id !== own.id);
        const otherCodes = [...codes].filter((c) => c !== own.code);
        if (others.length || otherCodes.length)
          leaks.push(`${a.path}?${q}: ${[...others, ...otherCodes].slice(0, 5).join(', ')}`);
      }
    }
    console.log(
      `ALCANCE POR DEFECTO ${scoped.length} llamadas, ${read} respuestas JSON leídas, ${withDealers} nombran concesionarios`,
    );
    expect(leaks).toEqual([]);
    // The check reads real answers that name dealers (not a list of empty results).
    expect(withDealers).toBeGreaterThan(10);
  }, 300_000);
});
