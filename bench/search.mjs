// The global search (GET /api/search) on a network of 300 dealers and 1,000,000 sales, on
// PostgreSQL (a database of its own, kept between runs): the median and p95 latency, over HTTP as
// the top bar calls it, of a VIN (whole and its last 8 characters), a buyer's name (a common one
// and a rare one), an invoice and a dealer (code and name), as an administrator (every kind) and as
// a dealer user (its own dealer only). The rows are written set-based (generate_series) with the
// sales' trigram index dropped and built again after, as bench/lib/postgres.mjs does for dealers.
//   BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_SEARCH_DB (bench_search),
//   BENCH_SALES (1000000), BENCH_SEARCH_ROUNDS (40), BENCH_SEARCH_PORT (3241)
import pg from 'pg';
import { figure, percentile, round } from './lib/common.mjs';
import { adminToken, benchServer, databaseUrl, fillDealers, withoutGinIndexes } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_SEARCH_DB ?? 'bench_search';
const SALES = Number(process.env.BENCH_SALES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 40);
const PORT = Number(process.env.BENCH_SEARCH_PORT ?? 3241);
const DEALERS = 300;
const ADMIN_PASSWORD = 'bench-admin-1234';
const DEALER_PASSWORD = 'bench-dealer-1234';
const TARGET_MS = 100;

const FIRST = ['María', 'José', 'Juan', 'Rosa', 'Luis', 'Carmen', 'Jorge', 'Ana', 'Carlos', 'Lucía'];
const LAST = [
  'Quispe',
  'Flores',
  'Sánchez',
  'Rodríguez',
  'García',
  'Mamani',
  'Huamán',
  'Chávez',
  'Torres',
  'Ramos',
];

const server = await benchServer(ADMIN_URL, DB_NAME, PORT, ADMIN_PASSWORD);
const base = `http://127.0.0.1:${PORT}`;
const pool = new pg.Pool({ connectionString: databaseUrl(ADMIN_URL, DB_NAME), max: 2 });
try {
  await fillDealers(pool, { rows: DEALERS, prefix: 'BS', zones: 12 });
  await fillSales();
  const admin = await adminToken(base, ADMIN_PASSWORD);
  const dealer = await dealerToken(admin);
  const sample = (
    await pool.query(
      `SELECT s.vin, s.invoice, d.code, d.name FROM sales s JOIN dealers d ON d.id = s.dealer_id
        WHERE s.dealer_id = $1 ORDER BY s.id LIMIT 1 OFFSET 1234`,
      [dealer.dealerId],
    )
  ).rows[0];
  const rare =
    (await pool.query(`SELECT buyer_name FROM sales WHERE id = 777777`)).rows[0]?.buyer_name ?? 'Rosa';
  const cases = [
    ['VIN completo', sample.vin],
    ['VIN, últimos 8', sample.vin.slice(-8)],
    ['comprador común', 'quispe'],
    ['comprador, nombre completo', rare],
    ['factura', sample.invoice],
    ['concesionario por código', sample.code],
    ['concesionario por nombre', sample.name.slice(-6)],
  ];
  console.log(`Búsqueda global: ${SALES} ventas, ${DEALERS} concesionarios, ${ROUNDS} consultas por caso`);
  for (const [who, token] of [
    ['administrador', admin],
    ['usuario de concesionario', dealer.token],
  ]) {
    for (const [what, q] of cases) {
      const ms = await timeSearch(token, q);
      const p50 = round(percentile(ms, 50));
      const p95 = round(percentile(ms, 95));
      console.log(`  ${who}, ${what} (${q}): mediana ${p50} ms, p95 ${p95} ms`);
      figure(`búsqueda global, ${who}, ${what}: p95`, p95, 'ms', { op: '<', value: TARGET_MS });
    }
  }
} finally {
  await pool.end();
  await server.stop();
}

async function timeSearch(token, q) {
  const url = `${base}/api/search?q=${encodeURIComponent(q)}`;
  const headers = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 3; i++) await (await fetch(url, { headers })).json();
  const ms = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const body = await res.json();
    ms.push(performance.now() - t0);
    if (!body.success) throw new Error(`${q}: ${JSON.stringify(body.error)}`);
  }
  return ms.sort((a, b) => a - b);
}

/** Fills `sales` up to SALES rows over the dealers: names of the usual Peruvian surnames. */
async function fillSales() {
  const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM sales')).rows;
  if (n >= SALES) {
    console.log(`sales ya tiene ${n} filas`);
    return;
  }
  const t0 = performance.now();
  const list = (xs) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]`;
  await withoutGinIndexes(pool, 'sales', async () => {
    for (let from = n + 1; from <= SALES; from += 250_000) {
      const to = Math.min(SALES, from + 249_999);
      await pool.query(`INSERT INTO sales (dealer_id, sale_date, invoice, buyer_name, document_type,
          document_number, vin, manufacturer_id, model_name, year, payment_method)
        SELECT d.ids[1 + g % array_length(d.ids, 1)],
               date '2024-01-01' + (g % 700),
               'F' || lpad((1 + g % 999)::text, 3, '0') || '-' || lpad(g::text, 8, '0'),
               f.a[1 + g % 10] || ' ' || l.a[1 + (g / 10) % 10] || ' ' || l.a[1 + (g / 100) % 10]
                 || ' ' || upper(substr(md5('b' || g), 1, 4)),
               'DNI', lpad((10000000 + g % 89999999)::text, 8, '0'),
               'LS' || upper(substr(md5(g::text), 1, 15)),
               m.ids[1 + g % array_length(m.ids, 1)],
               'Modelo ' || (g % 50), 2024 + g % 2, 'E'
        FROM generate_series(${from}, ${to}) g,
             (SELECT array_agg(id ORDER BY id) ids FROM dealers) d,
             (SELECT array_agg(id ORDER BY id) ids FROM manufacturers) m,
             (SELECT ${list(FIRST)} a) f, (SELECT ${list(LAST)} a) l
        ON CONFLICT DO NOTHING`);
    }
  });
  await pool.query('ANALYZE sales');
  console.log(`sales llenada hasta ${SALES} filas en ${round((performance.now() - t0) / 1000)} s`);
}

/** A user of the Concesionario role bound to the first dealer (created once). */
async function dealerToken(admin) {
  const [{ id: dealerId }] = (await pool.query('SELECT id FROM dealers ORDER BY id LIMIT 1')).rows;
  const call = async (method, path, body, token = admin) => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const exists = (await pool.query(`SELECT 1 FROM users WHERE username = 'bench_busqueda'`)).rowCount;
  if (!exists) {
    const roles = await call('GET', '/roles?perPage=-1');
    const role = roles.result.find((r) => r.name === 'Concesionario');
    const made = await call('POST', '/users', {
      username: 'bench_busqueda',
      email: 'bench_busqueda@example.com',
      full_name: 'Bench Búsqueda',
      password: DEALER_PASSWORD,
      dealer_id: dealerId,
      roles: [role.id],
    });
    if (!made.success) throw new Error(`usuario: ${JSON.stringify(made.error)}`);
  }
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench_busqueda', password: DEALER_PASSWORD }),
  });
  return { dealerId, token: (await login.json()).result.access_token };
}
