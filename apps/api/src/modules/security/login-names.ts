// The names a person signs in with: a user name (unique whatever its case) or an e-mail (stored
// trimmed and lower-cased, unique that way). One typed name designates at most one account.
import { and, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { ConflictError } from '../../core/errors';
import { users } from '../../db/schema';

/** How an e-mail is stored and compared: trimmed and lower-cased. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/** How a typed login name is compared (with lower(username) and with the stored e-mail). */
export const normaliseLoginName = (name: string): string => name.trim().toLowerCase();

/** Same message as a duplicate caught by the database (db-errors), naming the field. */
export const takenMessage = (label: string) => `El valor de ${label} ya existe`;

/**
 * Refuses (409) a user name or e-mail that another account already signs in with: the same
 * user name or e-mail whatever the case and spaces, or an e-mail equal to another account's user
 * name (and the reverse), so a typed name never matches two accounts. `id` is the account being
 * written (undefined on create).
 */
export async function assertLoginNamesFree(
  db: Executor,
  id: number | undefined,
  names: { username?: string; email?: string },
): Promise<void> {
  const others = id === undefined ? undefined : ne(users.id, id);
  const clash = async (cond: ReturnType<typeof sql>) => {
    const [row] = await db.select({ id: users.id }).from(users).where(and(cond, others)).limit(1);
    return !!row;
  };
  if (names.username !== undefined) {
    const key = normaliseLoginName(names.username);
    if (await clash(sql`(lower(${users.username}) = ${key} or lower(btrim(${users.email})) = ${key})`)) {
      throw new ConflictError(takenMessage('Usuario'));
    }
  }
  if (names.email !== undefined) {
    const key = normaliseEmail(names.email);
    if (await clash(sql`(lower(btrim(${users.email})) = ${key} or lower(${users.username}) = ${key})`)) {
      throw new ConflictError(takenMessage('Email'));
    }
  }
}
