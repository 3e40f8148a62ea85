// The second factor's calls: the second step of the login (a code, a recovery code, or the
// enrolment an administrator makes at a first sign-in), the own second factor from the profile
// (enrol, confirm, new recovery codes, turn off) and an administrator's reset of a user's.
//
// The second step shares the login's guards: the per-address limit ('login') and the account's
// lockout (login_attempts: a wrong code is a failed attempt; five within 15 minutes lock the
// account for the password and the code alike).
import { securityCalls as calls, type LoginResult, type TwoFactorStatus } from '@app/contracts';
import { eq, sql } from 'drizzle-orm';
import { defineAction } from '../../core/action';
import { invalidateUser, issueToken } from '../../core/auth';
import {
  ConflictError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../../core/errors';
import { loginAttempts, users } from '../../db/schema';
import { attemptsOf, isLocked, pruneLoginAttempts, THROTTLE_MESSAGE } from './security.actions';
import { userResource } from './security.resources';
import {
  acceptCode,
  clearTwoFactor,
  newRecoveryCodes,
  readSecondStep,
  recoveryCodesLeft,
  SECOND_STEP_EXPIRED,
  startEnrolment,
  twoFactorRequired,
  useRecoveryCode,
  WRONG_CODE,
  WRONG_RECOVERY_CODE,
} from './two-factor';

const authTags = ['Auth'];
const tags = ['Seguridad'];

/** The user a second-step token names, still active and with the same token version. */
async function stepUser(db: Parameters<typeof pruneLoginAttempts>[0], userId: number, tv: number) {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      token_version: users.token_version,
      active: users.active,
      confirmed_at: users.two_factor_confirmed_at,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user || !user.active || user.token_version !== tv) throw new UnauthorizedError(SECOND_STEP_EXPIRED);
  return user;
}

