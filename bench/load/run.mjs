#!/usr/bin/env node
// `npm run bench:load`: LOAD_USERS (200) people at once for LOAD_SECONDS (60) against one built
// server (apps/api/dist/main.js) on PostgreSQL. Each repeats what a day of work does: sign in,
// open the sales list, search it, open a sale, save it, export the list, and a buyer answers a
// survey (open the link, send the answers). Prints requests/s, p50 and p99 per step and every
// error; exits non-zero on any error (target: 0).
//
// The database `bench_rel_load` (LOAD_DB; on BENCH_DATABASE_URL's server) is made anew each run: the demo
// network, 6,000 more sales and an invitation for each (the links read from the outbox). Each
// user comes from its own address (X-Forwarded-For, the server trusting 127.0.0.1 as its proxy),
// as people behind a balancer do, so the per-address limits apply to each one as in real life.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import pg from 'pg';
import { figure, percentile, requireBundle, root, round, serverBundle, startServer } from '../lib/common.mjs';
import { adminQuery, databaseUrl } from '../lib/postgres.mjs';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
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
const stats = Object.fromEntries(STEPS.map((s) => [s, { ms: [], errors: 0 }]));
const errors = [];
const SEARCHES = ['carga', 'maria', 'a', 'toyota', '2026', 'lim', 'comprador 1'];

function record(step, res, what) {
  stats[step].ms.push(res.ms);
  if (res.status === 200) return true;
  stats[step].errors++;
  if (errors.length < 30)
    errors.push(`${step} ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  return false;
}

let answers;
async function user(n, until) {
  const who = logins[n % logins.length];
  const address = `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const password = who.username === 'admin' ? ADMIN_PASSWORD : who.password;
  while (performance.now() < until) {
    const login = await request('POST', '/api/auth/login', {
      body: { username: who.username, password },
      address,
    });
    if (!record('login', login, who.username)) continue;
    const token = login.body.result.access_token;
    const list = await request('GET', '/api/sales?page=1&perPage=10', { token, address });
    record('lista', list, '/api/sales');
    const term = SEARCHES[n % SEARCHES.length];
    record(
      'busqueda',
      await request('GET', `/api/sales?perPage=10&query=${encodeURIComponent(term)}`, { token, address }),
      term,
    );
    const sale = list.body?.result?.data?.[n % 10] ?? list.body?.result?.data?.[0];
    if (sale) {
      record(
        'abrir',
        await request('GET', `/api/sales/get/${sale.id}`, { token, address }),
        `venta ${sale.id}`,
      );
      record(
        'guardar',
        await request('PUT', `/api/sales/${sale.id}`, { token, address, body: { seller: `Vendedor ${n}` } }),
        `venta ${sale.id}`,
      );
    }
    // The export of what the user looks at: its dealer's sales of a month (a dealer user), or
    // one dealer's (the manufacturer's staff).
    const exportUrl = `/api/sales/export?filter[date_from]=2026-03-01&filter[date_to]=2026-03-31${
      who.dealer ? '' : `&filter[dealer_id]=${sale?.dealer_id ?? 1}`
    }`;
    record('exportar', await request('GET', exportUrl, { token, address }), exportUrl);
    const surveyToken = surveyTokens.pop();
    if (surveyToken) {
      const open = await request('GET', `/api/public/quiz/${surveyToken}`, { address });
      if (record('encuesta', open, 'abrir enlace')) {
        answers ??= open.body.result.quiz.questions.map((q) => ({
          question_id: q.id,
          value:
            q.type === 'rating4'
              ? 4
              : q.type === 'yesno'
                ? 'Si'
                : q.type === 'choice'
                  ? q.options[0]
                  : 'Bien',
        }));
        record(
          'encuesta',
          await request('POST', `/api/public/quiz/${surveyToken}`, { address, body: { answers } }),
          'responder',
        );
      }
    }
  }
}

console.log(`\n${USERS} usuarios durante ${SECONDS} s...`);
const t0 = performance.now();
const until = t0 + SECONDS * 1000;
await Promise.all(Array.from({ length: USERS }, (_, n) => user(n, until)));
const elapsed = (performance.now() - t0) / 1000;
await server.stop();
agent.destroy();

// ---------- figures ----------
const rows = STEPS.map((s) => {
  const sorted = stats[s].ms.sort((a, b) => a - b);
  return {
    paso: s,
    solicitudes: sorted.length,
    'req/s': round(sorted.length / elapsed),
    'p50 ms': round(percentile(sorted, 50)),
    'p99 ms': round(percentile(sorted, 99)),
    errores: stats[s].errors,
  };
});
const total = rows.reduce((a, r) => a + r.solicitudes, 0);
const totalErrors = rows.reduce((a, r) => a + r.errores, 0);
console.log(
  `\n${total} solicitudes en ${round(elapsed)} s: ${round(total / elapsed)} req/s, ${totalErrors} errores`,
);
console.table(rows);
for (const e of errors) console.log(`  ERROR ${e}`);
for (const r of rows) {
  figure(`carga ${USERS} usuarios: ${r.paso} req/s`, r['req/s'], 'req/s');
  figure(`carga ${USERS} usuarios: ${r.paso} p99`, r['p99 ms'], 'ms');
}
figure(`carga ${USERS} usuarios: errores`, totalErrors, '', { op: '<=', value: 0 });
process.exit(totalErrors ? 1 : 0);
