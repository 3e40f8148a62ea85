// Export stall: what a small export (under EXPORT_JOB_ROWS, so built on the request path) costs the
// other calls of the same server. The built server (what `npm start` runs) on PostgreSQL exports
// 5,000 dealers through GET /api/dealers/export with the list screen's columns while another
// client calls GET /api/health one call after the other. Prints the longest event-loop stall
// during the export (prom-client's nodejs_eventloop_lag_max_seconds from /api/metrics, reset by
// the scrape just before) and the slowest /api/health answer meanwhile, against the same health
// calls with no export running. Target: stall ≤ 100 ms.

import pg from 'pg';
import { figure, round } from './lib/common.mjs';
import { adminToken, benchServer, databaseUrl, fillDealers } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_STALL_DB ?? 'bench_export_stall';
const ROWS = Number(process.env.BENCH_STALL_ROWS ?? 5_000);
const PORT = Number(process.env.BENCH_STALL_PORT ?? 3534);
const RUNS = Number(process.env.BENCH_STALL_RUNS ?? 5);
const ADMIN_PASSWORD = 'bench-admin-1234';
const COLUMNS =
  'id,code,name,ruc,zone_name,district_name,address_address1,address_phone,email,active,created_at';

const server = await benchServer(ADMIN_URL, DB_NAME, PORT, ADMIN_PASSWORD);
const base = `http://127.0.0.1:${PORT}`;

/** The event loop's longest delay (ms) since the previous scrape. */
async function lagMaxMs() {
  const text = await (await fetch(`${base}/api/metrics`)).text();
  const m = /^nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(text);
  if (!m) throw new Error('/api/metrics no da nodejs_eventloop_lag_max_seconds');
  return Number(m[1]) * 1000;
}

/** /api/health called one after the other until `until` settles: the slowest answer (ms). */
async function healthWhile(until) {
  let done = false;
  until.finally(() => {
    done = true;
  });
  let slowest = 0;
  let calls = 0;
  while (!done) {
    const t0 = performance.now();
    await (await fetch(`${base}/api/health`)).arrayBuffer();
    slowest = Math.max(slowest, performance.now() - t0);
    calls++;
  }
  return { slowest, calls };
}

async function exportOnce(token) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/dealers/export?columns=${COLUMNS}&sort=code&order=asc`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 200) throw new Error(`La exportacion respondio ${res.status}: ${await res.text()}`);
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - t0, bytes };
}

try {
  const pool = new pg.Pool({ connectionString: databaseUrl(ADMIN_URL, DB_NAME), max: 2 });
  try {
    // Exactly ROWS dealers: the export stays under EXPORT_JOB_ROWS (a request, not a job).
    await fillDealers(pool, { rows: ROWS, prefix: 'S', zones: 6 });
    const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM dealers')).rows;
    console.log(`  dealers: ${n} filas`);
  } finally {
    await pool.end();
  }
  const token = await adminToken(base, ADMIN_PASSWORD);
  await exportOnce(token); // exceljs loaded, plans cached

  await lagMaxMs();
  const idle = await healthWhile(new Promise((r) => setTimeout(r, 1000)));
  const idleLag = await lagMaxMs();
  console.log(
    `  sin exportacion: /api/health mas lenta ${round(idle.slowest)} ms, bucle ${round(idleLag)} ms`,
  );

  const stalls = [];
  const slowest = [];
  for (let i = 0; i < RUNS; i++) {
    await lagMaxMs();
    const exported = exportOnce(token);
    const health = await healthWhile(exported);
    const { ms, bytes } = await exported;
    const lag = await lagMaxMs();
    stalls.push(lag);
    slowest.push(health.slowest);
    console.log(
      `  exportacion ${i + 1}: ${round(ms)} ms, ${round(bytes / 1024)} kB; bucle detenido hasta ${round(lag)} ms;` +
        ` /api/health mas lenta ${round(health.slowest)} ms (${health.calls} llamadas)`,
    );
  }
  const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  figure(`exportacion ${ROWS} filas: detencion del bucle (mediana de ${RUNS})`, round(median(stalls)), 'ms', {
    op: '<=',
    value: 100,
  });
  figure(`exportacion ${ROWS} filas: /api/health mas lenta (mediana)`, round(median(slowest)), 'ms');
} finally {
  await server.stop();
}
