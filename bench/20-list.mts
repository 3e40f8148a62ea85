// The paged list of a declared resource (dealers) over 1,000,000 rows on PostgreSQL, at 50
// connections, through the HTTP server (autocannon against the built server, as `npm start` runs
// it) and, beside it, the very SQL that one list request issues, sent straight through `pg` at 50
// connections. Prints requests/s of both, their ratio and p99. Targets: ratio ≥ 0.7, p99 < 100 ms.
// The two sides alternate in BENCH_ROUNDS rounds (default 3) of BENCH_DURATION / rounds seconds.
//
// The SQL is captured, not rewritten: an in-process app answers one list request while pg's
// Pool.query is observed, and those statements are what the pg side replays.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { prepareDatabase } from '../apps/api/src/bootstrap';
import { loadConfig } from '../apps/api/src/config';
import { figure, percentile, round, startServer } from './lib/common.mjs';
import { adminQuery as adminQueryOn, databaseUrl, fillDealers } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'bench';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_LIST_PORT ?? 3232);
const ADMIN_PASSWORD = 'bench-admin-1234';

const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);

/** Scenarios: the list screen as it opens (default sort), and a search over the same table. */
const SCENARIOS = [
  { name: 'lista por defecto (pagina 1, orden por nombre)', query: 'page=1&perPage=10' },
  { name: 'pagina 20, orden por codigo desc', query: 'page=20&perPage=10&sort=code&order=desc' },
];

const adminQuery = (text: string) => adminQueryOn(ADMIN_URL, text);

async function recreateDatabase() {
  await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${DB_NAME}`);
}

/** Migrate + seed the bench database; a stale one (older migration set) is recreated. */
async function prepare() {
  const exists = await adminQuery(`SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}'`);
  if (exists.rowCount === 0) await adminQuery(`CREATE DATABASE ${DB_NAME}`);
  const config = loadConfig({ DATABASE_URL: dbUrl, ADMIN_PASSWORD, ADMIN_USERNAME: 'admin' });
  try {
    return { config, prepared: await prepareDatabase(config) };
  } catch (err) {
    console.log(`La base ${DB_NAME} no se pudo migrar (${(err as Error).message}); se vuelve a crear.`);
    await recreateDatabase();
    return { config, prepared: await prepareDatabase(config) };
  }
}

interface Captured {
  text: string;
  values: unknown[];
  rowMode?: string;
  /** Set when the server uses a named prepared statement: the pg side prepares it too. */
  name?: string;
}

/** The statements one list request issues, observed on pg's Pool.query of an in-process app. */
async function captureListSql(config: ReturnType<typeof loadConfig>, token: string, query: string) {
  const { handle, jwtSecret } = await prepareDatabase(config);
  const app = await buildApp({ handle, config, jwtSecret });
  const headers = { authorization: `Bearer ${token}` };
  const url = `/api/dealers?${query}`;
  await app.inject({ method: 'GET', url, headers }); // warms the user cache (auth lookups)
  const captured: Captured[] = [];
  const original = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: any[]) {
    const [q, values] = args;
    if (typeof q === 'string') captured.push({ text: q, values: values ?? [] });
    else captured.push({ text: q.text, values: values ?? q.values ?? [], rowMode: q.rowMode, name: q.name });
    return (original as any).apply(this, args);
  } as any;
  const res = await app.inject({ method: 'GET', url, headers });
  pg.Pool.prototype.query = original;
  await app.close();
  await handle.close();
  const body = res.json();
  if (res.statusCode !== 200 || !body.success)
    throw new Error(`La lista respondio ${res.statusCode}: ${res.body}`);
  return { captured, total: body.result.total, rows: body.result.data.length };
}

/** The captured statements replayed by 50 workers on a 50-connection pool, for `seconds`. */
function pgRunner(statements: Captured[]) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: CONNECTIONS });
  const once = () =>
    Promise.all(
      statements.map((s) =>
        pool.query({
          text: s.text,
          values: s.values as any[],
          ...(s.rowMode ? { rowMode: 'array' as const } : {}),
          ...(s.name ? { name: s.name } : {}),
        }),
      ),
    );
  const measure = async (seconds: number): Promise<Measure> => {
    const latencies: number[] = [];
    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < end) {
          const t = performance.now();
          await once();
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    latencies.sort((x, y) => x - y);
    return {
      requests: latencies.length,
      seconds: elapsed,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      bad: 0,
    };
  };
  return { measure, close: () => pool.end() };
}

