// Export memory: the built server (what `npm start` runs) exports 100,000 dealers to .xlsx through
// GET /api/dealers/export with the columns of the list screen, on PostgreSQL. Prints the server's
// peak resident memory (VmHWM of the server process, start-up included) and the peak sampled
// during the export, the time and the file size, and checks the file has every row.
// Target: peak RSS < 250 MB.
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { figure, round } from './lib/common.mjs';
import { adminToken, benchServer, databaseUrl, fillDealers, procKb } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_EXPORT_DB ?? 'bench_export';
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const PORT = Number(process.env.BENCH_EXPORT_PORT ?? 3533);
const ADMIN_PASSWORD = 'bench-admin-1234';
const COLUMNS = [
  'id',
  'code',
  'name',
  'ruc',
  'zone_name',
  'district_name',
  'address_address1',
  'address_phone',
  'email',
  'active',
  'created_at',
];

const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);

/** 100,000 dealers; every 1,000th name looks like a formula, which the export must neutralise. */
async function fillBenchDealers() {
  const pool = new pg.Pool({ connectionString: dbUrl, max: 2 });
  try {
    await fillDealers(pool, { rows: ROWS, prefix: 'X', zones: 6, formulaEvery: 1000 });
  } finally {
    await pool.end();
  }
}

/** Rows of the sheet (header excluded) and how many cells start with a quote-neutralised formula. */
async function readWorkbook(buffer) {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    sharedStrings: 'cache',
    styles: 'cache',
    worksheets: 'emit',
  });
  let rows = 0;
  let header = [];
  let formulas = 0;
  let neutralised = 0;
  let dates = 0;
  for await (const sheet of reader) {
    for await (const row of sheet) {
      if (row.number === 1) {
        header = row.values.slice(1);
        continue;
      }
      rows++;
      const name = row.getCell(3).value;
      if (name && typeof name === 'object' && 'formula' in name) formulas++;
      if (typeof name === 'string' && name.startsWith("'=")) neutralised++;
      if (row.getCell(COLUMNS.length).value instanceof Date) dates++;
    }
  }
  return { rows, header, formulas, neutralised, dates };
}

const server = await benchServer(ADMIN_URL, DB_NAME, PORT, ADMIN_PASSWORD);
try {
  await fillBenchDealers();
  const pid = server.child.pid;
  const base = `http://127.0.0.1:${PORT}`;
  const token = await adminToken(base, ADMIN_PASSWORD);

  const before = procKb(pid, 'VmRSS');
  let sampledPeak = before;
  const sampler = setInterval(() => {
    const kb = procKb(pid, 'VmRSS');
    if (kb > sampledPeak) sampledPeak = kb;
  }, 25);
  const t0 = performance.now();
  const url = `${base}/api/dealers/export?columns=${COLUMNS.join(',')}&sort=code&order=asc`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`La exportacion respondio ${res.status}: ${await res.text()}`);
  const chunks = [];
  for await (const chunk of res.body) chunks.push(chunk);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const hwm = procKb(pid, 'VmHWM');
  const buffer = Buffer.concat(chunks);

  const book = await readWorkbook(buffer);
  console.log(
    `  archivo: ${round(buffer.length / 1048576)} MB, ${book.rows} filas, ${book.header.length} columnas` +
      ` (${book.header.slice(0, 4).join(', ')}, ...), ${book.dates} fechas como fecha,` +
      ` ${book.neutralised} textos tipo formula neutralizados, ${book.formulas} formulas`,
  );
  console.log(
    `  RSS del servidor: ${round(before / 1024)} MB antes, maximo muestreado ${round(sampledPeak / 1024)} MB,` +
      ` VmHWM (pico de todo el proceso) ${round(hwm / 1024)} MB; ${round(seconds)} s`,
  );
  if (book.rows < ROWS) throw new Error(`El archivo tiene ${book.rows} filas, se esperaban ${ROWS} o mas`);
  if (book.formulas > 0) throw new Error('El archivo contiene formulas: la neutralizacion fallo');
  figure('exportacion 100.000 filas, RSS maximo del servidor', round(hwm / 1024), 'MB', {
    op: '<',
    value: 250,
  });
  figure('exportacion 100.000 filas, tiempo', round(seconds), 's');
} finally {
  await server.stop();
}
