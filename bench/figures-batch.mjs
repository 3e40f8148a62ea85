// PUT /api/figure-batch of a whole year for the network, 12 months × 40 concepts × 50 dealers
// (24,000 cells), against the built server (what `npm start` runs) on PostgreSQL: body checked,
// dealers and concepts checked in the caller's scope, the 600 periods locked and checked
// (enabled), the cells written, the audit row, one transaction. Timed twice: the first save (all
// new) and a second one changing every value. Target: ≤ 2 s each. Also the same grid as fees.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { figure, round, startServer } from './lib/common.mjs';
import { adminQuery, databaseUrl } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_FIGURES_DB ?? 'bench_figures';
const PORT = Number(process.env.BENCH_FIGURES_PORT ?? 3234);
const DEALERS = 50;
const CONCEPTS = 40;
const MONTHS = 12;
const YEAR = new Date().getFullYear() - 1;
const ADMIN_PASSWORD = 'bench-admin-1234';
const admin = (text) => adminQuery(ADMIN_URL, text);

async function main() {
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const dbUrl = databaseUrl(ADMIN_URL, DB_NAME);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-figures-'));
  const server = startServer({
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    DATA_DIR: dir,
  });
  try {
    await server.ready;
    const base = `http://127.0.0.1:${PORT}`;
    const call = async (method, url, body) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api${url}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json();
      const ms = performance.now() - t0;
      if (res.status !== 200)
        throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json.error)}`);
      return { ms, result: json.result };
    };
    const login = await (
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
      })
    ).json();
    const auth = { authorization: `Bearer ${login.result.access_token}` };

    const db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    const dealers = (
      await db.query(`INSERT INTO dealers (code, name)
        SELECT 'BF' || lpad(g::text, 3, '0'), 'Concesionario bench ' || g FROM generate_series(1, ${DEALERS}) g
        RETURNING id`)
    ).rows.map((r) => r.id);
    const concepts = (
      await db.query(`INSERT INTO concepts (code, name, unit, "group", "order")
        SELECT 'BENCH' || g, 'Concepto bench ' || g, 'UND', 'Bench', 1000 + g FROM generate_series(1, ${CONCEPTS}) g
        RETURNING id`)
    ).rows.map((r) => r.id);
    for (let m = 1; m <= MONTHS; m++)
      await call('POST', '/figures/enable', { year: YEAR, month: m, all: true });

    const grid = (shift) => {
      const values = [];
      for (const dealer_id of dealers)
        for (const concept_id of concepts)
          for (let month = 1; month <= MONTHS; month++)
            values.push({
              dealer_id,
              concept_id,
              month,
              value: ((dealer_id * 7 + concept_id * 3 + month) % 997) + shift,
            });
      return { year: YEAR, values };
    };
    const cells = DEALERS * CONCEPTS * MONTHS;
    const first = await call('PUT', '/figure-batch', grid(0.5));
    const second = await call('PUT', '/figure-batch', grid(1.25));
    const fees = await call('PUT', '/fees-batch', grid(2));
    const [{ n }] = (
      await db.query(`select count(*)::int as n from figures where concept_id = any($1)`, [concepts])
    ).rows;
    const [{ f }] = (
      await db.query(`select count(*)::int as f from fees where concept_id = any($1)`, [concepts])
    ).rows;
    await db.end();
    console.log(
      `figure-batch ${cells} celdas: nuevas ${round(first.ms)} ms (${first.result.written} escritas), ` +
        `cambiadas ${round(second.ms)} ms (${second.result.written}); fees-batch ${round(fees.ms)} ms; ` +
        `en la base ${n} cifras, ${f} cuotas`,
    );
    if (n !== cells || f !== cells) throw new Error('no se guardaron todas las celdas');
    const target = { op: '<=', value: 2 };
    figure(
      `figure-batch ${MONTHS} meses × ${CONCEPTS} conceptos × ${DEALERS} concesionarios, nuevas (PostgreSQL)`,
      round(first.ms / 1000, 2),
      's',
      target,
    );
    figure(
      `figure-batch ${cells} celdas, todas cambiadas (PostgreSQL)`,
      round(second.ms / 1000, 2),
      's',
      target,
    );
    figure(`fees-batch ${cells} celdas (PostgreSQL)`, round(fees.ms / 1000, 2), 's', target);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch(() => {});
  }
}

await main();