interface Measure {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  bad: number;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

/** autocannon at 50 connections against the server, for `seconds`. */
async function httpMeasure(url: string, token: string, seconds: number): Promise<Measure> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    headers: { authorization: `Bearer ${token}` },
    duration: seconds,
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0)
    console.log(`  atencion: ${r.non2xx} respuestas no 2xx, ${r.errors} errores, ${r.timeouts} timeouts`);
  // No answered request at all is a failure, not a p99 of 0 ms.
  if (r.requests.total === 0)
    return { requests: 0, seconds, p50: Number.NaN, p99: Number.NaN, bad: Math.max(bad, 1) };
  return { requests: r.requests.total, seconds: r.duration, p50: r.latency.p50, p99: r.latency.p99, bad };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Rounds summed: req/s over the whole time, median p50/p99 of the rounds. */
function combine(ms: Measure[]) {
  const requests = ms.reduce((n, m) => n + m.requests, 0);
  const seconds = ms.reduce((n, m) => n + m.seconds, 0);
  return {
    rps: requests / seconds,
    requests,
    p50: median(ms.map((m) => m.p50)),
    p99: median(ms.map((m) => m.p99)),
    bad: ms.reduce((n, m) => n + m.bad, 0),
  };
}

const { config, prepared } = await prepare();
const seedPool = new pg.Pool({ connectionString: dbUrl, max: 2 });
await fillDealers(seedPool, { rows: ROWS, prefix: 'B', zones: 12 });
await seedPool.end();
await prepared.handle.close();

console.log(`Servidor (dist/main.js) en 127.0.0.1:${PORT} sobre PostgreSQL ${DB_NAME}`);
const server = startServer({
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_URL: dbUrl,
  ADMIN_PASSWORD,
  JWT_SECRET: '',
});
try {
  await server.ready;
  const base = `http://127.0.0.1:${PORT}`;
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, rememberMe: true }),
  });
  const loginBody = (await login.json()) as any;
  if (!loginBody.success) throw new Error(`Login fallo: ${JSON.stringify(loginBody)}`);
  const token: string = loginBody.result.access_token;

  for (const [i, sc] of SCENARIOS.entries()) {
    console.log(`\nEscenario: ${sc.name}  (GET /api/dealers?${sc.query})`);
    const { captured, total, rows } = await captureListSql(config, token, sc.query);
    console.log(`  respuesta: total=${total}, ${rows} filas; SQL por pedido: ${captured.length} sentencias`);
    for (const s of captured) {
      const prepared = s.name ? ` [sentencia preparada ${s.name}]` : '';
      console.log(`    ${s.text.replace(/\s+/g, ' ').slice(0, 150)}...${prepared}`);
    }
    // HTTP and pg alternate in ROUNDS short rounds, so a busy moment of a shared machine falls
    // on both sides alike instead of deciding the ratio.
    const url = `${base}/api/dealers?${sc.query}`;
    const pgSide = pgRunner(captured);
    await httpMeasure(url, token, WARMUP);
    await pgSide.measure(WARMUP);
    const httpRounds: Measure[] = [];
    const pgRounds: Measure[] = [];
    let serverCpu = 0;
    const slice = Math.max(1, Math.round(DURATION / ROUNDS));
    for (let r = 0; r < ROUNDS; r++) {
      const cpu0 = cpuSeconds(server.child.pid);
      httpRounds.push(await httpMeasure(url, token, slice));
      serverCpu += cpuSeconds(server.child.pid) - cpu0;
      pgRounds.push(await pgSide.measure(slice));
    }
    await pgSide.close();
    const http = combine(httpRounds);
    const direct = combine(pgRounds);
    const cpuMs = (serverCpu * 1000) / http.requests;
    const ratio = http.rps / direct.rps;
    console.log(
      `  HTTP: ${round(http.rps)} req/s, p50 ${round(http.p50)} ms, p99 ${round(http.p99)} ms` +
        `\n  pg directo: ${round(direct.rps)} req/s, p50 ${round(direct.p50)} ms, p99 ${round(direct.p99)} ms` +
        `\n  razon HTTP/pg: ${round(ratio, 2)}`,
    );
    const tag = i === 0 ? '' : ` [${sc.name}]`;
    figure(`lista 1M filas, HTTP req/s${tag}`, round(http.rps), 'req/s');
    figure(`lista 1M filas, pg directo req/s${tag}`, round(direct.rps), 'req/s');
    figure(`lista 1M filas, razon HTTP/pg${tag}`, round(ratio, 2), '', { op: '>=', value: 0.7 });
    figure(`lista 1M filas, p99 HTTP${tag}`, round(http.p99), 'ms', { op: '<', value: 100 });
    if (Number.isFinite(cpuMs)) {
      console.log(`  CPU del servidor por pedido: ${round(cpuMs, 2)} ms`);
      figure(`lista 1M filas, CPU del servidor por pedido${tag}`, round(cpuMs, 2), 'ms');
    }
    if (http.bad > 0)
      figure(`lista 1M filas, respuestas con error${tag}`, http.bad, '', { op: '<=', value: 0 });
  }
} finally {
  await server.stop();
}
