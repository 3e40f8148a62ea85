// PostgreSQL helpers of the bench scripts that need a big table: the bench database's URL, calls
// on the server's admin database (create, drop) and the synthetic dealers that fill it.
import pg from 'pg';
import { round } from './common.mjs';

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
  await pool.query('ANALYZE');
  console.log(`dealers llenada hasta ${rows} filas en ${round((performance.now() - t0) / 1000)} s`);
}