const secondStep = defineAction({
  ...calls.twoFactorLogin,
  summary: 'Segundo paso del inicio de sesión: código de la aplicación o código de recuperación',
  tags: authTags,
  access: 'public',
  audit: { exempt: 'El segundo paso del inicio de sesión: cuenta los intentos' },
  rateLimit: 'login',
  async handler({ app, request, body, db }) {
    const step = readSecondStep(app, body.two_factor_token);
    const user = await stepUser(db, step.userId, step.tokenVersion);
    // The token's mode must still hold (a reset in between ends a 'code' step).
    if ((step.mode === 'code') !== (user.confirmed_at !== null))
      throw new UnauthorizedError(SECOND_STEP_EXPIRED);
    if (step.mode === 'setup' && !body.code) throw ValidationError.field('code', 'Código es obligatorio');
    const who = attemptsOf(user.id, '');
    // As the password step: counted as a failure first, under the account's lock.
    const attemptId = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`login:user:${user.id}`}))`);
      if (await isLocked(tx, who)) return null;
      const [row] = await tx
        .insert(loginAttempts)
        .values({
          username: user.username.toLowerCase(),
          user_id: user.id,
          succeeded: false,
          ip: request.ip,
        })
        .returning({ id: loginAttempts.id });
      return row!.id;
    });
    if (attemptId === null) throw new TooManyRequestsError(THROTTLE_MESSAGE);
    const jwtSecret = app.ctx.jwtSecret;
    let recovery_codes: string[] | undefined;
    let ok: boolean;
    if (step.mode === 'setup') {
      ok = await db.transaction(async (tx) => {
        if (!(await acceptCode(tx, jwtSecret, user.id, body.code!, true))) return false;
        recovery_codes = await newRecoveryCodes(tx, user.id);
        return true;
      });
    } else if (body.code) {
      ok = await acceptCode(db, jwtSecret, user.id, body.code);
    } else {
      ok = await useRecoveryCode(db, user.id, body.recovery_code!);
    }
    if (ok) await db.update(loginAttempts).set({ succeeded: true }).where(eq(loginAttempts.id, attemptId));
    await pruneLoginAttempts(db);
    if (!ok) {
      throw body.code
        ? ValidationError.field('code', WRONG_CODE)
        : ValidationError.field('recovery_code', WRONG_RECOVERY_CODE);
    }
    const session: LoginResult = issueToken(app, user, step.rememberMe);
    return recovery_codes ? { ...session, recovery_codes } : session;
  },
});

const setupAtLogin = defineAction({
  ...calls.twoFactorSetup,
  summary: 'Primer inicio de sesión de un administrador: genera el secreto y su código QR',
  tags: authTags,
  access: 'public',
  audit: { exempt: 'Secreto pendiente del propio inicio de sesión; su confirmación queda auditada' },
  rateLimit: 'login',
  async handler({ app, body, db }) {
    const step = readSecondStep(app, body.two_factor_token);
    if (step.mode !== 'setup') throw new UnauthorizedError(SECOND_STEP_EXPIRED);
    const user = await stepUser(db, step.userId, step.tokenVersion);
    if (user.confirmed_at !== null) throw new UnauthorizedError(SECOND_STEP_EXPIRED);
    return startEnrolment(db, app.ctx.jwtSecret, user);
  },
});

// ---------- the own second factor (profile) ----------

const status = defineAction({
  ...calls.twoFactorStatus,
  summary: 'Estado de la verificación en dos pasos propia',
  tags,
  access: 'login',
  async handler({ user, db }) {
    const [row] = await db
      .select({ confirmed_at: users.two_factor_confirmed_at })
      .from(users)
      .where(eq(users.id, user.id));
    const answer: TwoFactorStatus = {
      enabled: !!row?.confirmed_at,
      confirmed_at: row?.confirmed_at ? row.confirmed_at.toISOString() : null,
      required: await twoFactorRequired(db, user),
      recovery_codes_left: row?.confirmed_at ? await recoveryCodesLeft(db, user.id) : 0,
    };
    return answer;
  },
});

async function assertNotEnabled(db: Parameters<typeof recoveryCodesLeft>[0], userId: number) {
  const [row] = await db
    .select({ confirmed_at: users.two_factor_confirmed_at })
    .from(users)
    .where(eq(users.id, userId));
  if (row?.confirmed_at)
    throw new ConflictError(
      'La verificación en dos pasos ya está activa: desactívela primero para cambiar de aplicación',
    );
}

const enrol = defineAction({
  ...calls.twoFactorEnable,
  summary: 'Inicia la activación: secreto y código QR (se muestran solo hasta confirmar)',
  tags,
  access: 'login',
  audit: { exempt: 'Secreto pendiente propio; su confirmación queda auditada (two-factor-on)' },
  async handler({ app, user, db }) {
    await assertNotEnabled(db, user.id);
    return startEnrolment(db, app.ctx.jwtSecret, { id: user.id, username: user.username });
  },
});

const confirm = defineAction({
  ...calls.twoFactorConfirm,
  summary: 'Confirma la activación con un código; devuelve los códigos de recuperación (una sola vez)',
  tags,
  access: 'login',
  rateLimit: 'login',
  audit: { resource: 'users', action: 'two-factor-on' },
  async handler({ app, user, body, db, write }) {
    await assertNotEnabled(db, user.id);
    const codes = await write(
      async (tx) => {
        if (!(await acceptCode(tx, app.ctx.jwtSecret, user.id, body.code, true)))
          throw ValidationError.field('code', WRONG_CODE);
        return newRecoveryCodes(tx, user.id);
      },
      () => ({ recordId: user.id, after: { two_factor: true } }),
    );
    return { recovery_codes: codes };
  },
});

const regenerate = defineAction({
  ...calls.twoFactorRecoveryCodes,
  summary: 'Genera códigos de recuperación nuevos (los anteriores dejan de valer)',
  tags,
  access: 'login',
  rateLimit: 'login',
  audit: { resource: 'users', action: 'recovery-codes' },
  async handler({ app, user, body, write }) {
    const codes = await write(
      async (tx) => {
        if (!(await acceptCode(tx, app.ctx.jwtSecret, user.id, body.code)))
          throw ValidationError.field('code', WRONG_CODE);
        return newRecoveryCodes(tx, user.id);
      },
      () => ({ recordId: user.id }),
    );
    return { recovery_codes: codes };
  },
});

const disable = defineAction({
  ...calls.twoFactorDisable,
  summary: 'Desactiva la verificación en dos pasos propia (con un código)',
  tags,
  access: 'login',
  rateLimit: 'login',
  audit: { resource: 'users', action: 'two-factor-off' },
  async handler({ app, user, body, db, write }) {
    if (await twoFactorRequired(db, user))
      throw new ConflictError(
        'La verificación en dos pasos es obligatoria para los administradores: no se puede desactivar',
      );
    await write(
      async (tx) => {
        if (!(await acceptCode(tx, app.ctx.jwtSecret, user.id, body.code)))
          throw ValidationError.field('code', WRONG_CODE);
        await clearTwoFactor(tx, user.id);
      },
      () => ({ recordId: user.id, before: { two_factor: true }, after: { two_factor: false } }),
    );
    return true;
  },
});

// ---------- an administrator's reset ----------

const reset = defineAction({
  ...calls.twoFactorReset,
  summary: 'Un administrador quita la verificación en dos pasos de un usuario (teléfono perdido)',
  tags,
  access: { permission: 'Admin.Users.update' },
  target: userResource,
  audit: { resource: 'users', action: 'two-factor-reset' },
  async handler({ id, db, write }) {
    const [row] = await db
      .select({ confirmed_at: users.two_factor_confirmed_at })
      .from(users)
      .where(eq(users.id, id));
    if (!row) throw new NotFoundError();
    await write(
      (tx) => clearTwoFactor(tx, id),
      () => ({ recordId: id, before: { two_factor: !!row.confirmed_at }, after: { two_factor: false } }),
    );
    invalidateUser(id);
    return true;
  },
});

export const twoFactorActions = [
  secondStep,
  setupAtLogin,
  status,
  enrol,
  confirm,
  regenerate,
  disable,
  reset,
];
