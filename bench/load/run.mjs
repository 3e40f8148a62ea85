#!/usr/bin/env node
// `npm run bench:load`: LOAD_USERS (200) people against one built server (apps/api/dist/main.js)
// on PostgreSQL, in two phases of one run, each with its table (requests/s, p50 and p99 per step,
// every error; the exit code is non-zero on any error, target 0):
//
// 1. "200 personas" (LOAD_SECONDS, 60): people at work. Each arrives at a seeded moment of the
//    first LOAD_RAMP_SECONDS (20; 200 arrivals in 20 s is 10 sign-ins a second, more than a
//    morning's rush), signs in once with its real password (argon2, a real session), then works
//    round after round: the sales list, a search, a sale opened and saved, the export of a month,
//    and a buyer who opens a survey link and answers it. After every request it thinks for a
//    seeded pseudo-random time in LOAD_THINK_MS ("1000-5000" ms, uniform; LOAD_SEED, 1, picks the
//    sequence). It signs in again when its token expires or is refused (401), and when its
//    session ends: after a seeded number of rounds in LOAD_SESSION_ROUNDS ("2-6", a minute or two;
//    far shorter than a real 8-hour session, so the login step keeps being measured after the
//    arrivals). Every request is timed, the sign-ins included. Target: p99 <= 1 s on every step.
// 2. Saturation (LOAD_SATURATION_SECONDS, 30; 0 skips it): the former bench, a closed loop of
//    the same users without pause, each signing in again at every round. It measures capacity
//    (requests/s per step when the server is the bottleneck), not waiting times of people.
// LOAD_THINK_MS=0 runs the saturation phase alone.
// Before both, each step alone (LOAD_ALONE, 20 requests each, 10 sign-ins; 0 skips it): one
// request at a time, the server's CPU per request and its time, what a step costs without queues.
// Under each table, from the server's own metrics sampled every second: the CPU it got (in cores:
// on a shared machine it may get far less than it could use), CPU ms per request, sign-ins
// waiting for an argon2 slot, queries waiting for a pool connection, and the event loop's delay.
//
// The database `bench_rel_load` (LOAD_DB; on BENCH_DATABASE_URL's server) is made anew each run: the demo
// network, 6,000 more sales and an invitation for each (the links read from the outbox). Each
// user comes from its own address (X-Forwarded-For, the server trusting 127.0.0.1 as its proxy),
// as people behind a balancer do, so the per-address limits apply to each one as in real life.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import pg from 'pg';
import { figure, percentile, requireBundle, root, round, serverBundle, startServer } from '../lib/common.mjs';
import { adminQuery, databaseUrl } from '../lib/postgres.mjs';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const SATURATION_SECONDS = Number(process.env.LOAD_SATURATION_SECONDS ?? 30);
const RAMP_SECONDS = Number(process.env.LOAD_RAMP_SECONDS ?? 20);
const SEED = Number(process.env.LOAD_SEED ?? 1);
/** A range "lo-hi" (or one number, fixed) of positive numbers. */
function range(name, fallback) {
  const raw = (process.env[name] ?? fallback).trim();
  const [lo, hi = lo] = raw.split('-').map(Number);
  if (!(lo >= 0 && hi >= lo)) throw new Error(`${name}: "${raw}" no es un rango "min-max"`);
  return [lo, hi];
}
const THINK_MS = range('LOAD_THINK_MS', '1000-5000');
const SESSION_ROUNDS = range('LOAD_SESSION_ROUNDS', '2-6');
const PORT = Number(process.env.LOAD_PORT ?? 3380);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB = process.env.LOAD_DB ?? 'bench_rel_load';
const DB_URL = databaseUrl(ADMIN_URL, DB);
const ADMIN_PASSWORD = 'Carga-Admin-2026';
const DEMO_PASSWORD = 'Demo-2026';
const SURVEY_SALES = Number(process.env.LOAD_SURVEYS ?? 6000);
const BASE = `http://127.0.0.1:${PORT}`;

