// `npm run backup` / `npm run restore` as an operator runs them (the CLI, --backup/--restore),
// on PGlite (the data folder) and, with TEST_DATABASE_URL, on PostgreSQL (pg_dump/pg_restore):
// a backup, then changes (rows added, changed and deleted, files changed, added and removed),
// then the restore gives back every table row for row, the sequences and every stored file.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { JOB_CONNECTION_NAME } from '../src/core/jobs';
import { type DatabaseHandle, openDatabase } from '../src/db/client';
import * as tables from '../src/modules/tables';
import { storedFileHashes } from '../src/ops/backup';
import { seededPgliteFolder, serverArgs, serverBuild } from './process/entry';
import {
  call,
  createDatabase,
  pgUrl,
  RELIABILITY_PORTS,
  startServer,
  stopServer,
  type TestDatabase,
  waitFor,
} from './process/servers';
import { ADMIN_PASSWORD, ADMIN_USERNAME } from './template';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Budgets (600 s): a test here runs the CLI several times; each run starts a process (this run's
// bundle, process/entry.ts), opens the database and copies it, and every step waits for that process to end (no fixed
// sleep). On an idle machine a round trip takes ~15 s; on a 2-core machine shared with other
// suites (load ~20) the same work took over 120 s, so the budget is generous, not an estimate.
const work = mkdtempSync(path.join(tmpdir(), 'rel-backup-'));
beforeAll(() => serverBuild(), 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TABLES = (Object.values(tables) as unknown[])
  .filter((t): t is PgTable => is(t, PgTable))
  .map((t) => getTableName(t))
  .sort();

/** Every table (count and a hash of its rows in order), the migrations and the sequences. */
async function snapshot(handle: DatabaseHandle): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of [...TABLES.map((t) => `"${t}"`), 'drizzle.__drizzle_migrations']) {
    const [r] = await handle.query<{ n: number; h: string }>(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as h from ${name} t`,
    );
    out[name] = `${r.n} filas ${r.h}`;
  }
  for (const s of await handle.query<{ name: string; v: string | null }>(
    "select sequencename as name, last_value::text as v from pg_sequences where schemaname = 'public'",
  ))
    out[`seq ${s.name}`] = String(s.v);
  return out;
}

/** The CLI, as `npm run backup` / `npm run restore` call it. */
function cli(args: string[], env: Record<string, string>) {
  const res = spawnSync(process.execPath, serverArgs(...args), {
    cwd: apiDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

/** Stored files as the documents module keeps them (DATA_DIR/files/<key>). */
function writeFiles(dataDir: string) {
  mkdirSync(path.join(dataDir, 'files', 'ab'), { recursive: true });
  writeFileSync(path.join(dataDir, 'files', 'ab', 'contrato.pdf'), Buffer.from('%PDF-1.4 contrato firmado'));
  writeFileSync(path.join(dataDir, 'files', 'ab', 'foto.png'), Buffer.alloc(50_000, 7));
  writeFileSync(path.join(dataDir, 'files', 'lista.xlsx'), Buffer.from('PK\x03\x04 hoja'));
}

/** What a day of work changes after the backup: rows added, changed, deleted; files too. */
async function changeEverything(handle: DatabaseHandle, dataDir: string) {
  await handle.query("insert into zones (name) values ('Zona nueva tras el respaldo')");
  await handle.query("update dealers set name = name || ' (cambiado)'");
  await handle.query('delete from dealer_contacts');
  await handle.query("update configurations set value = 'otro' where key = 'COMPANY_NAME'");
  writeFileSync(path.join(dataDir, 'files', 'ab', 'contrato.pdf'), Buffer.from('%PDF-1.4 otro'));
  unlinkSync(path.join(dataDir, 'files', 'ab', 'foto.png'));
  writeFileSync(path.join(dataDir, 'files', 'nuevo.txt'), 'nuevo');
}

/** Some rows in the tables a backup must carry (dealers, contacts, sales, audit...). */
async function addRows(handle: DatabaseHandle) {
  await handle.query(
    "insert into dealers (code, name) values ('BK1', 'Respaldo Uno'), ('BK2', 'Respaldo Dos')",
  );
  await handle.query(
    "insert into dealer_contacts (dealer_id, name, email) select id, 'Contacto ' || code, lower(code) || '@example.com' from dealers where code like 'BK%'",
  );
}

describe('PGlite: the data folder and the stored files', () => {
  const dataDir = path.join(work, 'pglite-data');

  beforeAll(async () => {
    // The suite's seeded PGlite folder (on PostgreSQL, one made once for the run: entry.ts).
    cpSync(await seededPgliteFolder(), dataDir, { recursive: true });
  }, 600_000);

  it('round trip: backup, changes, restore gives back every table and every file', async () => {
    writeFiles(dataDir);
    let handle = await openDatabase({ dataDir });
    await addRows(handle);
    const before = await snapshot(handle);
    await handle.close();
    const filesBefore = storedFileHashes(dataDir);
    expect(Object.keys(filesBefore).sort()).toEqual([
      'files/ab/contrato.pdf',
      'files/ab/foto.png',
      'files/lista.xlsx',
    ]);

    const folder = path.join(work, 'respaldo-pglite');
    const made = cli(['--backup', folder], { DATA_DIR: dataDir });
    expect(made.out).toContain(`Respaldo listo en ${folder}: base PGlite, 3 archivos`);
    expect(made.code).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ kind: 'pglite', files: 3 });
    expect(manifest.migrations.length).toBeGreaterThanOrEqual(4);

    handle = await openDatabase({ dataDir });
    await changeEverything(handle, dataDir);
    expect(await snapshot(handle)).not.toEqual(before);
    await handle.close();

    const restored = cli(['--restore', folder], { DATA_DIR: dataDir });
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(/Lo que había antes quedó respaldado en .*antes-de-restaurar-/);
    handle = await openDatabase({ dataDir });
    const after = await snapshot(handle);
    await handle.close();
    expect(after).toEqual(before);
    expect(storedFileHashes(dataDir)).toEqual(filesBefore);
  }, 600_000);

  it('refuses to back up or restore a PGlite folder while a server uses it', async () => {
    const server = await startServer(RELIABILITY_PORTS.backup.server, { DATA_DIR: dataDir });
    try {
      const res = cli(['--backup', path.join(work, 'no-debe-existir')], { DATA_DIR: dataDir });
      expect(res.code).toBe(2);
      expect(res.out).toContain(
        `El servidor (proceso ${server.child.pid}) está usando ${dataDir}: deténgalo antes de respaldar una base PGlite.`,
      );
      expect(existsSync(path.join(work, 'no-debe-existir'))).toBe(false);
    } finally {
      await stopServer(server);
    }
    // Stopped cleanly: the pid file is gone and the backup goes through.
    expect(existsSync(path.join(dataDir, 'server.pid'))).toBe(false);
    expect(cli(['--backup', path.join(work, 'tras-detener')], { DATA_DIR: dataDir }).code).toBe(0);
  }, 600_000);

  it('refuses a backup of the other kind of database, and a folder that is not a backup', () => {
    const notBackup = cli(['--restore', work], { DATA_DIR: dataDir });
    expect(notBackup.code).toBe(2);
    expect(notBackup.out).toContain('no es un respaldo (falta manifest.json)');
    if (!pgUrl()) return;
    const wrongKind = cli(['--restore', path.join(work, 'tras-detener')], { DATABASE_URL: pgUrl() });
    expect(wrongKind.code).toBe(2);
    expect(wrongKind.out).toContain(
      'El respaldo es de PGlite y la configuración actual usa PostgreSQL (DATABASE_URL).',
    );
  });
});

describe.skipIf(!pgUrl())('PostgreSQL: pg_dump/pg_restore and the stored files', () => {
  let db: TestDatabase;
  afterAll(() => db?.drop());

  it('round trip: backup, changes, restore gives back every table and every file', async () => {
    db = await createDatabase('backup', inject('templateDb'));
    await db.client.end();
    const dataDir = path.join(work, 'pg-data');
    mkdirSync(dataDir, { recursive: true });
    writeFiles(dataDir);
    const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
    let handle = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    await addRows(handle);
    const before = await snapshot(handle);
    await handle.close();
    const filesBefore = storedFileHashes(dataDir);

    const folder = path.join(work, 'respaldo-pg');
    const made = cli(['--backup', folder], env);
    expect(made.out).toContain(`Respaldo listo en ${folder}: base PostgreSQL (pg_dump), 3 archivos`);
    expect(existsSync(path.join(folder, 'database.dump'))).toBe(true);

    handle = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    await changeEverything(handle, dataDir);
    // A table the backup does not have (as a later migration would add) goes too.
    await handle.query('create table despues_del_respaldo (id int)');
    expect(await snapshot(handle)).not.toEqual(before);
    await handle.close();

    const restored = cli(['--restore', folder], env);
    expect(restored.out).toContain('Restaurado el respaldo del');
    expect(restored.code).toBe(0);
    handle = await openDatabase({ databaseUrl: db.url, poolSize: 1 });
    const after = await snapshot(handle);
    const [{ extra }] = await handle.query<{ extra: string | null }>(
      "select to_regclass('public.despues_del_respaldo')::text as extra",
    );
    await handle.close();
    expect(after).toEqual(before);
    expect(extra).toBeNull();
    expect(storedFileHashes(dataDir)).toEqual(filesBefore);
  }, 600_000);

  it('refuses a restore while a server runs, even idle with its pool connections closed', async () => {
    const env = { DATABASE_URL: db.url, DATA_DIR: path.join(work, 'pg-data') };
    const folder = path.join(work, 'respaldo-pg');
    const server = await startServer(RELIABILITY_PORTS.backup.server, env);
    const admin = new pg.Client({ connectionString: pgUrl() });
    await admin.connect();
    try {
      // Idle: the pool closes its connections after 10 s; what is left is the server's lock
      // (and the job queue's own connections, JOB_CONNECTION_NAME, which poll and listen for jobs).
      const idle = await waitFor(
        async () => {
          const { rows } = await admin.query(
            `select count(*)::int as n from pg_stat_activity where datname = $1 and backend_type = 'client backend' and application_name <> $2`,
            [db.name, JOB_CONNECTION_NAME],
          );
          return rows[0].n <= 1;
        },
        40_000,
        500,
      );
      expect(idle).toBeGreaterThanOrEqual(0);
      const refused = cli(['--restore', folder], env);
      expect(refused.out).toContain(
        'Un servidor está usando la base de datos (DATABASE_URL): deténgalo antes de restaurar.',
      );
      expect(refused.code).toBe(2);
      // The server never noticed.
      const res = await call(server.url, 'POST', '/api/auth/login', {
        body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      });
      expect(res.status).toBe(200);
    } finally {
      await admin.end();
      await stopServer(server);
    }
    const restored = cli(['--restore', folder], env);
    expect(restored.out).toContain('Restaurado el respaldo del');
    expect(restored.code).toBe(0);
  }, 600_000);
});
