// The dealer scope is the engine's (issue 23): every summary, report and import reads with the
// scope the engine resolved for the call (core/scope: a dealer user's own dealer whatever it
// sends, else the dealer asked for, else every dealer), never with a hand-written condition on
// the user or the dealer parameter. Two checks keep it so: the modules hold no new hand scope
// reference (a grep, against a short list of justified ones), and a dealer user's numbers on
// every call that declares a dealer are exactly the administrator's for that dealer.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, bodyDealerPath, declaresDealer } from '../src/core/action';
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
  uniq,
} from './harness';

const MODULES = path.resolve(__dirname, '../src/modules');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * A hand scope reference: the module looks at the user's dealer itself (isDealer, user.dealerId),
 * applies a resource's scope by hand (scopeCondition, the figures' former dealersInScope), builds
 * a scope of its own from the user (resolveScope) instead of the call's, or filters by the dealer
 * parameter beside the scope (`dealerId ? eq(...)`). The grep of the report:
 *   grep -rnE 'isDealer|user\.dealerId|scopeCondition\(|dealersInScope\(|resolveScope\(|[dD]ealer_?[iI]d \? eq\(|notOwnDealer\(' apps/api/src/modules
 */
const HAND =
  /isDealer|user\.dealerId|scopeCondition\(|dealersInScope\(|resolveScope\(|[dD]ealer_?[iI]d \? eq\(|notOwnDealer\(/;

/**
 * The hand references left, per file, each for a reason the engine's call scope does not cover:
 * - a write's or a screen's rule about who the caller is, not a read's scope (documents: only the
 *   manufacturer publishes, a dealer sees no read counts; organisation: a dealer user adds no
 *   dealer; agreements: a dealer user edits only some fields; figures: manufacturer-only calls);
 * - what is the user's own by identity, not by a declared dealer (notifications of its side,
 *   its jobs, its session's profile, the mail reader built outside a request);
 * - a resource's declared scope that is no dealer column (global search's documents: the
 *   documents published to the caller's dealer);
 * - the caller's whole scope where a body's declared dealer is only a default (the figures and
 *   fees batch: its cells may name other dealers the caller sees, each 404 outside its scope).
 */
const ALLOWED: Record<string, number> = {
  'agreements/agreements.resources.ts': 1,
  'documents/documents.files.ts': 4,
  'documents/documents.resources.ts': 2,
  'figures/figures.cells.ts': 1,
  'figures/figures.scope.ts': 1,
  'jobs/jobs.actions.ts': 1,
  'notifications/notifications.service.ts': 2,
  'organisation/organisation.resources.ts': 1,
  'schedules/schedules.service.ts': 1,
  'search/search.actions.ts': 1,
  'security/security.actions.ts': 1,
};

describe('hand scope references', () => {
  it('the modules read with the engine scope; no hand reference beyond the justified ones', () => {
    const found: Record<string, string[]> = {};
    for (const file of files(MODULES)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
          if (!HAND.test(code)) return;
          const key = path.relative(MODULES, file);
          found[key] = [...(found[key] ?? []), `${i + 1}: ${line.trim()}`];
        });
    }
    const over = Object.entries(found)
      .filter(([file, lines]) => lines.length > (ALLOWED[file] ?? 0))
      .map(([file, lines]) => `${file} (${lines.length} > ${ALLOWED[file] ?? 0}):\n  ${lines.join('\n  ')}`);
    expect(over).toEqual([]);
    // The summaries of the dashboard, dispatches, workshop and agreements, and the imports, hold none.
    const summaries = Object.keys(found).filter((f) =>
      /^(dashboard|dispatches|workshop|agreements\/agreements\.(summary|actions))|\.import\.ts$|sales\.summary|quiz\.stats/.test(
        f,
      ),
    );
    expect(summaries).toEqual([]);
    const total = Object.values(found).reduce((n, l) => n + l.length, 0);
    expect(total).toBeLessThanOrEqual(Object.values(ALLOWED).reduce((a, b) => a + b, 0));
  });
});

/** Every text of a workbook's first sheet. */
async function textsOf(raw: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as any);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row) => {
    row.eachCell((c) => {
      if (typeof c.value === 'string') out.push(c.value);
    });
  });
  return out;
}

