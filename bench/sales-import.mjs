// POST /api/sales/import of a 50,000-row .xlsx against the built server (what `npm start` runs)
// on PostgreSQL: upload, streaming read, validation of every row, and the all-or-nothing save in
// one transaction. Prints the time of the request and the rows saved. Target: ≤ 5 s.
// Also times the same file with one wrong row (validated, nothing saved).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { figure, root, round, startServer } from './lib/common.mjs';
import { adminQuery, databaseUrl } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_SALES_DB ?? 'bench_sales';
const ROWS = Number(process.env.BENCH_SALES_ROWS ?? 50_000);
const PORT = Number(process.env.BENCH_SALES_PORT ?? 3233);
const ADMIN_PASSWORD = 'bench-admin-1234';
const admin = (text) => adminQuery(ADMIN_URL, text);

/** The header row of the template the server hands out (GET /api/sales/template). */
async function templateHeaders(base, auth) {
  const res = await fetch(`${base}/api/sales/template`, { headers: auth });
  if (res.status !== 200) throw new Error(`La plantilla respondio ${res.status}`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(await res.arrayBuffer()));
  return (wb.worksheets[0].getRow(1).values ?? []).slice(1).map(String);
}

/** A template file of `rows` sales over 20 dealers; `badRow` (0-based) gets an unknown brand. */
async function writeFile(file, headers, rows, badRow = -1) {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: file,
    useSharedStrings: false,
    useStyles: false,
  });
  const ws = wb.addWorksheet('Ventas');
  ws.addRow(headers).commit();
  const prefix = `B${Date.now().toString(36).toUpperCase().replace(/[IOQ]/g, 'X').slice(-4)}`;
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
      i === badRow ? 'ZZ' : brands[i % 4],
      `Modelo ${i % 15}`,
      2025,
      `Vendedor ${i % 40}`,
      pay[i % 4],
    ]).commit();
  }
  ws.commit();
  await wb.commit();
}

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-sales-'));
  const server = startServer({
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    DATA_DIR: dir,
    // This bench times the synchronous call; a big file would be a job (bench/import-job.mjs).
    IMPORT_JOB_BYTES: String(64 * 1024 * 1024),
  });
  try {
    await server.ready;
    const base = `http://127.0.0.1:${PORT}`;
    const login = await (
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
    ).json();
    const auth = { authorization: `Bearer ${login.result.access_token}` };
    const headers = await templateHeaders(base, auth);
    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    await db.query(`INSERT INTO dealers (code, name)
      SELECT 'BD' || lpad(g::text, 2, '0'), 'Concesionario bench ' || g FROM generate_series(0, 19) g`);

    const upload = async (file) => {
      const form = new FormData();
      form.append('file', new Blob([readFileSync(file)]), 'ventas.xlsx');
      const t0 = performance.now();
      const res = await fetch(`${base}/api/sales/import`, { method: 'POST', headers: auth, body: form });
      const body = await res.json();
      return { ms: performance.now() - t0, status: res.status, body };
    };

    const bad = path.join(dir, 'bad.xlsx');
    await writeFile(bad, headers, ROWS, Math.floor(ROWS / 2));
    const r1 = await upload(bad);
    const [{ n: afterBad }] = (await db.query('select count(*)::int as n from sales')).rows;
    console.log(
      `${ROWS} filas con 1 fila errada: HTTP ${r1.status}, guardadas ${r1.body.result?.saved}, en la base ${afterBad}, ${round(r1.ms)} ms`,
    );

    const good = path.join(dir, 'good.xlsx');
    await writeFile(good, headers, ROWS);
    const r2 = await upload(good);
    const [{ n: saved }] = (await db.query('select count(*)::int as n from sales')).rows;
    await db.end();
    console.log(
      `${ROWS} filas validas: HTTP ${r2.status}, guardadas ${r2.body.result?.saved}, en la base ${saved}, ${round(r2.ms)} ms`,
    );
    if (r2.status !== 200 || saved !== ROWS)
      throw new Error(`carga fallida: ${JSON.stringify(r2.body).slice(0, 500)}`);
    figure(
      `carga de ventas .xlsx, ${ROWS} filas validadas y guardadas (PostgreSQL)`,
      round(r2.ms / 1000, 2),
      's',
      {
        op: '<=',
        value: 5,
      },
    );
    figure(`carga de ventas .xlsx, ${ROWS} filas con 1 errada (nada guardado)`, round(r1.ms / 1000, 2), 's', {
      op: '<=',
      value: 5,
    });
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
}

void root;
await main();
