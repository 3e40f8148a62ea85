export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'Admin-Test-123';

/** The same server URL pointing at another database. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
