// A real network's size (issue 28): the dashboard, the reports and the exports on PostgreSQL at
// ×1 (the demo network: 16 dealers, 2 years), ×10 (80 dealers, 4 years) and ×100 (320 dealers,
// 10 years), as the administrator (every dealer) and as a dealer user (lim01), median and p95,
// each beside the bare aggregate SQL of the same rows through `pg` (the physical limit) and the
// ratio of the two; and the list pages (sales, transactions) at page 1 and at offset 5,000 beside
// the bare page (SELECT * FROM t ORDER BY id LIMIT 10 OFFSET n). A call that reads summaries
// (the survey statistics: migration 0023; figures and fees, year to date: 0024) is also set
// beside the bare SQL over those summaries (its whole months; the current month raw), the limit
// of what it now reads.
//
// The network grows by a deterministic generator in set-based SQL (INSERT … SELECT over
// generate_series, no row by row): the demo network (DEMO=1, itself deterministic) is copied
// whole — each copy i = c·5 + k is the demo's dealers as dealer clone c (new codes LIM01-01…)
// moved back 2k years — so every shape of the demo (seasonality, late dealers, gaps, the survey
// answers, alerts, objectives, figures and fees, capacities, workshop, agreements and their
// history) repeats as is.
// ×10 = clones c < 5, k < 2; ×100 = c < 20, k < 5. Ids of the copies are the demo's plus
// i × a power of ten, so children find their copied parents without a lookup.
//
// `npm run bench:scale` (or `npm run bench -- scale`). Environment: BENCH_DATABASE_URL (admin
// database, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_SCALE_DB (bench_scale),
// BENCH_SCALE_FACTORS (1,10,100), BENCH_SCALE_RUNS (15 timed calls after 2 warm-up calls),
// BENCH_SCALE_ONLY (comma-separated words: only the calls whose name contains one),
// BENCH_SCALE_KEEP=1 (measure the network the last run left, e.g. with BENCH_SCALE_FACTORS=100).
import pg from 'pg';
import { figure, percentile, round, startServer } from './lib/common.mjs';
import { adminQuery, databaseUrl } from './lib/postgres.mjs';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_SCALE_DB ?? 'bench_scale';
const PORT = Number(process.env.BENCH_SCALE_PORT ?? 3238);
const ADMIN_PASSWORD = 'bench-admin-1234';
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 15);
const WARMUP = 2;
const FACTORS = (process.env.BENCH_SCALE_FACTORS ?? '1,10,100').split(',').map(Number);
const ONLY = (process.env.BENCH_SCALE_ONLY ?? '').split(',').filter(Boolean);
/** factor → dealer clones × year copies. */
const SHAPE = { 1: [1, 1], 10: [5, 2], 100: [20, 5] };
const YEAR_COPIES = 5;
const URL_DB = databaseUrl(ADMIN_URL, DB_NAME);

// ---------------------------------------------------------------------------------------------
// The generator.

/**
 * The tables copied, parents first, and how a copy's columns differ from the demo's row: `id`
 * and foreign keys move by the parent's offset; dates, timestamps and `year` move back 2k years
 * (every column of those types, by the generic rule below); unique texts get the copy's number.
 */
