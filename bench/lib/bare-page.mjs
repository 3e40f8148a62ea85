// The bare page the list bench compares the server with: node:http and a pg pool, no framework,
// no authentication, no envelope: `SELECT * FROM <table> [WHERE dealer_id = $1] ORDER BY id
// LIMIT 10 OFFSET $n`, answered as JSON. GET /dealers?offset=n, /dealer_contacts?dealer=d&offset=n.
// Environment: BARE_DATABASE_URL, BARE_POOL (pool size), BARE_PORT. Prints READY_LINE when listening.
import http from 'node:http';
import pg from 'pg';
import { READY_LINE } from './common.mjs';

const pool = new pg.Pool({
  connectionString: process.env.BARE_DATABASE_URL,
  max: Number(process.env.BARE_POOL ?? 20),
});
const TABLES = new Set(['dealers', 'dealer_contacts']);

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const table = url.pathname.slice(1);
  if (!TABLES.has(table)) {
    res.writeHead(404).end();
    return;
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const dealer = url.searchParams.get('dealer');
  try {
    const { rows } = dealer
      ? await pool.query(`SELECT * FROM ${table} WHERE dealer_id = $1 ORDER BY id LIMIT 10 OFFSET $2`, [
          Number(dealer),
          offset,
        ])
      : await pool.query(`SELECT * FROM ${table} ORDER BY id LIMIT 10 OFFSET $1`, [offset]);
    const body = JSON.stringify({ data: rows });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch (err) {
    res.writeHead(500).end(String(err?.message ?? err));
  }
});

const port = Number(process.env.BARE_PORT ?? 3233);
server.listen(port, '127.0.0.1', () => console.log(`${READY_LINE}: pagina minima en 127.0.0.1:${port}`));
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
