// Error paths read back from the log, as an operator reads it: a database that is lost in the
// middle of a 1,500-row batch (every row a buyer's VIN, e-mail, DNI), a database that refuses
// connections (SQLSTATE 55000, ALLOW_CONNECTIONS false), a failing query with e-mails and token
// hashes as parameters, and (PostgreSQL) a start on a database that refuses connections. Each
// answers 503 with Retry-After, logs one short line with the database's own message and code,
// and no log line holds a VIN, an e-mail, a DNI or a token hash.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorLine, redactErrorSerializer } from '../src/lib/log-redact';
import { api, createTestApp, login, type TestContext } from './harness';
import { serverArgs, serverBuild } from './process/entry';
import { createDatabase, pgUrl } from './process/servers';
import { createDealer, saleObject, vinFactory } from './sales-fixtures';
import { ADMIN_PASSWORD } from './template';

const UNAVAILABLE =
  'El servicio no está disponible en este momento (sin conexión con la base de datos). Intente nuevamente en unos segundos.';

/** What must never be in a log line: e-mails, VINs, DNIs and token hashes (the shapes). */
function personalData(text: string, values: string[]): string[] {
  return values.filter((v) => text.includes(v));
}

const lines: string[] = [];
let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({}, { logger: true, logStream: { write: (l) => lines.push(l) } });
  admin = await login(t.app);
});
afterAll(() => t?.close());

/** A trigger that fails every insert into `table` with the given SQLSTATE and message. */
async function failInserts(table: string, code: string, message: string) {
  await t.handle.query(`create or replace function falla_${table}() returns trigger language plpgsql as $$
    begin raise exception using errcode = '${code}', message = '${message.replace(/'/g, "''")}'; end $$`);
  await t.handle.query(
    `create trigger falla_${table} before insert on ${table} for each statement execute function falla_${table}()`,
  );
}
const healInserts = (table: string) => t.handle.query(`drop trigger falla_${table} on ${table}`);

it('the connection lost in the middle of a 1,500-row batch: 503, one short line, no VIN, e-mail or DNI', async () => {
  await createDealer(t.app, admin, 'LOGF1');
  const vin = vinFactory();
  const rows = Array.from({ length: 1500 }, (_, i) =>
    saleObject('LOGF1', vin(), {
      email: `comprador${i}.lote@example.com`,
      document_number: String(40_000_000 + i),
      address: `Av. Los Olivos ${100 + i}, Lima`,
    }),
  );
  await failInserts('sales', '57P01', 'terminating connection due to administrator command');
  lines.length = 0;
  const res = await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows } });
  await healInserts('sales');
  expect(res.status).toBe(503);
  expect(res.body.error.message).toBe(UNAVAILABLE);
  expect(res.headers['retry-after']).toBe('5');
  const warned = lines.filter((l) => l.includes(UNAVAILABLE));
  expect(warned).toHaveLength(1);
  console.log(`LOGS 503 de un lote de 1.500 filas: una linea de ${warned[0].length} caracteres`);
  expect(warned[0].length).toBeLessThan(2000);
  const logged = JSON.parse(warned[0]);
  expect(logged.causa).toMatchObject({
    code: '57P01',
    message: 'terminating connection due to administrator command',
  });
  expect(warned[0]).not.toContain('"stack"');
  const log = lines.join('');
  const leaked = personalData(log, [
    ...rows.slice(0, 50).map((r) => r.vin),
    ...rows.slice(0, 50).map((r) => r.email),
    ...rows.slice(0, 50).map((r) => r.document_number),
    'Av. Los Olivos',
    'Maria Quispe',
  ]);
  expect(leaked).toEqual([]);
});

it('a database that refuses connections (55000): 503 with Retry-After like a lost one, no stack', async () => {
  await failInserts('dealers', '55000', 'database "red" is not currently accepting connections');
  lines.length = 0;
  const answers = [];
  for (let i = 0; i < 5; i++)
    answers.push(
      await api(t.app, 'POST', '/api/dealers', { token: admin, body: { code: `LOGN${i}`, name: 'Nuevo' } }),
    );
  await healInserts('dealers');
  expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
  expect(answers.map((a) => a.headers['retry-after'])).toEqual(['5', '5', '5', '5', '5']);
  expect(answers[0].body.error.message).toBe(UNAVAILABLE);
  const log = lines.join('');
  expect(log).not.toContain('error no controlado');
  expect(log).not.toContain('"stack"');
  expect(lines.filter((l) => l.includes('55000'))).toHaveLength(5);
  expect(lines.find((l) => l.includes('55000'))).toContain('is not currently accepting connections');
});