const TABLES = [
  ['dealers', { code: `d.code || '-' || lpad(x.c::text, 2, '0')`, name: `d.name || ' ' || x.c` }],
  ['dealer_branches', { dealer_id: 'DEALER', code: `left(d.code, 16) || '-' || x.c` }],
  ['sales', { dealer_id: 'DEALER', dealer_branch_id: 'ref:dealer_branches', vin: 'VIN' }],
  [
    'quiz_invitations',
    {
      sale_id: 'ref:sales',
      token_hash: `md5(d.token_hash || x.i) || substr(d.token_hash, 1, 32)`,
      mail_outbox_id: 'NULL',
    },
  ],
  ['quiz_responses', { invitation_id: 'ref:quiz_invitations', sale_id: 'ref:sales', dealer_id: 'DEALER' }],
  ['quiz_answers', { response_id: 'ref:quiz_responses' }],
  ['quiz_alerts', { response_id: 'ref:quiz_responses', sale_id: 'ref:sales', dealer_id: 'DEALER' }],
  ['dispatches', { dealer_id: 'DEALER', vin: 'VIN', sima_key: `d.sima_key || ':' || x.i` }],
  ['daily_sales', { dealer_id: 'DEALER' }],
  ['dispatch_objectives', { dealer_id: 'DEALER' }],
  ['figures', { dealer_id: 'DEALER' }],
  ['fees', { dealer_id: 'DEALER' }],
  ['figure_periods', { dealer_id: 'DEALER' }],
  ['capacities', { dealer_id: 'DEALER', dealer_branch_id: 'ref:dealer_branches' }],
  ['workshop_infos', { dealer_id: 'DEALER', dealer_branch_id: 'ref:dealer_branches' }],
  [
    'agreements',
    { dealer_id: 'DEALER', dealer_contact_id: 'CASE WHEN x.c = 0 THEN d.dealer_contact_id END' },
  ],
  ['agreement_events', { agreement_id: 'ref:agreements' }],
];
/** Copied once per dealer clone (k = 0), not per year. */
const PER_DEALER = new Set(['dealers', 'dealer_branches']);

