// Start-up of the data side: open the database, migrate, seed, and find the token secret.
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './config';
import { type DatabaseHandle, openDatabase } from './db/client';
import { ensureJwtSecret, seedDatabase } from './seed';

export interface PreparedDatabase {
  handle: DatabaseHandle;
  /** Set only on the start that created the admin user with a generated password. */
  generatedAdminPassword?: string;
  /** True when this start created the admin user. */
  adminCreated: boolean;
  jwtSecret: string;
}

/**
 * A migrated, empty PGlite data folder made by the build (`--build-pglite-template`) beside the
 * bundle. Creating a PGlite folder from nothing (initdb in WebAssembly) takes ~5 s; copying
 * this one takes ~0.1 s, so the first `npm start` is fast. Absent (tsx, tests): normal creation.
 */
export function pgliteTemplateFolder(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.url)), 'pgdata-template');
}

/** The folder openDatabase() uses inside DATA_DIR for PGlite. */
const pgliteFolder = (dataDir: string) => path.join(path.resolve(dataDir), 'pgdata');

/** Fills a new DATA_DIR from the build's template; never touches an existing database. */
function copyTemplateIfNew(config: AppConfig): void {
  if (config.databaseUrl) return;
  const target = pgliteFolder(config.dataDir);
  const template = pgliteTemplateFolder();
  if (existsSync(target) || !existsSync(path.join(template, 'PG_VERSION'))) return;
  mkdirSync(path.dirname(target), { recursive: true });
  // Copy beside, then rename: an interrupted copy never looks like a database.
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  renameSync(partial, target);
}

/** Build step: a migrated PGlite folder (no seed, no secrets) at pgliteTemplateFolder(). */
export async function buildPgliteTemplate(): Promise<string> {
  const dest = pgliteTemplateFolder();
  const work = mkdtempSync(`${dest}.build-`);
  try {
    const handle = await openDatabase({ dataDir: work });
    await handle.migrate();
    await handle.close();
    rmSync(dest, { recursive: true, force: true });
    renameSync(pgliteFolder(work), dest);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dest;
}

export async function prepareDatabase(config: AppConfig): Promise<PreparedDatabase> {
  copyTemplateIfNew(config);
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // PostgreSQL: held until the process ends, so a restore refuses while this server lives.
    await handle.holdServerLock();
    // Instances started at once on one PostgreSQL take turns: the first migrates and seeds, the
    // others find it done.
    const { seeded, jwtSecret } = await handle.exclusive(async () => {
      await handle.migrate();
      const seeded = await seedDatabase(handle, {
        adminUsername: config.adminUsername,
        adminPassword: config.adminPassword,
        twoFactorRequired: config.twoFactorRequired,
      });
      return { seeded, jwtSecret: await ensureJwtSecret(handle, config.jwtSecret) };
    });
    return {
      handle,
      generatedAdminPassword: seeded.generatedAdminPassword,
      adminCreated: seeded.adminCreated,
      jwtSecret,
    };
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}
