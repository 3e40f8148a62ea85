// `npm run backup [-- <folder>]` and `npm run restore -- <folder>`: the database and the stored
// files of DATA_DIR, together, in one folder.
//   PGlite (no DATABASE_URL): the data folder (DATA_DIR/pgdata) after a checkpoint, copied.
//   PostgreSQL: pg_dump in its custom format (database.dump), restored with pg_restore in one
//   transaction.
// Both: the rest of DATA_DIR (the file store) copied as it is, and manifest.json (kind, date,
// version, migrations, files). A restore first takes a backup of what it replaces, and refuses
// while a server uses the database (PGlite: the folder's lock; PostgreSQL: the servers' lock).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config';
import { APP_VERSION } from '../core/app-info';
import { migrationsFolder, openDatabase, tryServerLockExclusive } from '../db/client';
import { DataFolderBusyError, type DataFolderLock, lockDataFolder } from './data-lock';

/** Written in DATA_DIR by servers of earlier versions (never copied nor restored). */
const PID_FILE = 'server.pid';
const PGDATA = 'pgdata';
const DUMP = 'database.dump';
const MANIFEST = 'manifest.json';

export interface Manifest {
  format: 1;
  kind: 'pglite' | 'postgres';
  created_at: string;
  app_version: string;
  /** The migrations the database had (their tags, in order). */
  migrations: string[];
  files: number;
  bytes: number;
}

export class BackupError extends Error {}

const stamp = () => new Date().toISOString().replace(/[:T]/g, '-').replace(/\..+/, '');

/** The default folder of a backup: ./backups/respaldo-<date>. */
export const defaultBackupFolder = () => path.resolve('backups', `respaldo-${stamp()}`);

function codeMigrations(): string[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder(), 'meta/_journal.json'), 'utf8'));
  return journal.entries.map((e: { tag: string }) => e.tag);
}

/**
 * Runs fn holding the PGlite folder's lock (ops/data-lock.ts): refused while a server (even one
 * still starting), another backup or a restore uses the folder. PostgreSQL: see restore().
 */
async function withFolderLock<T>(
  config: AppConfig,
  role: 'respaldo' | 'restauracion',
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  if (config.databaseUrl) return fn();
  let lock: DataFolderLock;
  try {
    lock = await lockDataFolder(config.dataDir, role, what);
  } catch (err) {
    if (err instanceof DataFolderBusyError) throw new BackupError(err.message);
    throw err;
  }
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** Everything of DATA_DIR but the database and the pid file: the stored files. */
function storedEntries(dataDir: string): string[] {
  const dir = path.resolve(dataDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((n) => n !== PGDATA && n !== PID_FILE && !n.startsWith('.'));
}

function countFiles(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  if (!existsSync(dir)) return { files, bytes };
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    files++;
    bytes += statSync(path.join(e.parentPath, e.name)).size;
  }
  return { files, bytes };
}

/** The connection of pg_dump/pg_restore: the URL without its password, which goes in PGPASSWORD. */
function pgConnection(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const res = spawnSync(cmd, args, { env, encoding: 'utf8' });
  if (res.error)
    throw new BackupError(
      `No se pudo ejecutar ${cmd}: ${res.error.message} (instale el cliente de PostgreSQL)`,
    );
  if (res.status !== 0)
    throw new BackupError(`${cmd} terminó con error: ${res.stderr.trim().slice(0, 2000)}`);
}

/** The database has something to back up (a PGlite folder exists; PostgreSQL: always). */
const hasDatabase = (config: AppConfig) =>
  !!config.databaseUrl || existsSync(path.join(path.resolve(config.dataDir), PGDATA, 'PG_VERSION'));

async function databaseMigrations(config: AppConfig): Promise<string[]> {
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
  });
  try {
    // The migrations drizzle recorded, matched to the tags of the code's journal (in order).
    const [{ present }] = await handle.query<{ present: boolean }>(
      "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
    );
    const rows = present
      ? await handle.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')
      : [{ n: 0 }];
    if (!config.databaseUrl) await handle.query('checkpoint');
    return codeMigrations().slice(0, rows[0]?.n ?? 0);
  } finally {
    await handle.close();
  }
}

/** Writes a backup of the database and the stored files into `folder` (which must not exist). */
export function backup(config: AppConfig, folder = defaultBackupFolder()): Promise<Manifest> {
  return withFolderLock(config, 'respaldo', 'respaldar una base PGlite', () => writeBackup(config, folder));
}