async function base(pool) {
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_base (tbl text PRIMARY KEY, max_id int, step int)`);
  const { rows } = await pool.query('SELECT tbl, max_id, step FROM bench_base');
  if (rows.length) return new Map(rows.map((r) => [r.tbl, r]));
  for (const [t] of TABLES) {
    const [{ max }] = (await pool.query(`SELECT coalesce(max(id), 0) AS max FROM ${t}`)).rows;
    const step = 10 ** String(Number(max) + 1).length;
    await pool.query('INSERT INTO bench_base VALUES ($1, $2, $3)', [t, max, step]);
  }
  return base(pool);
}

async function columnsOf(pool, table) {
  const { rows } = await pool.query(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  return rows;
}

/** Grows the network to `factor` (copies it does not have yet); returns the seconds taken. */
async function grow(pool, factor) {
  const [clones, years] = SHAPE[factor];
  const t0 = performance.now();
  const b = await base(pool);
  const off = (t) => b.get(t).step;
  const dealerStep = off('dealers');
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_copies (i int PRIMARY KEY, c int, k int)`);
  await pool.query(`CREATE TABLE IF NOT EXISTS bench_copies_new (i int, c int, k int)`);
  await pool.query('DELETE FROM bench_copies_new');
  await pool.query(
    `INSERT INTO bench_copies_new SELECT c * ${YEAR_COPIES} + k, c, k
     FROM generate_series(0, ${clones - 1}) c, generate_series(0, ${years - 1}) k
     WHERE (c, k) <> (0, 0) AND c * ${YEAR_COPIES} + k NOT IN (SELECT i FROM bench_copies)`,
  );
  const [{ n }] = (await pool.query('SELECT count(*)::int AS n FROM bench_copies_new')).rows;
  if (n === 0) return 0;
  const gin = (
    await pool.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '% USING gin %'
       AND tablename = ANY($1)`,
      [TABLES.map(([t]) => t)],
    )
  ).rows;
  for (const i of gin) await pool.query(`DROP INDEX "${i.indexname}"`);
  for (const [table, special] of TABLES) {
    const cols = await columnsOf(pool, table);
    const perDealer = PER_DEALER.has(table);
    const expr = (col, type) => {
      // A per-dealer table's copies are numbered by dealer clone (c), the others by copy (i).
      const n = (t) => (PER_DEALER.has(t) ? 'x.c' : 'x.i');
      const s = col === 'id' ? `d.id + ${n(table)} * ${off(table)}` : special[col];
      if (s === 'DEALER') return `d.${col} + x.c * ${dealerStep}`;
      if (s === 'VIN') return `'Z' || lpad(x.i::text, 2, '0') || right(d.${col}, 14)`;
      if (s?.startsWith('ref:')) return `d.${col} + ${n(s.slice(4))} * ${off(s.slice(4))}`;
      if (s) return s;
      if (perDealer) return `d.${col}`;
      if (type === 'date' || type.startsWith('timestamp'))
        return `d.${col} - make_interval(years => 2 * x.k)`;
      if (col === 'year') return `d.${col} - 2 * x.k`;
      return `d.${col}`;
    };
    // Every copy keeps the ids of its parents' copy: a per-dealer table's copy i is c · 5.
    const copies = perDealer
      ? `(SELECT DISTINCT c * ${YEAR_COPIES} AS i, c, 0 AS k FROM bench_copies_new WHERE c > 0
           AND c NOT IN (SELECT c FROM bench_copies)) x`
      : 'bench_copies_new x';
    await pool.query(
      `INSERT INTO ${table} (${cols.map((c) => `"${c.column_name}"`).join(', ')})
       SELECT ${cols.map((c) => expr(c.column_name, c.data_type)).join(', ')}
       FROM ${table} d CROSS JOIN ${copies} WHERE d.id <= ${b.get(table).max_id}`,
    );
    await pool.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
    );
  }
  await pool.query('INSERT INTO bench_copies SELECT * FROM bench_copies_new');
  for (const i of gin) await pool.query(i.indexdef);
  await pool.query('VACUUM ANALYZE');
  return (performance.now() - t0) / 1000;
}

// ---------------------------------------------------------------------------------------------
// What is timed: the calls and, for each, the bare SQL of the same rows.

const today = new Date().toISOString().slice(0, 10);
const Y = Number(today.slice(0, 4));
const M = Number(today.slice(5, 7));
const FM = Math.max(1, M - 1);

/** The bare aggregate statements of a group; `d` is the dealer condition ('' for all). */
const BARE = {
  ventas: (d) => [
    `SELECT extract(month FROM sale_date) m, manufacturer_id, count(*) FROM sales
     WHERE sale_date >= '${Y - 1}-01-01' AND sale_date <= '${today}' ${d} GROUP BY 1, 2`,
    `SELECT extract(month FROM sale_date) m, sum(units) FROM daily_sales
     WHERE sale_date >= '${Y - 1}-01-01' AND sale_date <= '${today}' ${d} GROUP BY 1`,
  ],
  encuestas: (d) => [
    `SELECT s.dealer_id, extract(month FROM s.sale_date) m, count(DISTINCT s.id), count(DISTINCT i.id),
            count(DISTINCT r.id), count(a.rating), count(*) FILTER (WHERE a.rating = 4)
     FROM sales s LEFT JOIN quiz_invitations i ON i.sale_id = s.id LEFT JOIN quiz_responses r ON r.invitation_id = i.id
     LEFT JOIN quiz_answers a ON a.response_id = r.id
     WHERE s.sale_date >= '${Y - 1}-01-01' AND s.sale_date <= '${today}' ${d.replaceAll('dealer_id', 's.dealer_id')}
     GROUP BY 1, 2`,
  ],
  despachos: (d) => [
    `SELECT dealer_id, manufacturer_id, extract(month FROM dispatch_date) m, sum(units) FROM dispatches
     WHERE dispatch_date >= '${Y - 1}-01-01' AND dispatch_date <= '${today}' ${d} GROUP BY 1, 2, 3`,
    `SELECT dealer_id, manufacturer_id, month, sum(units) FROM dispatch_objectives
     WHERE year IN (${Y - 1}, ${Y}) ${d} GROUP BY 1, 2, 3`,
  ],
  cifras: (d) => [
    `SELECT concept_id, year, sum(value) FROM figures WHERE year IN (${Y - 2}, ${Y - 1}, ${Y}) AND month <= ${FM} ${d} GROUP BY 1, 2`,
    `SELECT concept_id, year, sum(value) FROM fees WHERE year IN (${Y - 2}, ${Y - 1}, ${Y}) AND month <= ${FM} ${d} GROUP BY 1, 2`,
  ],
  seguimiento: (d) => [
    `SELECT status, count(*) FROM agreements WHERE status <> 'cerrado' ${d} GROUP BY 1`,
    `SELECT count(*) FROM quiz_alerts WHERE closed_at IS NULL ${d}`,
  ],
  taller: (d) => [
    `SELECT w.year, w.month, sum(w.hours_worked), sum(w.hours_sold), sum(c.available_hours)
     FROM workshop_infos w LEFT JOIN capacities c ON c.dealer_id = w.dealer_id AND c.year = w.year AND c.month = w.month
     WHERE w.year IN (${Y - 1}, ${Y}) ${d.replaceAll('dealer_id', 'w.dealer_id')} GROUP BY 1, 2`,
  ],
};
/**
 * The same groups over the monthly summaries where there are some (issue 28: survey_sale_months,
 * survey_answer_months, kept by triggers; migration 0023): the bare limit of a summary reader.
 * The current month up to today is read raw, as the API does.
 */
const SUMMARY = {
  encuestas: (d) => [
    `SELECT dealer_id, extract(month FROM month) m, sum(sales), sum(invited), sum(answered)
     FROM survey_sale_months WHERE month >= '${Y - 1}-01-01' AND month < '${today.slice(0, 8)}01' ${d} GROUP BY 1, 2`,
    `SELECT dealer_id, extract(month FROM month) m, sum(rating_answers), sum(top) FILTER (WHERE kind = 'sales')
     FROM survey_answer_months WHERE month >= '${Y - 1}-01-01' AND month < '${today.slice(0, 8)}01' ${d} GROUP BY 1, 2`,
    ...BARE.encuestas(d).map((q) => q.replace(`'${Y - 1}-01-01'`, `'${today.slice(0, 8)}01'`)),
  ],
  // figure_ytd (migration 0024): a row per dealer and concept of each year, cut at the month.
  cifras: (d) => [
    `SELECT concept_id, year, sum(fig_sum), sum(fee_sum), sum(paired_fig_sum), count(*) FROM figure_ytd
     WHERE year IN (${Y - 2}, ${Y - 1}, ${Y}) AND month = ${FM} ${d} GROUP BY 1, 2`,
  ],
};
const bareOf =
  (...groups) =>
  (d) =>
    groups.flatMap((g) => BARE[g](d));
/** bareOf over the summaries where a group has some; null when none of the groups has. */
const summaryOf = (...groups) =>
  groups.some((g) => SUMMARY[g]) ? (d) => groups.flatMap((g) => (SUMMARY[g] ?? BARE[g])(d)) : null;

const CALLS = [
  [
    'dash-widgets (6 grupos)',
    `/api/dash-widgets?year=${Y}`,
    bareOf(...Object.keys(BARE)),
    summaryOf(...Object.keys(BARE)),
  ],
  ...Object.keys(BARE).map((g) => [
    `dashboard/summary ${g}`,
    `/api/dashboard/summary?schema=${g}&year=${Y}`,
    bareOf(g),
    summaryOf(g),
  ]),
  [
    'report-info (año)',
    `/api/reports/report-info?year=${Y}`,
    (d) => [
      `SELECT dealer_id, year, month, sum(hours_worked), sum(hours_sold), sum(labour_revenue), sum(parts_revenue)
       FROM workshop_infos WHERE year IN (${Y - 1}, ${Y}) ${d} GROUP BY 1, 2, 3`,
      `SELECT dealer_id, year, month, sum(available_hours) FROM capacities WHERE year IN (${Y - 1}, ${Y}) ${d} GROUP BY 1, 2, 3`,
    ],
  ],
  // What the report's screen asks (issue 28: the 2.4 MB answer summarised): a row per dealer for
  // the table, a row per month for the chart.
  ...['dealer', 'network'].map((v) => [
    `report-info (año, view=${v})`,
    `/api/reports/report-info?year=${Y}&view=${v}`,
    (d) => [
      `SELECT dealer_id, year, month, sum(hours_worked), sum(hours_sold), sum(labour_revenue), sum(parts_revenue)
       FROM workshop_infos WHERE year IN (${Y - 1}, ${Y}) ${d} GROUP BY 1, 2, 3`,
      `SELECT dealer_id, year, month, sum(available_hours) FROM capacities WHERE year IN (${Y - 1}, ${Y}) ${d} GROUP BY 1, 2, 3`,
    ],
  ]),
  [
    'resumen-comparativo',
    `/api/resumen-comparativo?year=${Y}&month=${FM}`,
    bareOf('cifras'),
    summaryOf('cifras'),
  ],
  ['objectives-summary', `/api/objectives-summary?year=${Y}`, (d) => BARE.despachos(d)],
  [
    'transaction-summary',
    `/api/transaction-summary?year=${Y}`,
    (d) => [
      `SELECT dealer_id, extract(month FROM dispatch_date) m, sum(units) FROM dispatches
       WHERE dispatch_date >= '${Y}-01-01' AND dispatch_date < '${Y + 1}-01-01' ${d} GROUP BY 1, 2`,
    ],
  ],
  ['table-stats (encuestas)', `/api/table-stats?year=${Y}`, bareOf('encuestas'), summaryOf('encuestas')],
  [
    'agreements-summary',
    `/api/agreements-summary`,
    (d) => [`SELECT dealer_id, status, count(*) FROM agreements WHERE true ${d} GROUP BY 1, 2`],
  ],
  ['export table-stats', `/api/table-stats/export?year=${Y}`, bareOf('encuestas'), summaryOf('encuestas')],
  ['export report-info', `/api/reports/report-info/export?year=${Y}`, bareOf('taller')],
  [
    'export resumen-comparativo',
    `/api/resumen-comparativo/export?year=${Y}&month=${FM}`,
    bareOf('cifras'),
    summaryOf('cifras'),
  ],
  [
    'export transaction report',
    `/api/transaction/report-export?year=${Y}`,
    (d) => [
      `SELECT dealer_id, extract(month FROM dispatch_date) m, sum(units) FROM dispatches
       WHERE dispatch_date >= '${Y}-01-01' AND dispatch_date < '${Y + 1}-01-01' ${d} GROUP BY 1, 2`,
    ],
  ],
  [
    'export daily-sales-report',
    `/api/daily-sales-report?year=${Y}&month=${M}`,
    (d) => [
      `SELECT dealer_id, manufacturer_model_id, sale_date, units FROM daily_sales
       WHERE sale_date >= '${Y}-${String(M).padStart(2, '0')}-01' AND sale_date <= '${today}' ${d}`,
    ],
  ],
  [
    'export figures',
    `/api/figures/export?year=${Y}&month=${FM}`,
    (d) => [`SELECT * FROM figures WHERE year = ${Y} AND month = ${FM} ${d}`],
  ],
  ['export fees', `/api/fees/export?year=${Y}`, (d) => [`SELECT * FROM fees WHERE year = ${Y} ${d}`]],
  [
    'export capacities',
    `/api/capacities/export?year=${Y}&month=${FM}`,
    (d) => [`SELECT * FROM capacities WHERE year = ${Y} AND month = ${FM} ${d}`],
  ],
].filter(([name]) => ONLY.length === 0 || ONLY.some((w) => name.includes(w)));

const LISTS = [
  ['sales', '/api/sales'],
  ['dispatches', '/api/transactions'],
];

// ---------------------------------------------------------------------------------------------

async function timeIt(fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: round(percentile(ms, 50)), p95: round(percentile(ms, 95)) };
}

const fmt = (t) => `${t.median} / ${t.p95}`;
const ratio = (a, b) => (b > 0 ? `${round(a / b)}×` : '');

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function measure(factor, pool) {
  const base = `http://127.0.0.1:${PORT}`;
  const login = async (username, password) => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = await res.json();
    if (!body.success) throw new Error(`Login ${username}: ${JSON.stringify(body.error)}`);
    return body.result.access_token;
  };
  const users = [
    ['administrador', await login('admin', ADMIN_PASSWORD), ''],
    ['concesionario lim01', await login('lim01', 'Demo-2026'), null],
  ];
  const [{ id: dealerId }] = (await pool.query(`SELECT id FROM dealers WHERE code = 'LIM01'`)).rows;
  users[1][2] = `AND dealer_id = ${dealerId}`;
  const sizes = (
    await pool.query(`SELECT (SELECT count(*) FROM dealers)::int dealers, (SELECT count(*) FROM sales)::int sales,
      (SELECT count(*) FROM quiz_answers)::int answers, (SELECT count(*) FROM dispatches)::int dispatches,
      (SELECT count(*) FROM figures)::int figures, (SELECT min(sale_date) FROM sales)::text first`)
  ).rows[0];
  console.log(
    `\n### ×${factor}: ${sizes.dealers} concesionarios, ventas desde ${sizes.first}; ${sizes.sales} ventas, ` +
      `${sizes.answers} respuestas, ${sizes.dispatches} despachos, ${sizes.figures} cifras\n`,
  );
  const rows = [];
  for (const [name, url, bare, summary] of CALLS) {
    for (const [who, token, d] of users) {
      let bytes = 0;
      const call = async () => {
        const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
        const buf = await res.arrayBuffer();
        if (res.status !== 200)
          throw new Error(`GET ${url} (${who}): ${res.status} ${Buffer.from(buf).toString()}`);
        bytes = buf.byteLength;
      };
      // A call the user may not make (a dealer user's export of the network) is said, not timed.
      const first = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      await first.arrayBuffer();
      if (first.status === 403) {
        rows.push([name, who, 'sin permiso (403)', '', '', '', '', '']);
        continue;
      }
      const api = await timeIt(call);
      const statements = bare(d);
      const sql = await timeIt(async () => {
        for (const s of statements) await pool.query(s);
      });
      // The bare SQL over the summaries (issue 28), where the call reads some.
      const sum = summary
        ? await timeIt(async () => {
            for (const s of summary(d)) await pool.query(s);
          })
        : null;
      rows.push([
        name,
        who,
        fmt(api),
        fmt(sql),
        ratio(api.p95, sql.p95),
        sum ? fmt(sum) : '',
        sum ? ratio(api.p95, sum.p95) : '',
        `${round(bytes / 1024)} KB`,
      ]);
      const limit = who === 'administrador' ? 300 : 100;
      figure(`×${factor} ${name}, ${who}: p95`, api.p95, 'ms', { op: '<=', value: limit });
    }
  }
  table(
    [
      'llamado',
      'usuario',
      'API ms (mediana / p95)',
      'SQL pelado ms',
      'p95 API ÷ SQL',
      'SQL sobre resúmenes ms',
      'p95 API ÷ resúmenes',
      'respuesta',
    ],
    rows,
  );

  const listRows = [];
  for (const [table, path] of LISTS) {
    for (const offset of [0, 5000]) {
      const page = `page=${offset / 10 + 1}&perPage=10`;
      const api = await timeIt(async () => {
        const res = await fetch(`${base}${path}?${page}`, {
          headers: { authorization: `Bearer ${users[0][1]}` },
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
      });
      const sql = await timeIt(() =>
        pool.query(`SELECT * FROM ${table} ORDER BY id LIMIT 10 OFFSET ${offset}`),
      );
      listRows.push([`${path} offset ${offset}`, fmt(api), fmt(sql), ratio(api.p95, sql.p95)]);
    }
  }
  console.log('');
  table(
    ['lista (administrador)', 'API ms (mediana / p95)', 'página pelada ms', 'p95 API ÷ página'],
    listRows,
  );
}

async function main() {
  // BENCH_SCALE_KEEP=1: measure the network left by the last run (grown to the factors asked,
  // its migrations brought up to date by the server), without building it again.
  const keep = process.env.BENCH_SCALE_KEEP === '1';
  if (!keep) {
    await adminQuery(ADMIN_URL, `DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await adminQuery(ADMIN_URL, `CREATE DATABASE ${DB_NAME}`);
  }
  const pool = new pg.Pool({ connectionString: URL_DB, max: 2 });
  const env = {
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATABASE_URL: URL_DB,
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    DEMO: keep ? '' : '1',
    JWT_SECRET: '',
  };
  let server = startServer(env, { timeoutMs: 300_000 });
  try {
    await server.ready;
    for (const factor of FACTORS) {
      if (factor !== 1) {
        await server.stop();
        const s = await grow(pool, factor);
        console.log(`\nRed ×${factor} generada en ${round(s)} s`);
        server = startServer({ ...env, DEMO: '' }, { timeoutMs: 300_000 });
        await server.ready;
      }
      await measure(factor, pool);
    }
  } finally {
    await server.stop();
    await pool.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