it('a failing query with e-mails and token hashes: the database message and code kept, no values, short', async () => {
  const emails = Array.from({ length: 2000 }, (_, i) => `persona${i}@correo.pe`);
  const hashes = emails.map((e) => createHash('sha256').update(e).digest('hex'));
  const values = emails.map((e, i) => sql`(${e}, ${hashes[i]})`);
  let err: unknown;
  try {
    await t.handle.db.execute(
      sql`insert into tabla_que_no_existe (email, token_hash) values ${sql.join(values, sql`, `)}`,
    );
  } catch (e) {
    err = e;
  }
  const line = errorLine(err);
  expect(line).toContain('relation "tabla_que_no_existe" does not exist');
  expect(line).toContain('código 42P01');
  expect(line).toContain('insert into tabla_que_no_existe (email, token_hash) values');
  console.log(
    `LOGS consulta fallida con 2.000 correos: ${line.length} caracteres (serializada ${JSON.stringify(redactErrorSerializer(err as Error)).length})`,
  );
  expect(line.length).toBeLessThan(500);
  const full = JSON.stringify(redactErrorSerializer(err as Error));
  expect(full).toContain('does not exist');
  expect(full.length).toBeLessThan(8000);
  for (const text of [line, full])
    expect(personalData(text, [...emails.slice(0, 20), ...hashes.slice(0, 20)])).toEqual([]);
});

describe.skipIf(!pgUrl())('PostgreSQL that refuses connections (ALLOW_CONNECTIONS false)', () => {
  const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

  it('a start on it fails with one line naming the database error and its code, DEBUG=1 too', async () => {
    await serverBuild();
    const db = await createDatabase('refuses');
    await db.client.end();
    const admin = new pg.Client({ connectionString: pgUrl() });
    await admin.connect();
    try {
      await admin.query(`alter database ${db.name} allow_connections false`);
      for (const debug of [{}, { DEBUG: '1' }]) {
        const res = spawnSync(process.execPath, serverArgs(), {
          cwd: apiDir,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATABASE_URL: db.url,
            ADMIN_PASSWORD,
            PORT: '0',
            ...debug,
          },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(res.status).toBe(1);
        expect(res.stderr).toContain(
          `No se pudo iniciar la aplicación: database "${db.name}" is not currently accepting connections (código 55000)`,
        );
        expect(res.stderr.length).toBeLessThan(debug.DEBUG ? 10_000 : 500);
      }
    } finally {
      await admin.query(`alter database ${db.name} allow_connections true`);
      await admin.end();
      await db.drop();
    }
  }, 300_000);
});

describe.skipIf(!pgUrl())('PostgreSQL: the database stops accepting connections under a running app', () => {
  it('answers 503 with Retry-After (55000 on reconnect), one warning per request, and works again once allowed', async () => {
    const [{ name }] = await t.handle.query<{ name: string }>('select current_database() as name');
    const superuser = new pg.Client({ connectionString: pgUrl() });
    await superuser.connect();
    lines.length = 0;
    const statuses: number[] = [];
    try {
      await superuser.query(`alter database ${name} allow_connections false`);
      // Every open connection of the app is ended: the next ones are refused (55000).
      await superuser.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
        name,
      ]);
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < 6; i++) {
        const res = await api(t.app, 'GET', '/api/dealers?perPage=5', { token: admin });
        statuses.push(res.status);
        if (res.status === 503) expect(res.headers['retry-after']).toBe('5');
      }
    } finally {
      await superuser.query(`alter database ${name} allow_connections true`);
      await superuser.end();
    }
    expect(statuses.filter((s) => s !== 503)).toEqual([]);
    const log = lines.join('');
    expect(log).toContain('55000');
    expect(log).not.toContain('error no controlado');
    expect(log).not.toContain('"stack"');
    const back = await api(t.app, 'GET', '/api/dealers?perPage=5', { token: admin });
    expect(back.status).toBe(200);
  }, 60_000);
});