async function writeBackup(config: AppConfig, folder: string): Promise<Manifest> {
  if (!hasDatabase(config))
    throw new BackupError(`No hay base de datos que respaldar en ${path.resolve(config.dataDir)}.`);
  const target = path.resolve(folder);
  if (existsSync(target) && readdirSync(target).length)
    throw new BackupError(`La carpeta ${target} ya existe y no está vacía: elija otra.`);
  const work = `${target}.incompleto`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  // A checkpoint first (PGlite), so the copied folder needs no recovery.
  const migrations = await databaseMigrations(config);
  if (config.databaseUrl) {
    const conn = pgConnection(config.databaseUrl);
    run(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${path.join(work, DUMP)}`, conn.url],
      conn.env,
    );
  } else {
    cpSync(path.join(path.resolve(config.dataDir), PGDATA), path.join(work, PGDATA), { recursive: true });
  }
  const files = path.join(work, 'files');
  mkdirSync(files);
  for (const entry of storedEntries(config.dataDir))
    cpSync(path.join(path.resolve(config.dataDir), entry), path.join(files, entry), { recursive: true });
  const manifest: Manifest = {
    format: 1,
    kind,
    created_at: new Date().toISOString(),
    app_version: APP_VERSION,
    migrations,
    ...countFiles(files),
  };
  writeFileSync(path.join(work, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  // Complete or absent: the folder gets its name only once everything is written.
  rmSync(target, { recursive: true, force: true });
  renameSync(work, target);
  return manifest;
}

function readManifest(folder: string): Manifest {
  const file = path.join(path.resolve(folder), MANIFEST);
  if (!existsSync(file))
    throw new BackupError(`${path.resolve(folder)} no es un respaldo (falta ${MANIFEST}).`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/**
 * Replaces the database and the stored files with a backup's. The current state is first saved
 * as a backup beside it (answered as `previous`). The server must be stopped.
 */
export async function restore(
  config: AppConfig,
  folder: string,
): Promise<{ manifest: Manifest; previous: string }> {
  const source = path.resolve(folder);
  const manifest = readManifest(source);
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.kind !== kind)
    throw new BackupError(
      `El respaldo es de ${manifest.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} y la configuración actual usa ${kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (DATA_DIR)'}.`,
    );
  const known = codeMigrations();
  if (manifest.migrations.some((tag, i) => known[i] !== tag))
    throw new BackupError(
      'El respaldo es de una versión más nueva de la aplicación: actualícela antes de restaurar.',
    );
  return withFolderLock(config, 'restauracion', 'restaurar una base PGlite', () =>
    replaceWithBackup(config, source, manifest),
  );
}

async function replaceWithBackup(
  config: AppConfig,
  source: string,
  manifest: Manifest,
): Promise<{ manifest: Manifest; previous: string }> {
  if (config.databaseUrl) {
    // Every server holds the servers' lock shared for its lifetime, idle or not: taken here
    // exclusively (and kept until the end, so no server starts in the middle), or refused.
    const lock = await tryServerLockExclusive(config.databaseUrl);
    if ('holders' in lock)
      throw new BackupError(
        lock.holders === 1
          ? 'Un servidor está usando la base de datos (DATABASE_URL): deténgalo antes de restaurar.'
          : `${lock.holders} servidores están usando la base de datos (DATABASE_URL): deténgalos antes de restaurar.`,
      );
    try {
      await assertNoOtherSessions(config.databaseUrl, lock.backendPid);
      return await replaceData(config, source, manifest);
    } finally {
      await lock.release();
    }
  }
  return replaceData(config, source, manifest);
}

async function replaceData(
  config: AppConfig,
  source: string,
  manifest: Manifest,
): Promise<{ manifest: Manifest; previous: string }> {
  // What is replaced is kept (a new machine has nothing to keep).
  const previous = hasDatabase(config)
    ? path.join(path.dirname(source), `antes-de-restaurar-${stamp()}`)
    : '';
  if (previous) await writeBackup(config, previous);
  const dataDir = path.resolve(config.dataDir);
  if (config.databaseUrl) {
    await emptyDatabase(config.databaseUrl);
    const conn = pgConnection(config.databaseUrl);
    run(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${conn.url}`,
        path.join(source, DUMP),
      ],
      conn.env,
    );
  } else {
    const incoming = path.join(dataDir, `${PGDATA}.restaurando`);
    rmSync(incoming, { recursive: true, force: true });
    cpSync(path.join(source, PGDATA), incoming, { recursive: true });
    rmSync(path.join(dataDir, PGDATA), { recursive: true, force: true });
    renameSync(incoming, path.join(dataDir, PGDATA));
  }
  mkdirSync(dataDir, { recursive: true });
  for (const entry of storedEntries(dataDir))
    rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  const files = path.join(source, 'files');
  if (existsSync(files))
    for (const entry of readdirSync(files))
      cpSync(path.join(files, entry), path.join(dataDir, entry), { recursive: true });
  return { manifest, previous };
}

/** Other sessions on the database mean a server still runs: a restore under it would break both. */
async function assertNoOtherSessions(url: string, lockPid: number): Promise<void> {
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    const [row] = await handle.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and pid <> $1 and backend_type = 'client backend'`,
      [lockPid],
    );
    if (row.n > 0)
      throw new BackupError(
        `Hay ${row.n} conexiones abiertas a la base de datos: detenga los servidores antes de restaurar.`,
      );
  } finally {
    await handle.close();
  }
}

/** The application's schemas dropped, so the restored database has exactly the backup's objects. */
async function emptyDatabase(url: string): Promise<void> {
  const handle = await openDatabase({ databaseUrl: url, poolSize: 1 });
  try {
    await handle.query('drop schema if exists drizzle cascade');
    await handle.query('drop schema if exists public cascade');
    await handle.query('create schema public');
  } finally {
    await handle.close();
  }
}

/** sha256 of every stored file, by path relative to DATA_DIR (tests and operators compare them). */
export function storedFileHashes(dataDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const root = path.resolve(dataDir);
  for (const entry of storedEntries(dataDir)) {
    const full = path.join(root, entry);
    const list = statSync(full).isDirectory()
      ? readdirSync(full, { withFileTypes: true, recursive: true })
          .filter((e) => e.isFile())
          .map((e) => path.join(e.parentPath, e.name))
      : [full];
    for (const f of list)
      out[path.relative(root, f)] = createHash('sha256').update(readFileSync(f)).digest('hex');
  }
  return out;
}
