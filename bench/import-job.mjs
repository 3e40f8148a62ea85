// A 100,000-row sales .xlsx imported as a background job (issue 24: heavy work off the request
// path) against the built server on PostgreSQL, while CLIENTS people keep signing in and opening
// list pages. Prints the import's time (upload → job done), p50/p99 of the logins and of the
// list pages before and during the import (p50/p95/p99), the machine's load average at each
// phase, and the server's RSS (peak during, and after).
// Target: logins and list pages answer in < 300 ms (p95) while the import runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { figure, percentile, round, startServer } from './lib/common.mjs';
import { adminQuery, databaseUrl } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_JOB_DB ?? 'bench_import_job';
const ROWS = Number(process.env.BENCH_JOB_ROWS ?? 100_000);
const PORT = Number(process.env.BENCH_JOB_PORT ?? 3236);
/** People signing in and paging the sales list meanwhile, each one request after another. */
const CLIENTS = Number(process.env.BENCH_JOB_CLIENTS ?? 4);
const BASELINE_MS = 8000;
const ADMIN_PASSWORD = 'bench-admin-1234';
const base = `http://127.0.0.1:${PORT}`;

async function writeFile(file, rows) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const ws = wb.addWorksheet('Ventas');
  const headers = [
    'Concesionario',
    'Sede',
    'Fecha Venta',
    'Factura',
    'Tipo Documento',
    'Documento',
    'Cliente',
    'Email',
    'Teléfono',
    'VIN',
    'Marca',
    'Modelo',
    'Año',
    'Vendedor',
    'Forma de Pago',
  ];
  ws.addRow(headers).commit();
  const prefix = `J${Date.now().toString(36).toUpperCase().replace(/[IOQ]/g, 'X').slice(-4)}`;
  const brands = ['V', 'N', 'S', 'A'];
  const pay = ['E', 'T', 'D', 'G'];
  for (let i = 0; i < rows; i++) {
    ws.addRow([
      `BD${String(i % 20).padStart(2, '0')}`,
      null,
      `2025-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      `F001-${String(i).padStart(8, '0')}`,
      'DNI',
      String(10_000_000 + i),
      `Cliente ${i}`,
      `cliente${i}@example.com`,
      '987654321',
      `${prefix}${String(i).padStart(12, '0')}`,
      brands[i % 4],
      `Modelo ${i % 15}`,
      2025,
      `Vendedor ${i % 40}`,
      pay[i % 4],
    ]).commit();
  }
  ws.commit();
  await wb.commit();
}

async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /VmRSS:\s+(\d+)/.exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function timed(fn) {
  const t0 = performance.now();
  const res = await fn();
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
  await res.arrayBuffer();
  return performance.now() - t0;
}

/** One timed call; a failed one (refused, reset, not 2xx) is counted in `errors`, not timed. */
async function attempt(times, errors, kind, fn) {
  try {
    times.push(await timed(fn));
  } catch (err) {
    const what = `${kind}: ${err.cause?.code ?? err.message.slice(0, 80)}`;
    errors.set(what, (errors.get(what) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CLIENTS loops of login + a list page until stop(); answers the times of each kind. */
function traffic(token) {
  const logins = [];
  const lists = [];
  const errors = new Map();
  let running = true;
  const loops = Array.from({ length: CLIENTS }, async (_, c) => {
    let page = 1;
    while (running) {
      await attempt(logins, errors, 'login', () =>
        fetch(`${base}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${c + 1}` },
          body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
        }),
      );
      await attempt(lists, errors, 'lista', () =>
        fetch(`${base}/api/sales?page=${page}&perPage=25`, {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      page = (page % 40) + 1;
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return { logins: logins.sort((a, b) => a - b), lists: lists.sort((a, b) => a - b), errors };
    },
  };
}

/**
 * The server's own event-loop delay (prom-client's monitorEventLoopDelay, reset at every scrape):
 * scraped each second from /api/metrics (loopback), so a stall of the API's event loop shows apart
 * from a machine whose CPUs are shared (the load average). Answers the max and p99 of each second.
 */
function loopSampler() {
  const max = [];
  const p99 = [];
  const read = (text, name) => {
    const m = new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1000 : Number.NaN;
  };
  const timer = setInterval(async () => {
    try {
      const text = await (await fetch(`${base}/api/metrics`)).text();
      max.push(read(text, 'nodejs_eventloop_lag_max_seconds'));
      p99.push(read(text, 'nodejs_eventloop_lag_p99_seconds'));
    } catch {}
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      const sorted = (v) => v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
      const mx = sorted(max);
      const pp = sorted(p99);
      return {
        n: mx.length,
        'max de los segundos': round(mx.at(-1) ?? Number.NaN),
        'p95 de los max por segundo': round(percentile(mx, 95)),
        'mediana de los p99 por segundo': round(percentile(pp, 50)),
      };
    },
  };
}

const stats = (v) => ({
  n: v.length,
  p50: round(percentile(v, 50)),
  p95: round(percentile(v, 95)),
  p99: round(percentile(v, 99)),
  max: round(v[v.length - 1] ?? Number.NaN),
});
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await adminQuery(ADMIN_URL, `CREATE DATABASE ${DB_NAME}`);
  const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-job-'));
  const server = startServer({
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    DATA_DIR: dir,
    RATE_LIMIT_LOGIN: '0',
    RATE_LIMIT_UPLOAD: '0',
    TRUST_PROXY: '127.0.0.1',
  });
  try {
    await server.ready;
    const pid = server.child.pid;
    server.child.once('exit', (code, signal) =>
      console.error(`El servidor terminó durante la medida (código ${code}, señal ${signal})`),
    );
    const login = await (
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
    ).json();
    const token = login.result.access_token;
    const auth = { authorization: `Bearer ${token}` };
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    await db.query(`INSERT INTO dealers (code, name)
      SELECT 'BD' || lpad(g::text, 2, '0'), 'Concesionario bench ' || g FROM generate_series(0, 19) g`);
    const file = path.join(dir, 'ventas.xlsx');
    await writeFile(file, ROWS);
    const bytes = readFileSync(file);
    console.log(
      `Archivo de ${ROWS} filas: ${round(bytes.length / 1024 / 1024, 2)} MB; ${CLIENTS} clientes en paralelo`,
    );

    // Before: the same traffic with nothing else running.
    const loadBefore = load();
    const idleLoop = loopSampler();
    const idle = traffic(token);
    await new Promise((r) => setTimeout(r, BASELINE_MS));
    const before = await idle.stop();
    const loopBefore = idleLoop.stop();
    const loadIdle = load();
    const rssBefore = await rssMb(pid);

    const busyLoop = loopSampler();
    const busy = traffic(token);
    let peak = rssBefore;
    const sampler = setInterval(async () => {
      peak = Math.max(peak, await rssMb(pid));
    }, 200);
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'ventas.xlsx');
    const res = await fetch(`${base}/api/sales/import`, { method: 'POST', headers: auth, body: form });
    const accepted = performance.now() - t0;
    const body = await res.json();
    if (res.status !== 202)
      throw new Error(`se esperaba 202: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    let job = body.result;
    const steps = new Set();
    while (job.status !== 'done' && job.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 250));
      job = (await (await fetch(`${base}/api/jobs/${job.id}`, { headers: auth })).json()).result;
      if (job.step) steps.add(`${job.step} (${job.percent} %)`);
    }
    const total = performance.now() - t0;
    const loadDuring = load();
    clearInterval(sampler);
    const during = await busy.stop();
    const loopDuring = busyLoop.stop();
    const [{ n: saved }] = (await db.query('select count(*)::int as n from sales')).rows;
    await db.end();
    const rssAfter = await rssMb(pid);
    if (job.status !== 'done' || saved !== ROWS)
      throw new Error(`el trabajo no guardó las ${ROWS} filas: ${JSON.stringify(job).slice(0, 500)}`);
    console.log(
      `202 en ${round(accepted)} ms; trabajo terminado en ${round(total / 1000, 2)} s; ${saved} filas en la base`,
    );
    console.log(`Pasos vistos: ${[...steps].slice(0, 8).join(' · ')}`);
    console.table({
      'login sin carga': stats(before.logins),
      'login durante la carga': stats(during.logins),
      'lista sin carga': stats(before.lists),
      'lista durante la carga': stats(during.lists),
    });
    console.log('Retraso del event loop del servidor (ms, muestreado cada segundo en /api/metrics):');
    console.table({ 'sin carga': loopBefore, 'durante la carga': loopDuring });
    for (const [phase, r] of [
      ['sin carga', before],
      ['durante la carga', during],
    ])
      if (r.errors.size)
        console.log(`Llamadas fallidas ${phase}: ${JSON.stringify(Object.fromEntries(r.errors))}`);
    console.log(
      `Carga media de la máquina (1, 5, 15 min; ${availableParallelism()} núcleos): al empezar ${loadBefore}; tras la medida sin carga ${loadIdle}; al terminar la carga ${loadDuring}`,
    );
    console.log(
      `RSS del servidor: ${round(rssBefore)} MB antes, pico ${round(peak)} MB durante, ${round(rssAfter)} MB después`,
    );
    figure(`carga de ${ROWS} ventas como trabajo: tiempo hasta terminar`, round(total / 1000, 2), 's');
    figure(`carga de ${ROWS} ventas como trabajo: respuesta 202`, round(accepted), 'ms');
    figure('login p95 durante la carga', stats(during.logins).p95, 'ms', { op: '<', value: 300 });
    figure('login p50 durante la carga', stats(during.logins).p50, 'ms');
    figure('login p99 durante la carga', stats(during.logins).p99, 'ms');
    figure('lista p95 durante la carga', stats(during.lists).p95, 'ms', { op: '<', value: 300 });
    figure('lista p50 durante la carga', stats(during.lists).p50, 'ms');
    figure('lista p99 durante la carga', stats(during.lists).p99, 'ms');
    figure('RSS pico del servidor durante la carga', round(peak), 'MB');
    figure('retraso máximo del event loop durante la carga', loopDuring['max de los segundos'], 'ms');
  } catch (err) {
    console.error(`Salida del servidor (final):\n${server.output().slice(-4000)}`);
    throw err;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
}

await main();