requireBundle();
const agent = new http.Agent({ keepAlive: true, maxSockets: USERS + 20 });

/** One request; answers {status, body (parsed JSON or byte count), ms}. Never throws. */
function request(method, url, { token, body, address, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (address) headers['x-forwarded-for'] = address;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = http.request(`${BASE}${url}`, { method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        let parsed = raw.length;
        if (String(res.headers['content-type']).includes('json')) {
          try {
            parsed = JSON.parse(raw.toString());
          } catch {}
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, ms: performance.now() - t0 });
      });
      res.on('error', (err) =>
        resolve({ status: 0, body: err.code ?? err.message, ms: performance.now() - t0 }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('tiempo agotado')));
    req.on('error', (err) =>
      resolve({ status: 0, body: err.code ?? err.message, ms: performance.now() - t0 }),
    );
    req.end(payload);
  });
}

/** A setup call: it may take long (thousands of sales), and must succeed. */
async function must(method, url, opts) {
  const res = await request(method, url, { timeoutMs: 600_000, ...opts });
  if (res.status !== 200)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.result;
}

// ---------- the database and the server ----------
console.log(`Base ${DB}: demo, ${SURVEY_SALES} ventas con invitacion; servidor en el puerto ${PORT}`);
await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
await adminQuery(ADMIN_URL, `CREATE DATABASE ${DB}`);
const env = {
  PORT: String(PORT),
  HOST: '127.0.0.1',
  DATABASE_URL: DB_URL,
  ADMIN_PASSWORD,
  DEMO_PASSWORD,
  TRUST_PROXY: '127.0.0.1',
  SMTP_URL: '',
  LOG_LEVEL: 'warn',
  TWO_FACTOR_REQUIRED: 'false',
};
const demo = execFileSync(process.execPath, [serverBundle, '--seed-demo'], {
  cwd: root,
  env: { ...process.env, ...env },
  encoding: 'utf8',
});
// "  lim01  Demo-2026  Concesionario - ..." lines: the demo's logins.
const logins = demo
  .split('\n')
  .map((l) => /^\s{2}(\S+)\s+(\S+)\s+(.+)$/.exec(l))
  .filter(Boolean)
  .map((m) => ({ username: m[1], password: m[2], dealer: m[3].includes(' - ') }));
const server = startServer(env);
await server.ready;
// Whatever happens below, the server goes with this script.
process.on('exit', () => {
  try {
    process.kill(-server.child.pid, 'SIGKILL');
  } catch {}
});

const pool = new pg.Pool({ connectionString: DB_URL, max: 2 });
let surveyTokens = [];
try {
  const admin = (
    await must('POST', '/api/auth/login', { body: { username: 'admin', password: ADMIN_PASSWORD } })
  ).access_token;
  const dealers = await must('GET', '/api/dealers?perPage=-1', { token: admin });
  // Sales for the surveys, in batches, then one invitation each (the links are in the outbox).
  for (let i = 0; i < SURVEY_SALES; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(SURVEY_SALES, i + 1000); j++) {
      rows.push({
        dealer_code: dealers[j % dealers.length].code,
        sale_date: '2026-03-15',
        invoice: `F900-${j}`,
        document_type: 'DNI',
        document_number: String(40000000 + j),
        buyer_name: `Comprador Carga ${j}`,
        email: `carga${j}@example.com`,
        phone: '987654321',
        vin: `LCARG${String(j).padStart(12, '0')}`,
        brand: 'V',
        model: 'Modelo Carga',
        year: 2026,
        seller: 'Vendedor Carga',
        payment_method: 'E',
      });
    }
    const saved = await must('POST', '/api/sales/batch', { token: admin, body: { rows } });
    if (saved.saved !== rows.length)
      throw new Error(`lote de ventas: ${JSON.stringify(saved).slice(0, 400)}`);
  }
  const ids = (await pool.query("SELECT id FROM sales WHERE vin LIKE 'LCARG%' ORDER BY id")).rows.map(
    (r) => r.id,
  );
  for (let i = 0; i < ids.length; i += 2000)
    await must('POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: ids.slice(i, i + 2000) },
    });
  const mails = await pool.query('SELECT text FROM mail_outbox WHERE "to" LIKE \'carga%@example.com\'');
  surveyTokens = mails.rows.map((m) => /token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]).filter(Boolean);
  console.log(`${logins.length} usuarios de demostracion, ${surveyTokens.length} enlaces de encuesta`);
} finally {
  await pool.end();
}

