// PostgreSQL helpers of the bench scripts that need a big table: the bench database's URL, calls
// on the server's admin database (create, drop) and the synthetic dealers that fill it.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { round, startServer } from './common.mjs';

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl, name) {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** One statement on the admin database (CREATE / DROP DATABASE cannot run in the bench one). */
export async function adminQuery(adminUrl, text) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Fills `dealers` up to `rows` rows (a migrated, seeded database): codes `<prefix>0000001`...,
 * spread over `zones` zones and every district; one row in ten inactive. With `formulaEvery`, the
 * name of every such row looks like a spreadsheet formula (the export must neutralise it).
 */
export async function fillDealers(pool, { rows, prefix, zones, formulaEvery }) {
  const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM dealers')).rows;
  if (n >= rows) {
    console.log(`dealers ya tiene ${n} filas`);
    return;
  }
  const t0 = performance.now();
  await withoutGinIndexes(pool, 'dealers', () =>
    insertDealers(pool, { n, rows, prefix, zones, formulaEvery }),
  );
  await pool.query('ANALYZE');
  console.log(`dealers llenada hasta ${rows} filas en ${round((performance.now() - t0) / 1000)} s`);
}

async function insertDealers(pool, { n, rows, prefix, zones, formulaEvery }) {
  const plainName = `'Concesionario ' || upper(substr(md5(g::text), 1, 10))`;
  const name = formulaEvery
    ? `CASE WHEN g % ${formulaEvery} = 0 THEN '=HYPERLINK("http://x")' ELSE ${plainName} END`
    : plainName;
  await pool.query(`INSERT INTO zones (code, name)
    SELECT 'Z' || g, 'Zona ' || g FROM generate_series(1, ${zones}) g ON CONFLICT DO NOTHING`);
  await pool.query(`INSERT INTO dealers (code, name, ruc, zone_id, department_id, province_id, district_id,
      email, address_address1, address_phone, active)
    SELECT '${prefix}' || lpad(g::text, 7, '0'),
           ${name},
           (20100000000 + g)::text,
           z.ids[1 + g % array_length(z.ids, 1)],
           u.deps[1 + g % array_length(u.dids, 1)],
           u.pids[1 + g % array_length(u.dids, 1)],
           u.dids[1 + g % array_length(u.dids, 1)],
           'c' || g || '@example.com', 'Av. Principal ' || (g % 999), '01' || lpad((g % 9999999)::text, 7, '0'),
           g % 10 <> 0
    FROM generate_series(${n + 1}, ${rows}) g,
         (SELECT array_agg(id ORDER BY id) ids FROM zones) z,
         (SELECT array_agg(d.id ORDER BY d.id) dids, array_agg(p.id ORDER BY d.id) pids,
                 array_agg(p.department_id ORDER BY d.id) deps
            FROM districts d JOIN provinces p ON p.id = d.province_id) u
    ON CONFLICT DO NOTHING`);
}

/**
 * Runs a bulk insert into `table` without its GIN (pg_trgm) indexes, then creates them again
 * from their own definitions: building one at the end takes seconds, keeping it up to date row
 * by row takes minutes.
 */
export async function withoutGinIndexes(pool, table, fill) {
  const { rows: indexes } = await pool.query(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 AND indexdef LIKE '% USING gin %'`,
    [table],
  );
  for (const i of indexes) await pool.query(`DROP INDEX "${i.indexname}"`);
  try {
    await fill();
  } finally {
    for (const i of indexes) await pool.query(i.indexdef);
  }
}

/**
 * Fills `dealer_contacts` up to `rows` rows over the first `dealers` dealers (by id): every
 * `every`-th row belongs to the first of them (the bench dealer user's dealer: rows / every
 * contacts), the rest spread evenly over the others. Answers the first dealer's id.
 */
export async function fillContacts(pool, { rows, dealers, every }) {
  const [{ ids }] = (
    await pool.query(
      `SELECT array_agg(id ORDER BY id) AS ids FROM (SELECT id FROM dealers ORDER BY id LIMIT $1) s`,
      [dealers],
    )
  ).rows;
  if (!ids || ids.length < 2) throw new Error('fillContacts: faltan concesionarios');
  const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM dealer_contacts')).rows;
  if (n >= rows) {
    console.log(`dealer_contacts ya tiene ${n} filas`);
    return ids[0];
  }
  const t0 = performance.now();
  const insert = () =>
    pool.query(
      `INSERT INTO dealer_contacts (dealer_id, name, email, position, phone, receives_alerts, active)
    SELECT CASE WHEN g % ${every} = 0 THEN d.ids[1] ELSE d.ids[2 + g % (array_length(d.ids, 1) - 1)] END,
           'Contacto ' || upper(substr(md5(g::text), 1, 10)),
           'contacto' || g || '@example.com', 'Cargo ' || (g % 20), '9' || lpad((g % 99999999)::text, 8, '0'),
           g % 3 <> 0, g % 10 <> 0
    FROM generate_series(${n + 1}, ${rows}) g, (SELECT $1::int[] AS ids) d`,
      [ids],
    );
  await withoutGinIndexes(pool, 'dealer_contacts', insert);
  await pool.query('ANALYZE dealer_contacts');
  console.log(`dealer_contacts llenada hasta ${rows} filas en ${round((performance.now() - t0) / 1000)} s`);
  return ids[0];
}

/** Kilobytes of a /proc/<pid>/status field (VmRSS, VmHWM), or NaN when the process is gone. */
export function procKb(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The built server on its own bench database `name` (created when missing; dropped and created
 * again when it does not start, e.g. left by an older migration set), signed in as admin.
 * Answers the server (`stop()`), its base URL and an admin token.
 */
export async function benchServer(adminUrl, name, port, adminPassword) {
  const exists = await adminQuery(adminUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
  if (exists.rowCount === 0) await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  console.log(`Servidor (dist/main.js) en 127.0.0.1:${port} sobre PostgreSQL ${name}`);
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(adminUrl, name),
    ADMIN_PASSWORD: adminPassword,
    JWT_SECRET: '',
  };
  let server = startServer(env);
  try {
    await server.ready;
  } catch (err) {
    console.log(`La base ${name} no sirvio (${err.message.split('\n')[0]}); se vuelve a crear.`);
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
    server = startServer(env);
    await server.ready;
  }
  return server;
}

/** An administrator's token on the server at `base`. */
export async function adminToken(base, password) {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const body = await login.json();
  if (!body.success) throw new Error(`Login fallo: ${JSON.stringify(body)}`);
  return body.result.access_token;
}