let t: TestContext;
let admin: string;
let own: number;
let other: number;
let dealerAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  own = (await createDealerUser(t.app, admin)).dealerId;
  other = (await createDealerUser(t.app, admin)).dealerId;
  // A dealer user whose role holds every permission: only the dealer scope stands in its way.
  dealerAdmin = await createDealerAdmin(t.app, admin, own);

  // Numbers of both dealers in this month: dispatches, objectives, daily sales, workshop, agreements.
  const today = testToday();
  const [year, month] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const first = `${today.slice(0, 7)}-01`;
  const [model] = await t.handle.query<{ id: number; manufacturer_id: number }>(
    `insert into manufacturer_models (manufacturer_id, code, name)
     select id, $1, 'Modelo de alcance' from manufacturers order by id limit 1
     returning id, manufacturer_id`,
    [uniq('MS').slice(0, 20)],
  );
  for (const [dealer, units] of [
    [own, 3],
    [other, 11],
  ] as const) {
    const [{ zone_id }] = await t.handle.query<{ zone_id: number }>(
      `with made as (insert into zones (name) select $2 where not exists (select 1 from zones) returning id)
       select coalesce(d.zone_id, (select min(id) from zones), (select id from made)) as zone_id
       from dealers d where d.id = $1`,
      [dealer, uniq('Zona')],
    );
    await t.handle.query(
      `insert into dispatches (dealer_id, manufacturer_id, model_name, vin, dispatch_date, units, source)
       values ($1, $2, 'Modelo', $3, $4, $5, 'SIMA')`,
      [dealer, model.manufacturer_id, `SCOPE${dealer}`.padEnd(17, '0').slice(0, 17), first, units],
    );
    await t.handle.query(
      `insert into dispatch_objectives (dealer_id, manufacturer_id, year, month, units) values ($1, $2, $3, $4, $5)`,
      [dealer, model.manufacturer_id, year, month, units * 2],
    );
    await t.handle.query(
      `insert into daily_sales (dealer_id, manufacturer_id, manufacturer_model_id, sale_date, units)
       values ($1, $2, $3, $4, $5)`,
      [dealer, model.manufacturer_id, model.id, first, units],
    );
    await t.handle.query(
      `insert into workshop_infos (dealer_id, year, month, work_orders_opened, work_orders_closed, hours_sold,
         hours_worked, labour_revenue, parts_revenue, source)
       values ($1, $2, $3, $4, $4, $5, $5, $6, $6, 'batch')`,
      [dealer, year, month, units, units * 10, units * 100],
    );
    await t.handle.query(
      `insert into agreements (zone_id, dealer_id, title, due_date) values ($1, $2, $3, $4)`,
      [zone_id, dealer, `Acuerdo ${dealer}`, first],
    );
  }
});

afterAll(async () => {
  await t?.close();
});

