// The paged list against the bare page, side by side in one run, on PostgreSQL, at 50 connections
// (autocannon): the built server (what `npm start` runs) answering GET /api/<resource> with its
// authentication, envelope, joins and totals, and beside it a bare page — node:http and a pg pool
// of the server's size, `SELECT * FROM <table> [WHERE dealer_id = $1] ORDER BY id LIMIT 10 OFFSET n`
// (bench/lib/bare-page.mjs). Four cases:
//   - the administrator's dealers list over 1,000,000 dealers: page 1, and the page at offset
//     5,000 (page=501, perPage=10);
//   - a dealer user's contacts list (dealer-scoped) over 1,000,000 contacts of 1,000 dealers, its
//     own dealer holding 10,000+ of them: page 1 and offset 5,000.
// Per case: requests/s of both, their ratio, p99 of both. Target: the list answers at least 0.7×
// the bare page's requests/s with a p99 at most 2× the bare page's. The two sides alternate in
// BENCH_ROUNDS rounds (default 2) of BENCH_DURATION / rounds seconds each, so a busy moment of a
// shared machine falls on both alike.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { prepareDatabase } from '../apps/api/src/bootstrap';
import { loadConfig } from '../apps/api/src/config';
import { figure, root, round, startServer } from './lib/common.mjs';
import { adminQuery as adminQueryOn, databaseUrl, fillContacts, fillDealers } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'bench';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PORT = Number(process.env.BENCH_LIST_PORT ?? 3232);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3233);
/** The server's pool (openDatabase's default); the bare page gets the same. */
const POOL = Number(process.env.BENCH_POOL ?? 20);
const CONTACT_DEALERS = 1000;
/** Every 99th contact is the bench dealer's: 10,101 of 1,000,000. */
const DEALER_EVERY = 99;
const OFFSET = 5000;
const ADMIN_PASSWORD = 'bench-admin-1234';
const DEALER_USER = 'bench_dealer';
const DEALER_PASSWORD = 'Bench-Dealer-1234';
const TARGET_RATIO = 0.7;
const TARGET_P99 = 2;

const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);
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
    return await prepareDatabase(config);
  } catch (err) {
    console.log(`La base ${DB_NAME} no se pudo migrar (${(err as Error).message}); se vuelve a crear.`);
    await recreateDatabase();
    return prepareDatabase(config);
  }
}

interface Measure {
  requests: number;
  seconds: number;
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

/** autocannon at CONNECTIONS connections for `seconds`. */
async function measure(url: string, token: string | undefined, seconds: number): Promise<Measure> {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    duration: seconds,
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0)
    console.log(
      `  atencion: ${r.non2xx} respuestas no 2xx, ${r.errors} errores, ${r.timeouts} timeouts (${url})`,
    );
  // No answered request at all is a failure, not a p99 of 0 ms.
  if (r.requests.total === 0) return { requests: 0, seconds, p99: Number.NaN, bad: Math.max(bad, 1) };
  return { requests: r.requests.total, seconds: r.duration, p99: r.latency.p99, bad };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Rounds summed: req/s over the whole time, the median p99 of the rounds. */
function combine(ms: Measure[], cpu: number) {
  const requests = ms.reduce((n, m) => n + m.requests, 0);
  const seconds = ms.reduce((n, m) => n + m.seconds, 0);
  return {
    rps: requests / seconds,
    p99: median(ms.map((m) => m.p99)),
    bad: ms.reduce((n, m) => n + m.bad, 0),
    cpuMs: (cpu * 1000) / requests,
  };
}

async function json(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  const body = await res.json();
  return { status: res.status, body };
}

async function login(base: string, username: string, password: string): Promise<string | undefined> {
  const { body } = await json(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, rememberMe: true }),
  });
  return body.success ? body.result.access_token : undefined;
}

