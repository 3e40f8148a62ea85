// Login, logout and the session information (SPEC §7 Auth). Failed logins lock the account
// (whatever name was typed: user name or e-mail) through the login_attempts table, so every
// instance sees the same count; each address is also limited per minute in-process.
import { type LoginInformation, loginSchema, messages } from '@app/contracts';
import { verify } from '@node-rs/argon2';
import { and, asc, desc, eq, gt, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { APP_NAME, APP_VERSION } from '../../core/app-info';
import { currentUser, invalidateUser, issueToken, requireAuth } from '../../core/auth';
import { ok } from '../../core/envelope';
import { TooManyRequestsError, UnauthorizedError } from '../../core/errors';
import { parseBody } from '../../core/http';
import { perAddressLimit } from '../../core/rate-limit';
import { companies, loginAttempts, users } from '../../db/schema';
import { normaliseLoginName } from './login-names';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
export const THROTTLE_MESSAGE = `Demasiados intentos fallidos. Intente nuevamente en ${LOCK_MINUTES} minutos.`;
/** Attempts older than this count for nothing and are deleted. */
export const ATTEMPTS_KEPT_HOURS = 24;

// Verified when the user does not exist, so both answers take the same time.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$sc6drw+KLLFnfse4qwnydA$PEuTQ8HIAbwF4yzdjGyREFNDnD+ybynJbQxwZWU52r8';

/** The attempts of one account (any name typed), or of one unknown typed name. */
function attemptsOf(userId: number | undefined, name: string): SQL {
  return userId === undefined
    ? and(eq(loginAttempts.username, name), isNull(loginAttempts.user_id))!
    : eq(loginAttempts.user_id, userId);
}

/** Locked when the last 5 failures (since the last success) fall within 15 minutes of now. */
async function isLocked(db: any, who: SQL): Promise<boolean> {
  const since = new Date(Date.now() - LOCK_MINUTES * 60_000);
  const recent = await db
    .select({ succeeded: loginAttempts.succeeded, at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(who, gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at))
    .limit(MAX_FAILED_LOGINS);
  let failures = 0;
  for (const r of recent) {
    if (r.succeeded) break;
    failures++;
  }
  return failures >= MAX_FAILED_LOGINS;
}

/**
 * The account a typed name designates: a user name first (whatever its case), else an e-mail
 * (trimmed, lower-cased). Names are unique that way, so there is never a choice between two.
 */
async function resolveAccount(db: any, name: string) {
  const byName = sql`lower(${users.username}) = ${name}`;
  const [user] = await db
    .select({
      id: users.id,
      password_hash: users.password_hash,
      token_version: users.token_version,
      active: users.active,
      confirmed: users.confirmed,
    })
    .from(users)
    .where(sql`${byName} or lower(btrim(${users.email})) = ${name}`)
    .orderBy(desc(byName), asc(users.id))
    .limit(1);
  return user as
    | { id: number; password_hash: string; token_version: number; active: boolean; confirmed: boolean }
    | undefined;
}

/** Deletes attempts older than a day (an index range on `at`: cheap when there are none). */
export async function pruneLoginAttempts(db: any): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.at, new Date(Date.now() - ATTEMPTS_KEPT_HOURS * 3600_000)));
}

export function authRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.handle.db as any;

  app.post(
    '/api/auth/login',
    {
      config: { rateLimit: perAddressLimit('login') },
      schema: { tags: ['Auth'], summary: 'Inicia sesion', security: [] },
    },
    async (request) => {
      const body = parseBody(loginSchema, request.body);
      const name = normaliseLoginName(body.username);
      const user = await resolveAccount(db(), name);
      const who = attemptsOf(user?.id, name);
      if (await isLocked(db(), who)) throw new TooManyRequestsError(THROTTLE_MESSAGE);
      let valid = false;
      try {
        valid = await verify(user?.password_hash ?? DUMMY_HASH, body.password);
      } catch {
        valid = false;
      }
      // Only someone who knows the password learns that the account waits for confirmation.
      const unconfirmed = !!user && user.active && valid && !user.confirmed;
      const succeeded = !!user && user.active && valid && !unconfirmed;
      await db()
        .insert(loginAttempts)
        .values({ username: name, user_id: user?.id ?? null, succeeded, ip: request.ip });
      // Every attempt (failures and unknown names included) sweeps the rows older than a day, so
      // a password spray leaves nothing behind for long.
      await pruneLoginAttempts(db());
      if (unconfirmed) throw new UnauthorizedError(messages.accountNotConfirmed);
      if (!succeeded || !user) throw new UnauthorizedError(messages.loginFailed);
      return ok(issueToken(app, user, body.rememberMe === true));
    },
  );

  app.post(
    '/api/auth/logout',
    {
      preHandler: requireAuth,
      schema: { tags: ['Auth'], summary: 'Cierra la sesion (invalida los tokens emitidos)' },
    },
    async (request) => {
      const user = currentUser(request);
      await db()
        .update(users)
        .set({ token_version: sql`${users.token_version} + 1` })
        .where(eq(users.id, user.id));
      invalidateUser(user.id);
      return ok(true);
    },
  );

  app.get(
    '/api/auth/getCurrentLoginInformations',
    { preHandler: requireAuth, schema: { tags: ['Auth'], summary: 'Sesion: aplicacion, usuario y empresa' } },
    async (request) => {
      const me = currentUser(request);
      const [row] = await db()
        .select({ avatar_url: users.avatar_url, default_tab: users.default_tab })
        .from(users)
        .where(eq(users.id, me.id));
      const [company] = await db()
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.active, true))
        .orderBy(asc(companies.id))
        .limit(1);
      const info: LoginInformation = {
        application: { name: APP_NAME, version: APP_VERSION },
        user: {
          id: me.id,
          username: me.username,
          full_name: me.fullName,
          email: me.email,
          avatar_url: row?.avatar_url ?? null,
          dealer_id: me.dealerId,
          isDealer: me.isDealer,
          roles: me.roles,
          permissions: [...me.permissions].sort(),
          default_tab: row?.default_tab ?? 'home',
        },
        company: company ?? null,
      };
      return ok(info);
    },
  );
}
