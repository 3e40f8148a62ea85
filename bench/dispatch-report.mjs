// The dynamic dispatch report over a big network: 200,000 dispatches of 2025 for 500 dealers and
// the four brands, on PostgreSQL, through the built server (what `npm start` runs):
// POST /api/transaction/export-dynamic-report for the twelve months of 2025, every brand (a row per
// dealer and brand). Prints the time to the last byte, the server's peak resident memory (VmHWM),
// and checks the file's totals row against SUM(units) in the database.
// Targets: ≤ 3 s, peak RSS < 250 MB.
import os from 'node:os';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { figure, round } from './lib/common.mjs';
import { adminToken, benchServer, databaseUrl, fillDealers, procKb } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DISPATCH_DB ?? 'bench_disp';
const DISPATCHES = Number(process.env.BENCH_DISPATCHES ?? 200_000);
const DEALERS = 500;
const PORT = Number(process.env.BENCH_DISPATCH_PORT ?? 3534);
const ADMIN_PASSWORD = 'bench-admin-1234';

const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);

/** 500 dealers and 200,000 dispatches of 2025 (1 to 3 units each), seasonal by month. */
async function fill() {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  try {
    await fillDealers(pool, { rows: DEALERS, prefix: 'D', zones: 6 });
    const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM dispatches')).rows;
    if (n >= DISPATCHES) {
      console.log(`dispatches ya tiene ${n} filas`);
      return;
    }
    const t0 = performance.now();
    await pool.query(`INSERT INTO dispatches (dealer_id, manufacturer_id, model_name, vin, dispatch_date, units, source, sima_key)
      SELECT d.ids[1 + g % array_length(d.ids, 1)],
             b.ids[1 + (g / 7) % array_length(b.ids, 1)],
             'Modelo ' || (g % 9),
             '9BNCH' || lpad(g::text, 12, '0'),
             date '2025-01-01' + ((g * 7919) % 365),
             1 + g % 3,
             'SIMA',
             'bench:' || g
      FROM generate_series(${n + 1}, ${DISPATCHES}) g,
           (SELECT array_agg(id ORDER BY id) ids FROM dealers) d,
           (SELECT array_agg(id ORDER BY id) ids FROM manufacturers) b`);
    await pool.query('ANALYZE dispatches');
    console.log(
      `dispatches llenada hasta ${DISPATCHES} filas en ${round((performance.now() - t0) / 1000)} s`,
    );
  } finally {
    await pool.end();
  }
}

const server = await benchServer(ADMIN_URL, DB_NAME, PORT, ADMIN_PASSWORD);
try {
  await fill();
  const pid = server.child.pid;
  const base = `http://127.0.0.1:${PORT}`;
  const token = await adminToken(base, ADMIN_PASSWORD);
  const body = JSON.stringify({ rangeFrom: { year: 2025, month: 1 }, rangeDays: { year: 2025, month: 12 } });
  const run = async () => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/transaction/export-dynamic-report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 200) throw new Error(`El reporte respondio ${res.status}: ${await res.text()}`);
    const buffer = Buffer.from(await res.arrayBuffer());
    return { seconds: (performance.now() - t0) / 1000, buffer };
  };
  // Three calls (the first also loads exceljs); the figure is their median, the machine being shared.
  const runs = [await run(), await run(), await run()];
  const median = [...runs.map((r) => r.seconds)].sort((a, b) => a - b)[1];
  const hwm = procKb(pid, 'VmHWM');

  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(runs[0].buffer);
  const ws = wb.worksheets[0];
  const last = ws.getRow(ws.rowCount);
  const header = ws.getRow(6);
  const totalCell = last.getCell(last.cellCount).value;
  const pool = new pg.Pool({ connectionString: dbUrl, max: 1 });
  const [{ sum }] = (
    await pool.query(
      `SELECT sum(units)::int AS sum FROM dispatches WHERE dispatch_date BETWEEN '2025-01-01' AND '2025-12-31'`,
    )
  ).rows;
  await pool.end();
  console.log(
    `  archivo: ${round(runs[0].buffer.length / 1024)} KB, ${ws.rowCount - 7} filas (concesionario x marca), ` +
      `${(header.values.length ?? 1) - 1} columnas; total del archivo ${totalCell}, SUM(units) en la base ${sum}`,
  );
  console.log(
    `  carga del equipo: ${os
      .loadavg()
      .map((l) => round(l))
      .join(' ')}`,
  );
  console.log(
    `  tiempos: ${runs.map((r) => round(r.seconds)).join(' s, ')} s; VmHWM del servidor ${round(hwm / 1024)} MB`,
  );
  if (totalCell !== sum) throw new Error('El total del reporte no coincide con la base');
  figure('reporte dinamico 12 meses, 200.000 despachos, tiempo (mediana de 3)', round(median), 's', {
    op: '<=',
    value: 3,
  });
  figure('reporte dinamico 12 meses, RSS maximo del servidor', round(hwm / 1024), 'MB', {
    op: '<',
    value: 250,
  });
} finally {
  await server.stop();
}
