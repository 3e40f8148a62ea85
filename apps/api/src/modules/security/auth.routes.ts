// Login, logout and the session information (SPEC §7 Auth). Failed logins are throttled per
// username through the login_attempts table, so every instance sees the same count.
import { type LoginInformation, loginSchema, messages } from '@app/contracts';
import { verify } from '@node-rs/argon2';
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { APP_NAME, APP_VERSION } from '../../core/app-info';
import { currentUser, invalidateUser, issueToken, requireAuth } from '../../core/auth';
import { ok } from '../../core/envelope';
import { TooManyRequestsError, UnauthorizedError } from '../../core/errors';
import { parseBody } from '../../core/http';
import { companies, loginAttempts, users } from '../../db/schema';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
export const THROTTLE_MESSAGE = `Demasiados intentos fallidos. Intente nuevamente en ${LOCK_MINUTES} minutos.`;

// Verified when the user does not exist, so both answers take the same time.
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$sc6drw+KLLFnfse4qwnydA$PEuTQ8HIAbwF4yzdjGyREFNDnD+ybynJbQxwZWU52r8';

/** Locked when the last 5 failures (since the last success) fall within 15 minutes of now. */
async function isLocked(db: any, username: string): Promise<boolean> {
  const since = new Date(Date.now() - LOCK_MINUTES * 60_000);
  const recent = await db
    .select({ succeeded: loginAttempts.succeeded, at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.username, username), gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at))
    .limit(MAX_FAILED_LOGINS);
  let failures = 0;
  for (const r of recent) {
    if (r.succeeded) break;
    failures++;
  }
  return failures >= MAX_FAILED_LOGINS;
}

export function authRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.handle.db as any;

  app.post(
    '/api/auth/login',
    { schema: { tags: ['Auth'], summary: 'Inicia sesion', security: [] } },
    async (request) => {
      const body = parseBody(loginSchema, request.body);
      const key = body.username.trim().toLowerCase();
      if (await isLocked(db(), key)) throw new TooManyRequestsError(THROTTLE_MESSAGE);
      const [user] = await db()
        .select({
          id: users.id,
          password_hash: users.password_hash,
          token_version: users.token_version,
          active: users.active,
          confirmed: users.confirmed,
        })
        .from(users)
        .where(sql`lower(${users.username}) = ${key} or lower(${users.email}) = ${key}`)
        .orderBy(asc(users.id))
        .limit(1);
      let valid = false;
      try {
        valid = await verify(user?.password_hash ?? DUMMY_HASH, body.password);
      } catch {
        valid = false;
      }
      // Only someone who knows the password learns that the account waits for confirmation.
      const unconfirmed = !!user && user.active && valid && !user.confirmed;
      const succeeded = !!user && user.active && valid && !unconfirmed;
      await db().insert(loginAttempts).values({ username: key, succeeded, ip: request.ip });
      if (unconfirmed) throw new UnauthorizedError(messages.accountNotConfirmed);
      if (!succeeded) throw new UnauthorizedError(messages.loginFailed);
      // Only the last minutes matter to the throttle: a success sweeps this name's old attempts.
      await db()
        .delete(loginAttempts)
        .where(
          and(eq(loginAttempts.username, key), lt(loginAttempts.at, new Date(Date.now() - 24 * 3600_000))),
        );
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
