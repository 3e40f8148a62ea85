import type pg from 'pg';
import type { DatabaseHandle } from '../src/db/client';
import { seedDatabase } from '../src/seed';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'Admin-Test-123';

/** The same server URL pointing at another database. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Drops a test database and closes the admin client. The pool's sessions close asynchronously:
 * wait for them (2 s) rather than kill them (a killed session raises an error event nobody
 * listens to any more); only then force it.
 */
export async function dropDatabaseWhenIdle(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await admin.query(`drop database if exists ${name}${i >= 40 ? ' with (force)' : ''}`);
      break;
    } catch (err) {
      if (i >= 40) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  await admin.end();
}

/** Seeds a migrated test database as the suite's template: the admin, second factor optional. */
export function seedAsTemplate(handle: DatabaseHandle): Promise<unknown> {
  return seedDatabase(handle, {
    adminUsername: ADMIN_USERNAME,
    adminPassword: ADMIN_PASSWORD,
    twoFactorRequired: false,
  });
}