// ---------- the users ----------
const STEPS = ['login', 'lista', 'busqueda', 'abrir', 'guardar', 'exportar', 'encuesta'];
const SEARCHES = ['carga', 'maria', 'a', 'toyota', '2026', 'lim', 'comprador 1'];

/** A deterministic pseudo-random source (mulberry32): the same seed, the same pauses. */
function randomSource(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const between = (random, [lo, hi]) => lo + (hi - lo) * random();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One phase's figures: per step, the times and the errors. */
function newStats() {
  return { steps: Object.fromEntries(STEPS.map((s) => [s, { ms: [], errors: 0 }])), errors: [] };
}

function record(stats, step, res, what) {
  stats.steps[step].ms.push(res.ms);
  if (res.status === 200) return true;
  stats.steps[step].errors++;
  if (stats.errors.length < 30)
    stats.errors.push(`${step} ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return false;
}

let answers;
/** The answers of a survey (the first link opened gives its questions): good ratings. */
function answersOf(quiz) {
  answers ??= quiz.questions.map((q) => ({
    question_id: q.id,
    value: q.type === 'rating4' ? 4 : q.type === 'yesno' ? 'Si' : q.type === 'choice' ? q.options[0] : 'Bien',
  }));
  return answers;
}

/**
 * User n: who it signs in as, from which address. Each of its requests is followed by
 * `pause()` (nothing in the saturation phase). `signIn()` answers a session token or undefined.
 */
function person(n, stats) {
  const who = logins[n % logins.length];
  const address = `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const password = who.username === 'admin' ? ADMIN_PASSWORD : who.password;
  return {
    who,
    address,
    async signIn() {
      const res = await request('POST', '/api/auth/login', {
        body: { username: who.username, password },
        address,
      });
      if (!record(stats, 'login', res, who.username)) return undefined;
      return {
        token: res.body.result.access_token,
        until: performance.now() + res.body.result.expire_in_seconds * 1000,
      };
    },
  };
}

/**
 * One round of the day's work with a session: the sales list, a search, a sale opened and saved,
 * the export of a month, and a buyer's survey (the link opened, the answers sent). `pause()`
 * runs after every request. Answers false when the session was refused (401: sign in again).
 */
async function workRound(n, { token, address, who }, stats, pause, until) {
  const late = () => performance.now() >= until;
  const refused = (res) => res.status === 401;
  const get = (url) => request('GET', url, { token, address });
  const list = await get('/api/sales?page=1&perPage=10');
  record(stats, 'lista', list, '/api/sales');
  if (refused(list)) return false;
  await pause();
  if (late()) return true;
  const term = SEARCHES[n % SEARCHES.length];
  const found = await get(`/api/sales?perPage=10&query=${encodeURIComponent(term)}`);
  record(stats, 'busqueda', found, term);
  if (refused(found)) return false;
  await pause();
  const sale = list.body?.result?.data?.[n % 10] ?? list.body?.result?.data?.[0];
  if (sale) {
    if (late()) return true;
    const opened = await get(`/api/sales/get/${sale.id}`);
    record(stats, 'abrir', opened, `venta ${sale.id}`);
    if (refused(opened)) return false;
    await pause();
    if (late()) return true;
    const saved = await request('PUT', `/api/sales/${sale.id}`, {
      token,
      address,
      body: { seller: `Vendedor ${n}` },
    });
    record(stats, 'guardar', saved, `venta ${sale.id}`);
    if (refused(saved)) return false;
    await pause();
  }
  // The export of what the user looks at: its dealer's sales of a month (a dealer user), or
  // one dealer's (the manufacturer's staff).
  if (late()) return true;
  const exportUrl = `/api/sales/export?filter[date_from]=2026-03-01&filter[date_to]=2026-03-31${
    who.dealer ? '' : `&filter[dealer_id]=${sale?.dealer_id ?? 1}`
  }`;
  const exported = await get(exportUrl);
  record(stats, 'exportar', exported, exportUrl);
  if (refused(exported)) return false;
  await pause();
  const surveyToken = late() ? undefined : surveyTokens.pop();
  if (surveyToken) {
    const open = await request('GET', `/api/public/quiz/${surveyToken}`, { address });
    if (record(stats, 'encuesta', open, 'abrir enlace')) {
      await pause();
      if (late()) return true;
      record(
        stats,
        'encuesta',
        await request('POST', `/api/public/quiz/${surveyToken}`, {
          address,
          body: { answers: answersOf(open.body.result.quiz) },
        }),
        'responder',
      );
      await pause();
    }
  }
  return true;
}

/**
 * A persona: arrives at a moment of the ramp, signs in once, then works round after round with a
 * think time after every request. It signs in again only when its session ends: the token
 * expires, is refused (401), or the person's session length (a seeded number of rounds in
 * SESSION_ROUNDS, then the browser is closed: no logout, which would end the sessions of the other
 * personas sharing its demo login) runs out.
 */
async function persona(n, stats, until) {
  const random = randomSource(SEED * 1000 + n);
  const me = person(n, stats);
  const pause = () => sleep(Math.min(between(random, THINK_MS), Math.max(0, until - performance.now())));
  await sleep(RAMP_SECONDS * 1000 * random());
  let session;
  let rounds = 0;
  while (performance.now() < until) {
    if (!session || performance.now() >= session.until || rounds <= 0) {
      session = await me.signIn();
      rounds = Math.round(between(random, SESSION_ROUNDS));
      await pause();
      if (!session) continue;
    }
    const kept = await workRound(n, { ...me, token: session.token }, stats, pause, until);
    rounds--;
    if (!kept) session = undefined;
  }
}

/** The saturation user (the former bench): signs in and works a round, again and again, without pause. */
async function saturating(n, stats, until) {
  const me = person(n, stats);
  const pause = async () => {};
  while (performance.now() < until) {
    const session = await me.signIn();
    if (session) await workRound(n, { ...me, token: session.token }, stats, pause, until);
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

/** The server's metrics (Prometheus text; allowed from the machine itself), '' when unreachable. */
function metricsText() {
  return new Promise((resolve) => {
    http
      .get(`${BASE}/api/metrics`, { agent }, (r) => {
        let text = '';
        r.on('data', (c) => {
          text += c;
        });
        r.on('end', () => resolve(text));
      })
      .on('error', () => resolve(''));
  });
}

/**
 * Where the time goes, sampled from the server's own metrics (GET /api/metrics, allowed from the
 * machine itself) every second of a phase: its CPU (process_cpu_seconds_total, all threads:
 * argon2's and zlib's too), the sign-ins waiting for an argon2 slot, the queries waiting for a
 * pool connection, and the event loop's delay (p99 of prom-client's monitor).
 */
function sampler() {
  const samples = [];
  const read = async () => {
    const res = await metricsText();
    const value = (name, labels = '') => {
      const m = new RegExp(`^${name}${labels ? `\\{[^}]*${labels}[^}]*\\}` : ''}\\s+(\\S+)$`, 'm').exec(res);
      return m ? Number(m[1]) : Number.NaN;
    };
    return {
      at: performance.now(),
      cpu: value('process_cpu_seconds_total'),
      argon2Waiting: value('password_hashes_waiting'),
      poolWaiting:
        value('db_pool_requests_waiting', 'pool="main"') + value('db_pool_requests_waiting', 'pool="pages"'),
      loopP99: value('nodejs_eventloop_lag_p99_seconds') * 1000,
    };
  };
  let timer;
  const tick = async () => {
    samples.push(await read());
    timer = setTimeout(tick, 1000);
  };
  void tick();
  return async () => {
    clearTimeout(timer);
    samples.push(await read());
    const ok = samples.filter((x) => Number.isFinite(x.cpu));
    const first = ok[0];
    const last = ok.at(-1);
    const stat = (k) => {
      const v = ok.map((x) => x[k]).filter(Number.isFinite);
      return v.length
        ? `media ${round(v.reduce((a, b) => a + b, 0) / v.length)}, max ${round(Math.max(...v))}`
        : '-';
    };
    return {
      cpuSeconds: first && last ? last.cpu - first.cpu : Number.NaN,
      wallSeconds: first && last ? (last.at - first.at) / 1000 : Number.NaN,
      text: `argon2 en espera ${stat('argon2Waiting')}; consultas esperando conexion ${stat('poolWaiting')}; retraso del event loop p99 ms ${stat('loopP99')}`,
    };
  };
}

/** Runs one phase and prints its table; answers its rows. */
async function phase(title, seconds, user) {
  const stats = newStats();
  console.log(`\n${title} durante ${seconds} s (carga del equipo: ${load()})...`);
  const sampled = sampler();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: USERS }, (_, n) => user(n, stats, until)));
  const elapsed = (performance.now() - t0) / 1000;
  const inside = await sampled();
  const rows = STEPS.map((s) => {
    const sorted = stats.steps[s].ms.sort((a, b) => a - b);
    return {
      paso: s,
      solicitudes: sorted.length,
      'req/s': round(sorted.length / elapsed),
      'p50 ms': round(percentile(sorted, 50)),
      'p99 ms': round(percentile(sorted, 99)),
      errores: stats.steps[s].errors,
    };
  });
  const total = rows.reduce((a, r) => a + r.solicitudes, 0);
  const errorCount = rows.reduce((a, r) => a + r.errores, 0);
  console.log(
    `\n${title}: ${total} solicitudes en ${round(elapsed)} s: ${round(total / elapsed)} req/s, ${errorCount} errores (carga del equipo: ${load()})`,
  );
  console.table(rows);
  console.log(
    `Servidor: CPU ${round(inside.cpuSeconds)} s en ${round(inside.wallSeconds)} s (${round(inside.cpuSeconds / inside.wallSeconds)} nucleos de ${availableParallelism()}), ${round((inside.cpuSeconds * 1000) / total)} ms de CPU por solicitud; ${inside.text}`,
  );
  for (const e of stats.errors) console.log(`  ERROR ${e}`);
  return {
    rows,
    total: round(total / elapsed),
    errors: errorCount,
    cpuMs: round((inside.cpuSeconds * 1000) / total),
  };
}

