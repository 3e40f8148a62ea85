// Start-up of the data side: open the database, migrate, seed, and find the token secret.
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

export async function prepareDatabase(config: AppConfig): Promise<PreparedDatabase> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await handle.migrate();
    const seeded = await seedDatabase(handle, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
    });
    const jwtSecret = await ensureJwtSecret(handle, config.jwtSecret);
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
