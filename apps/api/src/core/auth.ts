// Tokens and per-request authentication. A token carries the user id and its token_version;
// logout and password changes raise the version, so older tokens stop working. The user's
// permission set is cached in-process for a few seconds, keyed by id + token_version.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { PERMISSION_ACTION_LABELS, type PermissionAction, permissionTitles } from '@app/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { permissions, rolePermissions, roles, userRoles, users } from '../db/schema';
import type { Db } from '../db/types';
import type { CurrentUser } from './current-user';
import { redeemTicket, SESSION_QUERY_KEYS, TICKET_REFUSED } from './download-ticket';
import { ForbiddenError, UnauthorizedError } from './errors';

export const SHORT_SESSION_SECONDS = 8 * 3600;
export const LONG_SESSION_SECONDS = 30 * 24 * 3600;
const CACHE_TTL_MS = 5000;

interface TokenPayload {
  sub: string;
  tv: number;
  /** Set only on the token of a login's second step (security/two-factor.ts): never a session. */
  mfa?: unknown;
  iat?: number;
  exp?: number;
}

/** Clocks of the signing and checking instances may differ by this much. */
const CLOCK_SKEW_SECONDS = 60;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A file download: a link the browser opens may carry a download ticket (?ticket=, see
     * core/download-ticket); every other route reads the session only from the Authorization header.
     */
    allowQueryToken?: boolean;
  }
}

/** The route config of a download: `{ config: DOWNLOAD_ROUTE }`. */
export const DOWNLOAD_ROUTE = { allowQueryToken: true } as const;

// ---------- encrypted token (login's encrypted_access_token; no longer accepted in URLs) ----------
const encKeys = new Map<string, Buffer>();
function encKey(secret: string): Buffer {
  let key = encKeys.get(secret);
  if (!key) {
    key = createHash('sha256').update(`enc_auth_token:${secret}`).digest();
    encKeys.set(secret, key);
  }
  return key;
}

export function encryptToken(token: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encKey(secret), iv);
  const data = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
}

export function issueToken(
  app: FastifyInstance,
  user: { id: number; token_version: number },
  rememberMe: boolean,
): { access_token: string; encrypted_access_token: string; expire_in_seconds: number } {
  const expire = rememberMe ? LONG_SESSION_SECONDS : SHORT_SESSION_SECONDS;
  const access_token = app.jwt.sign({ sub: String(user.id), tv: user.token_version }, { expiresIn: expire });
  return {
    access_token,
    encrypted_access_token: encryptToken(access_token, app.ctx.jwtSecret),
    expire_in_seconds: expire,
  };
}

// ---------- user + permission cache ----------
const cache = new Map<number, { user: CurrentUser; at: number }>();

export function invalidateUser(id: number): void {
  cache.delete(id);
}

/** After a role or permission change: every cached user may be affected. */
export function invalidateAllUsers(): void {
  cache.clear();
}

/** The user of a token with its active roles' names and their permissions (one query). */
function userQuery(db: Db, id: number) {
  const ofUser = eq(userRoles.user_id, users.id);
  const activeRole = and(eq(roles.id, userRoles.role_id), eq(roles.active, true));
  const roleNames = db
    .select({ names: sql`array_agg(${roles.name} order by ${roles.name})` })
    .from(userRoles)
    .innerJoin(roles, activeRole)
    .where(ofUser);
  const permissionNames = db
    .select({ names: sql`array_agg(distinct ${permissions.name})` })
    .from(userRoles)
    .innerJoin(roles, activeRole)
    .innerJoin(rolePermissions, eq(rolePermissions.role_id, roles.id))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(ofUser);
  return db
    .select({
      id: users.id,
      username: users.username,
      full_name: users.full_name,
      email: users.email,
      dealer_id: users.dealer_id,
      token_version: users.token_version,
      active: users.active,
      roles: sql<string[] | null>`(${roleNames})`,
      permissions: sql<string[] | null>`(${permissionNames})`,
    })
    .from(users)
    .where(eq(users.id, id));
}

export async function loadCurrentUser(app: FastifyInstance, id: number): Promise<CurrentUser | undefined> {
  const [row] = await userQuery(app.ctx.handle.db, id);
  if (!row || !row.active) return undefined;
  return {
    id: row.id,
    username: row.username,
    fullName: row.full_name,
    email: row.email,
    dealerId: row.dealer_id,
    isDealer: row.dealer_id != null,
    tokenVersion: row.token_version,
    roles: row.roles ?? [],
    permissions: new Set(row.permissions ?? []),
  };
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (h && /^Bearer\s+/i.test(h)) return h.replace(/^Bearer\s+/i, '').trim() || undefined;
  return undefined;
}

/**
 * The caller of a download link without the header: its ticket (once, for this path), or 401
 * when the address carries the session itself (an old link with ?enc_auth_token=).
 */
