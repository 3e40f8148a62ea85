// The second factor of a sign-in: TOTP (RFC 6238, the `otpauth` library: any authenticator app)
// with recovery codes, as Filament 4 ships it.
//
// - The secret is stored sealed (AES-256-GCM, a key derived from the token secret) and answered
//   only during enrolment, before it is confirmed.
// - A code is accepted once: the time step of the last accepted code is kept, so the same code
//   (or an older one) is refused afterwards, even within its 30 seconds.
// - Recovery codes (8, 80 random bits each) are shown once and stored as SHA-256, each usable once.
// - TOTP reads the machine's clock, the one the user's phone shares: not the business clock of
//   core/lima, which FAKE_NOW may move.
import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import {
  TWO_FACTOR_ADMIN_PERMISSIONS,
  TWO_FACTOR_REQUIRED_KEY,
  type TwoFactorEnrolment,
} from '@app/contracts';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { Executor } from '../../core/action';
import { APP_NAME } from '../../core/app-info';
import type { CurrentUser } from '../../core/context';
import { UnauthorizedError } from '../../core/errors';
import { twoFactorRecoveryCodes, users } from '../../db/schema';
import { readSetting } from '../preferences/settings';

const PERIOD_SECONDS = 30;
const STEP_MS = PERIOD_SECONDS * 1000;
/** How long the second step of a login may wait for its code. */
export const SECOND_STEP_SECONDS = 5 * 60;
export const RECOVERY_CODE_COUNT = 8;
/** No 0/O, 1/I: read from paper without doubt. 32 letters: 5 bits each. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const SECOND_STEP_EXPIRED = 'La verificación venció o no es válida: inicie sesión nuevamente';
export const WRONG_CODE = 'El código no es válido: revise la hora de su teléfono y escriba el código actual';
export const WRONG_RECOVERY_CODE = 'El código de recuperación no es válido o ya fue usado';

// ---------- the sealed secret ----------

const keys = new Map<string, Buffer>();
function sealKey(jwtSecret: string): Buffer {
  let key = keys.get(jwtSecret);
  if (!key) {
    key = createHash('sha256').update(`two_factor_secret:${jwtSecret}`).digest();
    keys.set(jwtSecret, key);
  }
  return key;
}

export function sealSecret(secret: string, jwtSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(jwtSecret), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
}

export function openSecret(sealed: string | null, jwtSecret: string): string | undefined {
  if (!sealed?.startsWith('v1.')) return undefined;
  try {
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(jwtSecret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

// ---------- TOTP ----------

function totp(secret: string, label = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: APP_NAME,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** A new secret: 160 random bits in base32 (what authenticator apps expect). */
export function newSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

/** The time step of a valid code (this step or the one before or after), or undefined. */
export function validStep(secret: string, code: string): number | undefined {
  const at = Date.now();
  const delta = totp(secret).validate({ token: code, timestamp: at, window: 1 });
  return delta === null ? undefined : Math.floor(at / STEP_MS) + delta;
}

