// Fuzzing every call of the registry with fast-check through app.inject: random and hostile
// bodies, query strings, path parameters and headers, from the administrator, a dealer user, no
// session and forged sessions. No answer is a 5xx; every error is the envelope with a Spanish
// message and shows no stack, SQL or file path; a refused write leaves every table as it was.
// The normal suite runs a fixed-seed sample (FUZZ_RUNS per call, default 20); `npm run fuzz`
// runs 1,000 per call with a new seed and prints the figures.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

it(
  `${RUNS} random hostile requests per call: no 5xx, no leak, no partial write`,
  async () => {
    const t0 = performance.now();
    for (const [i, route] of routes.entries()) {
      await fc.check(
        fc.asyncProperty(requestFor(route), (req) => session.send(route, req)),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
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