describe("a dealer user's numbers", () => {
  it('are its own dealer on every call that declares a dealer, named or not; another dealer is 404', async () => {
    const today = testToday();
    const q = `year=${today.slice(0, 4)}&month=${Number(today.slice(5, 7))}&schema=despachos`;
    const calls = allActions(API_MODULES).filter((a) => a.method === 'GET' && declaresDealer(a) && !a.raw);
    const wrong: string[] = [];
    const narrowed: string[] = [];
    for (const a of calls) {
      const asAdmin = await api(t.app, 'GET', `${a.path}?${q}&dealer_id=${own}`, { token: admin });
      const everyDealer = await api(t.app, 'GET', `${a.path}?${q}`, { token: admin });
      for (const named of ['', `&dealer_id=${own}`]) {
        const mine = await api(t.app, 'GET', `${a.path}?${q}${named}`, { token: dealerAdmin });
        if (mine.status === 403) continue; // a manufacturer's call
        if (mine.status !== 200 || JSON.stringify(mine.body.result) !== JSON.stringify(asAdmin.body.result))
          wrong.push(`${a.path}${named ? ' (propio)' : ''}: ${mine.status}`);
      }
      const another = await api(t.app, 'GET', `${a.path}?${q}&dealer_id=${other}`, { token: dealerAdmin });
      if (another.status !== 404 && another.status !== 403) wrong.push(`${a.path} (otro): ${another.status}`);
      if (JSON.stringify(everyDealer.body.result) !== JSON.stringify(asAdmin.body.result))
        narrowed.push(a.path);
    }
    expect(wrong).toEqual([]);
    // The check has teeth: on these calls the other dealer's numbers change the network's answer.
    expect(narrowed).toEqual(
      expect.arrayContaining([
        '/api/objectives-summary',
        '/api/transaction-summary',
        '/api/daily-sales',
        '/api/reports/report-info',
        '/api/agreements-summary',
        '/api/dash-widgets',
        '/api/dashboard/summary',
      ]),
    );
  });

  it('are its own dealer on every call whose body declares a dealer, named or not; another dealer is 404', async () => {
    const today = testToday();
    const period = { year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) };
    /** The body of a call naming `dealer` where it declares its dealer (a field, or a filter's). */
    const naming = (a: Action, dealer?: number) => {
      const [first, nested] = bodyDealerPath(a)!;
      if (dealer === undefined) return nested ? { ...period, [first]: {} } : period;
      return { ...period, [first]: nested ? { [nested]: dealer } : dealer };
    };
    /** What a caller would compare: a file's texts, else the answer's result. */
    const answerOf = async (a: Action, token: string, body: object) => {
      const res = await t.app.inject({
        method: a.method,
        url: a.path,
        headers: { authorization: `Bearer ${token}` },
        payload: body,
      });
      if (res.statusCode !== 200) return `HTTP ${res.statusCode}`;
      return a.raw ? JSON.stringify(await textsOf(res.rawPayload)) : JSON.stringify(res.json().result);
    };
    const calls = allActions(API_MODULES).filter((a) => a.method !== 'GET' && bodyDealerPath(a));
    const wrong: string[] = [];
    const compared: string[] = [];
    for (const a of calls) {
      // Another dealer: 404 before anything is read or written (a manufacturer's call: 403).
      const another = await api(t.app, a.method, a.path, { token: dealerAdmin, body: naming(a, other) });
      if (another.status !== 404 && !(a.authorize && another.status === 403))
        wrong.push(`${a.method} ${a.path} (otro): ${another.status}`);
      // A call that reads only answers the administrator's answer for the dealer user's own dealer.
      if (a.audit) continue;
      compared.push(a.path);
      const asAdmin = await answerOf(a, admin, naming(a, own));
      for (const named of [own, undefined]) {
        const mine = await answerOf(a, dealerAdmin, naming(a, named));
        if (mine !== asAdmin)
          wrong.push(`${a.method} ${a.path}${named ? ' (propio)' : ''}: ${mine.slice(0, 80)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(calls.map((a) => a.path)).toEqual(
      expect.arrayContaining(['/api/sales-quiz-request', '/api/figures/confirm', '/api/figure-batch']),
    );
    expect(compared).toEqual(
      expect.arrayContaining([
        '/api/transaction/export-internal-report',
        '/api/transaction/export-internal-daily-report',
        '/api/transaction/export-dynamic-report',
      ]),
    );
  });

  it("the dealer reports' files hold its own dealer only, whatever dealer the body names", async () => {
    const today = testToday();
    const body = { year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) };
    const names = await t.handle.query<{ id: number; name: string }>(
      'select id, name from dealers where id in ($1, $2)',
      [own, other],
    );
    const nameOf = (id: number) => names.find((d) => d.id === id)!.name;
    for (const url of [
      '/api/transaction/export-internal-report',
      '/api/transaction/export-internal-daily-report',
      '/api/transaction/export-dynamic-report',
    ]) {
      for (const payload of [body, { ...body, dealer: own }]) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${dealerAdmin}` },
          payload,
        });
        expect(res.statusCode, url).toBe(200);
        const texts = await textsOf(res.rawPayload);
        expect(texts, url).toContain(nameOf(own));
        expect(texts, url).not.toContain(nameOf(other));
      }
      const another = await api(t.app, 'POST', url, { token: dealerAdmin, body: { ...body, dealer: other } });
      expect(another.status, url).toBe(404);
    }
  });
});
