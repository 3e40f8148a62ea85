// The whole dashboard for every dealer over the demo network's year, against the built server
// (what `npm start` runs) on PostgreSQL: GET /api/dash-widgets (all six groups in one call) and
// the six GET /api/dashboard/summary?schema=… the home screen sends at once, timed as the screen
// waits for them (the slowest of the six). As the administrator (all dealers) and as a dealer
// user. Target: the whole dashboard ≤ 300 ms (median of 30 after 5 warm-up calls).
import { figure, percentile, round, startServer } from './lib/common.mjs';
import { adminQuery, databaseUrl } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DASHBOARD_DB ?? 'bench_dashboard';
const PORT = Number(process.env.BENCH_DASHBOARD_PORT ?? 3236);
const ADMIN_PASSWORD = 'bench-admin-1234';
const RUNS = 30;
const WARMUP = 5;
const YEAR = new Date().getFullYear();
// The widget groups (packages/contracts DASHBOARD_SCHEMAS).
const DASHBOARD_SCHEMAS_FOR_BENCH = ['ventas', 'encuestas', 'despachos', 'cifras', 'seguimiento', 'taller'];

async function main() {
  await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(ADMIN_URL, `CREATE DATABASE ${DB_NAME}`);
  const server = startServer(
    {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(ADMIN_URL, DB_NAME),
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      DEMO: '1',
      JWT_SECRET: '',
    },
    { timeoutMs: 300_000 },
  );
  try {
    await server.ready;
    const base = `http://127.0.0.1:${PORT}`;
    const token = async (username, password) => {
      const res = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      const body = await res.json();
      if (!body.success) throw new Error(`Login ${username}: ${JSON.stringify(body.error)}`);
      return body.result.access_token;
    };
    const get = async (auth, url) => {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${auth}` } });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(body.error)}`);
      return body.result;
    };
    const time = async (fn) => {
      for (let i = 0; i < WARMUP; i++) await fn();
      const ms = [];
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        await fn();
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      return { median: round(percentile(ms, 50)), p95: round(percentile(ms, 95)) };
    };
    const admin = await token('admin', ADMIN_PASSWORD);
    const dealer = await token('lim01', 'Demo-2026');
    const whole = await get(admin, `/api/dash-widgets?year=${YEAR}`);
    console.log(
      `Red de demostracion ${YEAR}: ${whole.groups.ventas.sales.value} ventas CEM, ` +
        `${whole.groups.despachos.dispatched.value} unidades despachadas, ` +
        `${whole.groups.encuestas.responses} encuestas respondidas, ${whole.groups.cifras.concepts.length} conceptos`,
    );
    const cases = [
      ['administrador, dash-widgets (un llamado)', admin, () => get(admin, `/api/dash-widgets?year=${YEAR}`)],
      [
        'administrador, pantalla (6 llamados a la vez)',
        admin,
        () =>
          Promise.all(
            DASHBOARD_SCHEMAS_FOR_BENCH.map((s) =>
              get(admin, `/api/dashboard/summary?schema=${s}&year=${YEAR}`),
            ),
          ),
      ],
      [
        'concesionario, dash-widgets (un llamado)',
        dealer,
        () => get(dealer, `/api/dash-widgets?year=${YEAR}`),
      ],
    ];
    for (const [name, , fn] of cases) {
      const { median, p95 } = await time(fn);
      console.log(`${name}: mediana ${median} ms, p95 ${p95} ms`);
      figure(`tablero ${name} (mediana)`, median, 'ms', { op: '<=', value: 300 });
    }
  } finally {
    await server.stop();
    await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
