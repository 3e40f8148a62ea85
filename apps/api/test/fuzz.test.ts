// Fuzzing every call of the registry with fast-check through app.inject: random and hostile
// bodies, query strings, path parameters and headers, from the administrator, a dealer user, no
// session and forged sessions. No answer is a 5xx; every error is the envelope with a Spanish
// message and shows no stack, SQL or file path; a refused write leaves every table as it was.
// The normal suite runs a fixed-seed sample (FUZZ_RUNS per call, default 20); `npm run fuzz`
// runs 1,000 per call with a new seed and prints the figures.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerProblems, changedTables, fingerprint } from './fuzz/check';
import { requestFor } from './fuzz/requests';
import { registryRoutes } from './fuzz/routes';
import { FuzzSession } from './fuzz/session';
import { createTestApp, type TestContext } from './harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20260517);
const routes = registryRoutes();

let t: TestContext;
let session: FuzzSession;
beforeAll(async () => {
  t = await createTestApp();
  session = new FuzzSession(t);
  await session.start();
});
afterAll(() => t?.close());

it('walks every /api route the app registered (nothing served escapes the fuzzer)', () => {
  const walked = new Set(routes.map((r) => `${r.method} ${r.path}`));
  const served = t.app.routeTable
    .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD')
    .map((r) => `${r.method} ${r.url}`);
  expect(served.filter((r) => !walked.has(r))).toEqual([]);
  expect(routes.length).toBeGreaterThan(100);
});

it('its checks see a 5xx, a stack, SQL, a path and a write, and not the request echoed back', async () => {
  const error = (message: string, status = 400) => ({
    status,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ success: false, result: null, error: { code: status, message } }),
  });
  expect(answerProblems(error('Error interno', 500), [])).toContain('respondió 500');
  expect(answerProblems(error('Failed query: select id from users where x'), [])).toHaveLength(1);
  expect(answerProblems(error('TypeError at Object.parse (/work/app/src/x.ts:10:4)'), [])).toHaveLength(1);
  expect(answerProblems(error('relation "users" does not exist'), [])).toHaveLength(1);
  expect(answerProblems({ status: 422, contentType: 'text/html', body: '<h1>x</h1>' }, [])).toHaveLength(1);
  expect(answerProblems(error('Columnas no válidas: select * from users'), ['select * from users'])).toEqual(
    [],
  );
  expect(answerProblems(error('Nombre es obligatorio', 422), [])).toEqual([]);
  const before = await fingerprint(t.handle);
  await t.handle.query("insert into zones (name) values ('Zona del control')");
  const inserted = await fingerprint(t.handle);
  expect(changedTables(before, inserted)).toEqual([expect.stringMatching(/^zones: /)]);
  await t.handle.query("update zones set name = name where name = 'Zona del control'");
  expect(changedTables(inserted, await fingerprint(t.handle))).toEqual([expect.stringMatching(/^zones: /)]);
});

it(
  `${RUNS} random hostile requests per call: no 5xx, no leak, no partial write`,
  async () => {
    const t0 = performance.now();
    for (const [i, route] of routes.entries()) {
      await fc.check(
        fc.asyncProperty(requestFor(route), (req) => session.send(route, req)),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
      );
      // The nightly run is long: say where it is.
      if (RUNS >= 100 && (i + 1) % 10 === 0)
        console.log(
          `FUZZ ${i + 1}/${routes.length} llamadas, ${Math.round((performance.now() - t0) / 1000)} s`,
        );
    }
    report(performance.now() - t0);
    expect(session.problems).toEqual([]);
  },
  Math.max(300_000, RUNS * routes.length * 200),
);

function report(ms: number): void {
  const byStatus: Record<number, number> = {};
  let calls = 0;
  for (const f of session.figures.values()) {
    calls += f.calls;
    for (const [s, n] of Object.entries(f.byStatus)) byStatus[Number(s)] = (byStatus[Number(s)] ?? 0) + n;
  }
  const fivexx = Object.entries(byStatus)
    .filter(([s]) => Number(s) >= 500)
    .reduce((a, [, n]) => a + n, 0);
  const lines = [
    `FUZZ semilla ${SEED}, ${RUNS} corridas por llamada, ${routes.length} llamadas del registro`,
    `FUZZ ${calls} solicitudes en ${(ms / 1000).toFixed(1)} s (${Math.round(calls / (ms / 1000))}/s)`,
    `FUZZ estados: ${Object.entries(byStatus)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
    `FUZZ 5xx: ${fivexx}; problemas (5xx, fugas, escrituras parciales, sobres): ${session.problems.length}`,
  ];
  for (const p of session.problems.slice(0, 30)) lines.push(`FUZZ   ${p}`);
  console.log(lines.join('\n'));
}