/** The bench dealer's user (role Concesionario), created through the API the first time. */
async function dealerToken(base: string, adminToken: string, dealerId: number): Promise<string> {
  const existing = await login(base, DEALER_USER, DEALER_PASSWORD);
  if (existing) return existing;
  const auth = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const roles = await json(`${base}/api/roles?perPage=-1`, { headers: auth });
  const role = roles.body.result.find((r: { name: string }) => r.name === 'Concesionario');
  const created = await json(`${base}/api/users`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      username: DEALER_USER,
      email: `${DEALER_USER}@example.com`,
      full_name: 'Usuario de concesionario (bench)',
      password: DEALER_PASSWORD,
      dealer_id: dealerId,
      roles: [role.id],
    }),
  });
  if (!created.body.success)
    throw new Error(`No se pudo crear ${DEALER_USER}: ${JSON.stringify(created.body)}`);
  const token = await login(base, DEALER_USER, DEALER_PASSWORD);
  if (!token) throw new Error(`Login de ${DEALER_USER} fallo`);
  return token;
}

// ---------- data ----------
const prepared = await prepare();
await prepared.handle.close();
const seedPool = new pg.Pool({ connectionString: dbUrl, max: 2 });
await fillDealers(seedPool, { rows: ROWS, prefix: 'B', zones: 12 });
const dealerId = await fillContacts(seedPool, { rows: ROWS, dealers: CONTACT_DEALERS, every: DEALER_EVERY });
// Index-only scans need the visibility map: what autovacuum does on a live database.
await seedPool.query('VACUUM ANALYZE dealers');
await seedPool.query('VACUUM ANALYZE dealer_contacts');
await seedPool.end();

// ---------- servers ----------
console.log(`Servidor (dist/main.js) en 127.0.0.1:${PORT} y pagina minima en 127.0.0.1:${BARE_PORT}`);
console.log(`PostgreSQL ${DB_NAME}; ${CONNECTIONS} conexiones; pool de ${POOL} en ambos`);
const server = startServer({
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_URL: dbUrl,
  ADMIN_PASSWORD,
  JWT_SECRET: '',
});
const bare = startServer(
  { BARE_DATABASE_URL: dbUrl, BARE_POOL: String(POOL), BARE_PORT: String(BARE_PORT) },
  { script: path.join(root, 'bench/lib/bare-page.mjs') },
);

interface Case {
  name: string;
  tag: string;
  list: string;
  bare: string;
  token: string;
}

const summary: string[][] = [];