/**
 * Each step alone, one request at a time on the otherwise idle server: its CPU per request (ms,
 * every thread of the server: argon2's and zlib's too; PostgreSQL's own CPU is not in it) and its
 * time. What the steps cost, before the queues of the phases below.
 */
async function alone(count) {
  const cpu = async () => Number(/^process_cpu_seconds_total (\S+)$/m.exec(await metricsText())?.[1]);
  const who = logins.find((l) => l.dealer) ?? logins[0];
  let n = 0;
  const address = () => `198.19.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;
  const errors = [];
  const signIn = async () => {
    const res = await request('POST', '/api/auth/login', {
      body: { username: who.username, password: who.password },
      address: address(),
    });
    return { res, token: res.body?.result?.access_token };
  };
  const { token } = await signIn();
  const list = await request('GET', '/api/sales?page=1&perPage=10', { token });
  const id = list.body?.result?.data?.[0]?.id;
  const opened = [];
  const steps = [
    ['login', async () => (await signIn()).res],
    ['lista', () => request('GET', '/api/sales?page=1&perPage=10', { token })],
    ['busqueda', () => request('GET', '/api/sales?perPage=10&query=carga', { token })],
    ['abrir', () => request('GET', `/api/sales/get/${id}`, { token })],
    ['guardar', () => request('PUT', `/api/sales/${id}`, { token, body: { seller: 'Vendedor Solo' } })],
    [
      'exportar',
      () =>
        request('GET', '/api/sales/export?filter[date_from]=2026-03-01&filter[date_to]=2026-03-31', {
          token,
        }),
    ],
    [
      'encuesta abrir',
      async () => {
        const link = surveyTokens.pop();
        const res = await request('GET', `/api/public/quiz/${link}`, { address: address() });
        if (res.status === 200) opened.push([link, res.body.result.quiz]);
        return res;
      },
    ],
    [
      'encuesta responder',
      async () => {
        const [link, quiz] = opened.pop() ?? [];
        if (!link) return { status: 0, body: 'ningun enlace abierto', ms: 0 };
        return request('POST', `/api/public/quiz/${link}`, {
          address: address(),
          body: { answers: answersOf(quiz) },
        });
      },
    ],
  ];
  const rows = [];
  for (const [name, call] of steps) {
    const times = [];
    const before = await cpu();
    const repeat = name === 'login' ? Math.ceil(count / 2) : count;
    for (let i = 0; i < repeat; i++) {
      const res = await call();
      times.push(res.ms);
      if (res.status !== 200) errors.push(`${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    const after = await cpu();
    times.sort((a, b) => a - b);
    rows.push({
      paso: name,
      solicitudes: times.length,
      'CPU ms': round(((after - before) * 1000) / times.length),
      'p50 ms': round(percentile(times, 50)),
    });
  }
  console.log(`\nCada paso solo, una solicitud a la vez (carga del equipo: ${load()}):`);
  console.table(rows);
  for (const e of errors.slice(0, 30)) console.log(`  ERROR ${e}`);
  return { rows, errors: errors.length };
}