/** What enrolment shows: the secret, its otpauth:// address and that address as a QR code (SVG). */
export async function enrolment(secret: string, username: string): Promise<TwoFactorEnrolment> {
  const otpauth_url = totp(secret, username).toString();
  const svg = await QRCode.toString(otpauth_url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauth_url, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Stores a new secret waiting for its first code (an enrolment not confirmed yet). */
export async function startEnrolment(
  db: Executor,
  jwtSecret: string,
  user: { id: number; username: string },
): Promise<TwoFactorEnrolment> {
  const secret = newSecret();
  await db
    .update(users)
    .set({
      two_factor_secret: sealSecret(secret, jwtSecret),
      two_factor_confirmed_at: null,
      two_factor_last_step: null,
    })
    .where(and(eq(users.id, user.id), isNull(users.two_factor_confirmed_at)));
  return enrolment(secret, user.username);
}

/**
 * Accepts a code of the user's secret once: the step is recorded only when it is newer than the
 * last accepted one (one conditional update, so two requests with one code cannot both pass).
 * `pending`: the secret of an enrolment not yet confirmed (confirming it sets confirmed_at).
 */
export async function acceptCode(
  db: Executor,
  jwtSecret: string,
  userId: number,
  code: string,
  pending = false,
): Promise<boolean> {
  const [row] = await db
    .select({ secret: users.two_factor_secret, confirmed: users.two_factor_confirmed_at })
    .from(users)
    .where(eq(users.id, userId));
  if (!row || (row.confirmed === null) !== pending) return false;
  const secret = openSecret(row.secret, jwtSecret);
  if (!secret) return false;
  const step = validStep(secret, code);
  if (step === undefined) return false;
  const [hit] = await db
    .update(users)
    .set({
      two_factor_last_step: step,
      ...(pending ? { two_factor_confirmed_at: new Date(), updated_at: new Date() } : {}),
    })
    .where(
      and(
        eq(users.id, userId),
        or(isNull(users.two_factor_last_step), lt(users.two_factor_last_step, step)),
        pending ? isNull(users.two_factor_confirmed_at) : sql`${users.two_factor_confirmed_at} is not null`,
      ),
    )
    .returning({ id: users.id });
  return !!hit;
}

// ---------- recovery codes ----------

const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashRecovery = (code: string) => createHash('sha256').update(normaliseRecovery(code)).digest('hex');

function recoveryCode(): string {
  let s = '';
  for (let i = 0; i < 16; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return s.match(/.{4}/g)!.join('-');
}

/** Replaces the user's recovery codes with new ones; answers them (the only time they are seen). */
export async function newRecoveryCodes(db: Executor, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId));
  await db
    .insert(twoFactorRecoveryCodes)
    .values(codes.map((c) => ({ user_id: userId, code_hash: hashRecovery(c) })));
  return codes;
}

/** Spends one recovery code (once: a conditional update). */
export async function useRecoveryCode(db: Executor, userId: number, code: string): Promise<boolean> {
  if (normaliseRecovery(code).length !== 16) return false;
  const [hit] = await db
    .update(twoFactorRecoveryCodes)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.user_id, userId),
        eq(twoFactorRecoveryCodes.code_hash, hashRecovery(code)),
        isNull(twoFactorRecoveryCodes.used_at),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return !!hit;
}

export async function recoveryCodesLeft(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(twoFactorRecoveryCodes)
    .where(and(eq(twoFactorRecoveryCodes.user_id, userId), isNull(twoFactorRecoveryCodes.used_at)));
  return row?.n ?? 0;
}

/** Removes the second factor (the user's own choice or an administrator's reset). */
export async function clearTwoFactor(db: Executor, userId: number): Promise<boolean> {
  await db.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId));
  const [row] = await db
    .update(users)
    .set({
      two_factor_secret: null,
      two_factor_confirmed_at: null,
      two_factor_last_step: null,
      updated_at: new Date(),
    })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return !!row;
}

// ---------- who must have one ----------

/** An administrator (TWO_FACTOR_ADMIN_PERMISSIONS) while the setting TWO_FACTOR_REQUIRED is on. */
export async function twoFactorRequired(
  db: Executor,
  user: Pick<CurrentUser, 'permissions'>,
): Promise<boolean> {
  if (!TWO_FACTOR_ADMIN_PERMISSIONS.some((p) => user.permissions.has(p))) return false;
  const setting = (await readSetting(db, TWO_FACTOR_REQUIRED_KEY))?.toLowerCase();
  return !['false', '0', 'no'].includes(setting ?? 'true');
}

// ---------- the second step's token ----------

/** What the token between the password and the code says: who, which step, remember me. */
export interface SecondStep {
  userId: number;
  tokenVersion: number;
  mode: 'code' | 'setup';
  rememberMe: boolean;
}

/**
 * A short-lived token for the second step only: it carries `mfa`, which `authenticate()` refuses,
 * so it never opens a session by itself.
 */
export function secondStepToken(app: FastifyInstance, step: SecondStep): string {
  return app.jwt.sign(
    { sub: String(step.userId), tv: step.tokenVersion, mfa: step.mode, rm: step.rememberMe },
    { expiresIn: SECOND_STEP_SECONDS },
  );
}

export function readSecondStep(app: FastifyInstance, token: string): SecondStep {
  let payload: Record<string, unknown>;
  try {
    payload = app.jwt.verify<Record<string, unknown>>(token);
  } catch {
    throw new UnauthorizedError(SECOND_STEP_EXPIRED);
  }
  const userId = Number(payload.sub);
  if (
    (payload.mfa !== 'code' && payload.mfa !== 'setup') ||
    !Number.isInteger(userId) ||
    typeof payload.tv !== 'number'
  )
    throw new UnauthorizedError(SECOND_STEP_EXPIRED);
  return { userId, tokenVersion: payload.tv, mode: payload.mfa, rememberMe: payload.rm === true };
}