async function compare(c: Case) {
  console.log(`\nCaso: ${c.name}\n  lista:  GET ${c.list}\n  minima: GET ${c.bare}`);
  const first = await json(c.list, { headers: { authorization: `Bearer ${c.token}` } });
  const bareFirst = await json(c.bare);
  if (first.status !== 200 || first.body.result.data.length !== 10 || bareFirst.body.data.length !== 10)
    throw new Error(`Respuesta inesperada: ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
  const { total, totalIsEstimate } = first.body.result;
  console.log(`  respuesta: total=${total}${totalIsEstimate ? ' (estimado)' : ''}, 10 filas`);
  await measure(c.list, c.token, WARMUP);
  await measure(c.bare, undefined, WARMUP);
  const listRounds: Measure[] = [];
  const bareRounds: Measure[] = [];
  let listCpu = 0;
  let bareCpu = 0;
  const slice = Math.max(1, Math.round(DURATION / ROUNDS));
  for (let r = 0; r < ROUNDS; r++) {
    let cpu0 = cpuSeconds(server.child.pid);
    listRounds.push(await measure(c.list, c.token, slice));
    listCpu += cpuSeconds(server.child.pid) - cpu0;
    cpu0 = cpuSeconds(bare.child.pid);
    bareRounds.push(await measure(c.bare, undefined, slice));
    bareCpu += cpuSeconds(bare.child.pid) - cpu0;
  }
  const list = combine(listRounds, listCpu);
  const min = combine(bareRounds, bareCpu);
  const ratio = list.rps / min.rps;
  const p99Ratio = list.p99 / min.p99;
  const holds = ratio >= TARGET_RATIO && p99Ratio <= TARGET_P99 && list.bad === 0;
  console.log(
    `  lista:  ${round(list.rps)} req/s, p99 ${round(list.p99)} ms, CPU del servidor ${round(list.cpuMs, 2)} ms/pedido` +
      `\n  minima: ${round(min.rps)} req/s, p99 ${round(min.p99)} ms, CPU ${round(min.cpuMs, 2)} ms/pedido` +
      `\n  razon req/s ${round(ratio, 2)} (meta >= ${TARGET_RATIO}), razon p99 ${round(p99Ratio, 2)} (meta <= ${TARGET_P99}): ${holds ? 'cumple' : 'NO CUMPLE'}`,
  );
  figure(`${c.tag}: lista req/s`, round(list.rps), 'req/s');
  figure(`${c.tag}: pagina minima req/s`, round(min.rps), 'req/s');
  figure(`${c.tag}: razon req/s lista/minima`, round(ratio, 2), '', { op: '>=', value: TARGET_RATIO });
  figure(`${c.tag}: p99 lista`, round(list.p99), 'ms');
  figure(`${c.tag}: p99 pagina minima`, round(min.p99), 'ms');
  figure(`${c.tag}: razon p99 lista/minima`, round(p99Ratio, 2), '', { op: '<=', value: TARGET_P99 });
  if (list.bad > 0) figure(`${c.tag}: respuestas con error`, list.bad, '', { op: '<=', value: 0 });
  summary.push([
    c.tag,
    String(round(list.rps)),
    String(round(min.rps)),
    String(round(ratio, 2)),
    `${round(list.p99)} / ${round(min.p99)}`,
    holds ? 'cumple' : 'NO CUMPLE',
  ]);
}

try {
  await Promise.all([server.ready, bare.ready]);
  const base = `http://127.0.0.1:${PORT}`;
  const bareBase = `http://127.0.0.1:${BARE_PORT}`;
  const admin = await login(base, 'admin', ADMIN_PASSWORD);
  if (!admin) throw new Error('Login del administrador fallo');
  const dealer = await dealerToken(base, admin, dealerId);
  const page = (offset: number) => `page=${offset / 10 + 1}&perPage=10`;
  const cases: Case[] = [
    {
      name: 'administrador, concesionarios (1M), pagina 1',
      tag: 'concesionarios p1',
      list: `${base}/api/dealers?${page(0)}`,
      bare: `${bareBase}/dealers?offset=0`,
      token: admin,
    },
    {
      name: `administrador, concesionarios (1M), desplazamiento ${OFFSET}`,
      tag: `concesionarios +${OFFSET}`,
      list: `${base}/api/dealers?${page(OFFSET)}`,
      bare: `${bareBase}/dealers?offset=${OFFSET}`,
      token: admin,
    },
    {
      name: 'usuario de concesionario, sus contactos (1M en la tabla), pagina 1',
      tag: 'contactos p1',
      list: `${base}/api/dealer-contacts?${page(0)}`,
      bare: `${bareBase}/dealer_contacts?dealer=${dealerId}&offset=0`,
      token: dealer,
    },
    {
      name: `usuario de concesionario, sus contactos (1M en la tabla), desplazamiento ${OFFSET}`,
      tag: `contactos +${OFFSET}`,
      list: `${base}/api/dealer-contacts?${page(OFFSET)}`,
      bare: `${bareBase}/dealer_contacts?dealer=${dealerId}&offset=${OFFSET}`,
      token: dealer,
    },
  ];
  // BENCH_CASES=word,word: only the cases whose tag contains one of them (while tuning one).
  const only = process.env.BENCH_CASES?.split(',').filter(Boolean);
  for (const c of cases) if (!only || only.some((w) => c.tag.includes(w))) await compare(c);
  const header = ['caso', 'lista req/s', 'minima req/s', 'razon', 'p99 lista / minima (ms)', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...summary.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  console.log(`\n${fmt(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const r of summary) console.log(fmt(r));
} finally {
  await Promise.all([server.stop(), bare.stop()]);
}
