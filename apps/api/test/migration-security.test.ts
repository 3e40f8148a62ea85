// The 0001_security migration on a database made by 0000_init: the generated secret moves out of
// `configurations`, e-mails and user names become unique whatever their case (collisions kept
// apart as documented), old login attempts go. Runs on a new PGlite folder (or a new PostgreSQL
// database with TEST_DATABASE_URL), migrated first with the initial migration only.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DatabaseHandle, migrationsFolder, openDatabase } from '../src/db/client';
import { ensureJwtSecret } from '../src/seed';
import { databaseUrlFor, dropDatabaseWhenIdle } from './template';

let handle: DatabaseHandle;
const cleanups: (() => Promise<void> | void)[] = [];
const q = <T = any>(text: string, params: unknown[] = []) => handle.query<T>(text, params);

/** A migrations folder holding only the initial migration. */
function initialOnly(): string {
  const source = migrationsFolder();
  const dir = mkdtempSync(path.join(tmpdir(), 'mig-0000-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'meta'));
  cpSync(path.join(source, '0000_init.sql'), path.join(dir, '0000_init.sql'));
  const journal = JSON.parse(readFileSync(path.join(source, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag === '0000_init');
  writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL;
  const folder = initialOnly();
  if (url) {
    const name = `t_mig_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    handle = await openDatabase({ databaseUrl: databaseUrlFor(url, name), poolSize: 2 });
    cleanups.push(async () => {
      await dropDatabaseWhenIdle(admin, name);
    });
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(handle.db, { migrationsFolder: folder });
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'mig-pglite-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    handle = await openDatabase({ dataDir: dir });
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, { migrationsFolder: folder });
  }
});

afterAll(async () => {
  await handle?.close();
  for (const c of cleanups.reverse()) await c();
});

it('moves the secret, normalises e-mails and user names, and prunes old attempts', async () => {
  await q(`insert into configurations (key, value, is_public) values
    ('jwt_secret', 'secreto-de-antes', false), ('COMPANY_NAME', 'Red', true)`);
  const user = async (username: string, email: string) =>
    (
      await q<{ id: number }>(
        `insert into users (username, email, full_name, password_hash) values ($1, $2, 'U', 'x') returning id`,
        [username, email],
      )
    )[0].id;
  const ana = await user('ana', ' Ana@Example.com ');
  const copy = await user('bruno', 'ana@example.com');
  const upper = await user('ANA', 'otra@example.com');
  const plain = await user('carla', 'Carla@Example.com');
  await q(`insert into login_attempts (username, succeeded, at) values
    ('viejo', false, now() - interval '2 days'), ('reciente', false, now())`);

  await handle.migrate();

  expect(await q(`select key, value from server_secrets`)).toEqual([
    { key: 'jwt_secret', value: 'secreto-de-antes' },
  ]);
  expect(await q(`select key from configurations order by key`)).toEqual([{ key: 'COMPANY_NAME' }]);
  // Sessions signed before the migration stay valid: the same secret is found.
  expect(await ensureJwtSecret(handle)).toBe('secreto-de-antes');

  const rows = await q<{ id: number; username: string; email: string }>(
    'select id, username, email from users order by id',
  );
  expect(rows).toEqual([
    { id: ana, username: 'ana', email: 'ana@example.com' },
    { id: copy, username: 'bruno', email: `usuario-${copy}@correo-duplicado.invalid` },
    { id: upper, username: `ANA~${upper}`, email: 'otra@example.com' },
    { id: plain, username: 'carla', email: 'carla@example.com' },
  ]);
  expect((await q(`select username from login_attempts`)).map((r) => r.username)).toEqual(['reciente']);

  // From now on the database itself refuses another case of a name or an e-mail.
  await expect(user('CARLA', 'nueva@example.com')).rejects.toThrow();
  await expect(user('nuevo', ' CARLA@example.com')).rejects.toThrow();
});