let totalErrors = 0;
const ALONE = Number(process.env.LOAD_ALONE ?? 20);
if (ALONE > 0) {
  const single = await alone(ALONE);
  totalErrors += single.errors;
  for (const r of single.rows) figure(`carga: ${r.paso} solo, CPU del servidor`, r['CPU ms'], 'ms');
}
if (THINK_MS[1] > 0 && SECONDS > 0) {
  const personas = await phase(
    `${USERS} personas (pausa ${THINK_MS[0]}–${THINK_MS[1]} ms, llegada en ${RAMP_SECONDS} s)`,
    SECONDS,
    persona,
  );
  totalErrors += personas.errors;
  for (const r of personas.rows) {
    figure(`carga ${USERS} personas: ${r.paso} p50`, r['p50 ms'], 'ms');
    figure(`carga ${USERS} personas: ${r.paso} p99`, r['p99 ms'], 'ms', { op: '<=', value: 1000 });
  }
  figure(`carga ${USERS} personas: req/s`, personas.total, 'req/s');
  figure(`carga ${USERS} personas: CPU del servidor por solicitud`, personas.cpuMs, 'ms');
}
if (SATURATION_SECONDS > 0) {
  const saturation = await phase(`Saturacion: ${USERS} usuarios sin pausa`, SATURATION_SECONDS, saturating);
  totalErrors += saturation.errors;
  for (const r of saturation.rows) {
    figure(`carga ${USERS} sin pausa: ${r.paso} req/s`, r['req/s'], 'req/s');
    figure(`carga ${USERS} sin pausa: ${r.paso} p99`, r['p99 ms'], 'ms');
  }
  figure(`carga ${USERS} sin pausa: req/s`, saturation.total, 'req/s');
  figure(`carga ${USERS} sin pausa: CPU del servidor por solicitud`, saturation.cpuMs, 'ms');
}
await server.stop();
agent.destroy();
figure(`carga ${USERS} usuarios: errores`, totalErrors, '', { op: '<=', value: 0 });
process.exit(totalErrors ? 1 : 0);