async function ticketHolder(request: FastifyRequest): Promise<{ id: number; tv: number } | undefined> {
  if (!request.routeOptions.config?.allowQueryToken) return undefined;
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (SESSION_QUERY_KEYS.some((k) => query[k] !== undefined)) throw new UnauthorizedError(TICKET_REFUSED);
  const ticket = query.ticket;
  if (ticket === undefined) return undefined;
  if (typeof ticket !== 'string' || !ticket) throw new UnauthorizedError(TICKET_REFUSED);
  const { userId, tokenVersion } = await redeemTicket(request.server.ctx.handle.db, ticket, request.url);
  return { id: userId, tv: tokenVersion };
}

// ---------- verified tokens ----------
/**
 * A token is checked on every call; its payload, once verified, is kept (per app, so per secret)
 * until its exp or VERIFIED_TTL_MS, whichever comes first: checking the signature again costs
 * more than the rest of a small list call. Revocation does not depend on it (token_version).
 */
const VERIFIED_TTL_MS = 10 * 60_000;
const VERIFIED_MAX = 5000;
const verifiedByApp = new WeakMap<FastifyInstance, Map<string, { payload: TokenPayload; until: number }>>();

function verifyToken(app: FastifyInstance, token: string): TokenPayload {
  let verified = verifiedByApp.get(app);
  if (!verified) {
    verified = new Map();
    verifiedByApp.set(app, verified);
  }
  const now = Date.now();
  const hit = verified.get(token);
  if (hit && hit.until > now) return hit.payload;
  verified.delete(token);
  const payload = app.jwt.verify<TokenPayload>(token);
  const exp = typeof payload.exp === 'number' ? payload.exp * 1000 : now;
  // The oldest entry goes first when full (a Map keeps insertion order).
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, { payload, until: Math.min(exp, now + VERIFIED_TTL_MS) });
  return payload;
}

/** The user of a request's token, or undefined without a token; a bad token throws 401. */
export async function authenticate(request: FastifyRequest): Promise<CurrentUser | undefined> {
  const token = bearer(request);
  if (!token) {
    const holder = await ticketHolder(request);
    return holder && sessionUser(request, holder.id, holder.tv);
  }
  let payload: TokenPayload;
  try {
    payload = verifyToken(request.server, token);
  } catch {
    throw new UnauthorizedError();
  }
  // Every token this server issues carries iat and exp within the longest session: one without
  // them, issued in the future or living longer was not made by issueToken().
  const now = Math.floor(Date.now() / 1000);
  if (
    typeof payload.exp !== 'number' ||
    typeof payload.iat !== 'number' ||
    payload.iat > now + CLOCK_SKEW_SECONDS ||
    payload.exp - payload.iat > LONG_SESSION_SECONDS
  )
    throw new UnauthorizedError();
  const id = Number(payload.sub);
  if (!Number.isInteger(id) || typeof payload.tv !== 'number' || payload.mfa !== undefined)
    throw new UnauthorizedError();
  return sessionUser(request, id, payload.tv);
}

/** The user `id` while its sessions of version `tv` last (logout and password changes end them). */
async function sessionUser(request: FastifyRequest, id: number, tv: number): Promise<CurrentUser> {
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < CACHE_TTL_MS && hit.user.tokenVersion === tv) return hit.user;
  const user = await loadCurrentUser(request.server, id);
  if (!user || user.tokenVersion !== tv) {
    cache.delete(id);
    throw new UnauthorizedError();
  }
  cache.set(id, { user, at: Date.now() });
  return user;
}

/** preHandler: a valid token is required. */
export async function requireAuth(request: FastifyRequest, _reply?: FastifyReply): Promise<void> {
  const user = await authenticate(request);
  if (!user) throw new UnauthorizedError('Debe iniciar sesión para continuar');
  request.auth = user;
}

/** preHandler: a token is optional (public answers differ from signed-in ones). */
export async function optionalAuth(request: FastifyRequest): Promise<void> {
  try {
    request.auth = (await authenticate(request)) ?? null;
  } catch {
    request.auth = null;
  }
}

/** Screen titles by permission base, so a 403 names what the user sees in the menu. */
const titles = permissionTitles();

export function forbidden(permission: string): ForbiddenError {
  const action = permission.split('.').pop() ?? '';
  const base = permission.slice(0, permission.length - action.length - 1);
  const verb = Object.hasOwn(PERMISSION_ACTION_LABELS, action)
    ? PERMISSION_ACTION_LABELS[action as PermissionAction].toLowerCase()
    : undefined;
  return new ForbiddenError(
    verb
      ? `No tiene permiso para ${verb} ${titles.get(base) ?? base}`
      : `No tiene permiso para ${permission}`,
    `Permiso requerido: ${permission}`,
  );
}

export function assertPermission(user: CurrentUser, permission: string): void {
  if (!user.permissions.has(permission)) throw forbidden(permission);
}

/** The signed-in user of a request that went through requireAuth/requirePermission. */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.auth) throw new UnauthorizedError('Debe iniciar sesión para continuar');
  return request.auth;
}
