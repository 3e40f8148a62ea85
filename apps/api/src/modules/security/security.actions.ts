// The security calls beyond CRUD, declared on the engine (core/action): login, logout and the
// session information (SPEC §7 Auth), the menu and tab trees, permissions per role, the own
// profile and an administrator's password reset (SPEC §7 "Roles, tabs, users").
//
// Failed logins lock the account (whatever name was typed: user name or e-mail) through the
// login_attempts table, so every instance sees the same count; each address is also limited per
// minute (rateLimit 'login', counted in the database and shared by the instances).
import {
  securityCalls as calls,
  type LoginInformation,
  messages,
  PERMISSION_ACTIONS,
  type PermissionTreeNode,
  type TabNode,
} from '@app/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { defineAction, type Executor } from '../../core/action';
import { APP_NAME, APP_VERSION } from '../../core/app-info';
import { invalidateAllUsers, invalidateUser, issueToken, loadCurrentUser } from '../../core/auth';
import {
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../../core/errors';
import { parseId } from '../../core/http';
import { verifyPassword } from '../../core/passwords';
import { companies, loginAttempts, permissions, rolePermissions, roles, tabs, users } from '../../db/schema';
import { assertLoginNamesFree, normaliseEmail, normaliseLoginName } from './login-names';
import { hashPassword } from './security.resources';
import { SECOND_STEP_SECONDS, secondStepToken, twoFactorRequired } from './two-factor';

// ---------- login lockout ----------

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
export const THROTTLE_MESSAGE = `Demasiados intentos fallidos. Intente nuevamente en ${LOCK_MINUTES} minutos.`;
/**
 * Five sign-ins of the account still being checked, for longer than the wait allows (a server
 * saturated by password checks): not a lockout, so it does not say the attempts failed.
 */
export const BUSY_LOGIN_MESSAGE =
  'Se están verificando otros inicios de sesión de esta cuenta. Intente nuevamente en unos segundos.';
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

/**
 * An attempt whose password is still being checked (succeeded null) for at most this long; an
 * older one (its server stopped mid-check) counts as a failure.
 */
const IN_FLIGHT_MS = 30_000;

/**
 * 'locked' when the last 5 failures (since the last success) fall within 15 minutes of now;
 * 'busy' when failures and attempts still being checked reach 5 (the next one waits for them, so
 * parallel guesses cannot pass the count, while parallel right passwords are not refused);
 * otherwise 'open'.
 */
async function lockState(db: Executor, who: SQL): Promise<'open' | 'busy' | 'locked'> {
  const now = Date.now();
  const since = new Date(now - LOCK_MINUTES * 60_000);
  const recent = await db
    .select({ succeeded: loginAttempts.succeeded, at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(who, gt(loginAttempts.at, since)))
    .orderBy(desc(loginAttempts.at))
    .limit(MAX_FAILED_LOGINS);
  let failures = 0;
  let checking = 0;
  for (const r of recent) {
    if (r.succeeded) break;
    if (r.succeeded === null && new Date(r.at).getTime() > now - IN_FLIGHT_MS) checking++;
    else failures++;
  }
  if (failures >= MAX_FAILED_LOGINS) return 'locked';
  return failures + checking >= MAX_FAILED_LOGINS ? 'busy' : 'open';
}

/** Locked, or as many attempts in flight as the lockout allows (the second step's rule). */
async function isLocked(db: Executor, who: SQL): Promise<boolean> {
  return (await lockState(db, who)) !== 'open';
}

/**
 * The account a typed name designates: a user name first (whatever its case), else an e-mail
 * (trimmed, lower-cased). Names are unique that way, so there is never a choice between two.
 */
async function resolveAccount(db: Executor, name: string) {
  const byName = sql`lower(${users.username}) = ${name}`;
  const [user] = await db
    .select({
      id: users.id,
      password_hash: users.password_hash,
      token_version: users.token_version,
      active: users.active,
      confirmed: users.confirmed,
      two_factor_confirmed_at: users.two_factor_confirmed_at,
    })
    .from(users)
    .where(sql`${byName} or lower(btrim(${users.email})) = ${name}`)
    .orderBy(desc(byName), asc(users.id))
    .limit(1);
  return user;
}

/** Deletes attempts older than a day (an index range on `at`: cheap when there are none). */
export async function pruneLoginAttempts(db: Executor): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.at, new Date(Date.now() - ATTEMPTS_KEPT_HOURS * 3600_000)));
}

// ---------- tabs and permissions ----------

type TabRow = typeof tabs.$inferSelect;

export function buildTabTree(rows: TabRow[], visible: (t: TabRow) => boolean = () => true): TabNode[] {
  const byParent = new Map<number | null, TabRow[]>();
  for (const r of rows) {
    const list = byParent.get(r.parent_id ?? null) ?? [];
    list.push(r);
    byParent.set(r.parent_id ?? null, list);
  }
  const build = (parent: number | null, depth: number): TabNode[] => {
    if (depth > 10) return [];
    const out: TabNode[] = [];
    for (const t of byParent.get(parent) ?? []) {
      const children = build(t.id, depth + 1);
      const isGroup = (byParent.get(t.id)?.length ?? 0) > 0;
      // A group shows when one of its children shows; a screen when the user may view it.
      const shows = isGroup ? children.length > 0 || (!!t.permission && visible(t)) : visible(t);
      if (!shows) continue;
      out.push({
        id: t.id,
        name: t.name,
        title: t.title,
        path: t.path,
        icon: t.icon,
        permission: t.permission,
        children,
      });
    }
    return out;
  };
  return build(null, 0);
}

async function allTabs(db: Executor, onlyActive: boolean): Promise<TabRow[]> {
  return db
    .select()
    .from(tabs)
    .where(onlyActive ? eq(tabs.active, true) : undefined)
    .orderBy(asc(tabs.order), asc(tabs.id));
}

async function checkPermissionNames(db: Executor, names: string[]): Promise<{ id: number; name: string }[]> {
  const unique = [...new Set(names)];
  if (!unique.length) return [];
  const found = await db
    .select({ id: permissions.id, name: permissions.name })
    .from(permissions)
    .where(inArray(permissions.name, unique));
  const known = new Set(found.map((f) => f.name));
  const unknown = unique.filter((n) => !known.has(n));
  if (unknown.length)
    throw ValidationError.field('permissions', `Permisos desconocidos: ${unknown.join(', ')}`);
  return found;
}

async function assertRole(db: Executor, roleId: number): Promise<void> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
  if (!role) throw new NotFoundError('El rol no existe');
}

/** The permission names a role holds, by name. */
async function grantedNames(db: Executor, roleId: number): Promise<string[]> {
  const rows = await db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(rolePermissions.permission_id, permissions.id))
    .where(eq(rolePermissions.role_id, roleId))
    .orderBy(asc(permissions.name));
  return rows.map((g) => g.name);
}

// ---------- auth ----------

const authTags = ['Auth'];

const login = defineAction({
  ...calls.login,
  summary: 'Inicia sesión',
  tags: authTags,
  access: 'public',
  audit: { exempt: 'El inicio de sesión: cuenta los intentos, no cambia datos del negocio' },
  rateLimit: 'login',
  async handler({ app, request, body, db }) {
    const name = normaliseLoginName(body.username);
    const user = await resolveAccount(db, name);
    const who = attemptsOf(user?.id, name);
    // Check and count in one step per account: under a transaction-scoped advisory lock on the
    // account's key, the attempt is recorded as a failure before the password is checked (and
    // marked a success after), so parallel guesses cannot all pass the count: at most
    // MAX_FAILED_LOGINS reach the password check. The lock is held only for the count and insert.
    // An attempt is recorded as being checked (succeeded null); while five are in flight or
    // failed, the next waits for them to end (a failure locks, a success frees), up to IN_FLIGHT_MS.
    const key = user ? `login:user:${user.id}` : `login:name:${name}`;
    const waitUntil = Date.now() + IN_FLIGHT_MS;
    let attemptId: number | undefined;
    while (attemptId === undefined) {
      const taken = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
        const state = await lockState(tx, who);
        if (state !== 'open') return state;
        const [row] = await tx
          .insert(loginAttempts)
          .values({ username: name, user_id: user?.id ?? null, succeeded: null, ip: request.ip })
          .returning({ id: loginAttempts.id });
        return row!.id;
      });
      if (typeof taken === 'number') attemptId = taken;
      else if (taken === 'locked') throw new TooManyRequestsError(THROTTLE_MESSAGE);
      else if (Date.now() > waitUntil) throw new TooManyRequestsError(BUSY_LOGIN_MESSAGE);
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let valid = false;
    try {
      valid = await verifyPassword(user?.password_hash ?? DUMMY_HASH, body.password);
    } catch {
      valid = false;
    }
    // Only someone who knows the password learns that the account waits for confirmation.
    const unconfirmed = !!user && user.active && valid && !user.confirmed;
    const succeeded = !!user && user.active && valid && !unconfirmed;
    // A right password of an enrolled account stays "being checked" until the row is removed below.
    if (!succeeded || !user?.two_factor_confirmed_at)
      await db.update(loginAttempts).set({ succeeded }).where(eq(loginAttempts.id, attemptId));
    // Every attempt (failures and unknown names included) sweeps the rows older than a day, so
    // a password spray leaves nothing behind for long.
    await pruneLoginAttempts(db);
    if (unconfirmed) throw new UnauthorizedError(messages.accountNotConfirmed);
    if (!succeeded || !user) throw new UnauthorizedError(messages.loginFailed);
    // A second factor: the password opens only the second step (a short-lived token). The
    // attempt is neither a success nor a failure until the code says (a right password must not
    // reset the count of wrong codes), so it is removed.
    const enrolled = user.two_factor_confirmed_at !== null;
    const current = enrolled ? undefined : await loadCurrentUser(app, user.id);
    if (enrolled || (current && (await twoFactorRequired(db, current)))) {
      await db.delete(loginAttempts).where(eq(loginAttempts.id, attemptId));
      return {
        two_factor: enrolled ? 'code' : 'setup',
        two_factor_token: secondStepToken(app, {
          userId: user.id,
          tokenVersion: user.token_version,
          mode: enrolled ? 'code' : 'setup',
          rememberMe: body.rememberMe === true,
        }),
        expire_in_seconds: SECOND_STEP_SECONDS,
      };
    }
    return issueToken(app, user, body.rememberMe === true);
  },
});

const logout = defineAction({
  ...calls.logout,
  summary: 'Cierra la sesión (invalida los tokens emitidos)',
  tags: authTags,
  access: 'login',
  audit: { exempt: 'Cierra la propia sesión (invalida los tokens propios)' },
  async handler({ user, db }) {
    await db
      .update(users)
      .set({ token_version: sql`${users.token_version} + 1` })
      .where(eq(users.id, user.id));
    invalidateUser(user.id);
    return true;
  },
});

const loginInformation = defineAction({
  ...calls.loginInformation,
  summary: 'Sesión: aplicación, usuario y empresa',
  tags: authTags,
  access: 'login',
  async handler({ user: me, db }) {
    const [row] = await db
      .select({ avatar_url: users.avatar_url, default_tab: users.default_tab })
      .from(users)
      .where(eq(users.id, me.id));
    const [company] = await db
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
    return info;
  },
});

// ---------- menu, tabs, permissions ----------

const tags = ['Seguridad'];

const menu = defineAction({
  ...calls.menu,
  summary: 'Menú del usuario (pestañas que puede ver)',
  tags,
  access: 'login',
  async handler({ user, db }) {
    const rows = await allTabs(db, true);
    return buildTabTree(rows, (t) => !!t.permission && user.permissions.has(`${t.permission}.view`));
  },
});

const tabsTree = defineAction({
  ...calls.tabsTree,
  summary: 'Árbol completo de pestañas',
  tags,
  // The tabs screen and the roles screen (its permission tree) both read it.
  access: { permission: 'Admin.Tabs.view', or: ['Admin.Roles.view'] },
  async handler({ db }) {
    return buildTabTree(await allTabs(db, false));
  },
});

const getPermissions = defineAction({
  ...calls.permissions,
  summary: 'Permisos de un rol y árbol',
  tags,
  access: { permission: 'Admin.Roles.view' },
  async handler({ query, db }) {
    const roleId = parseId(query.role_id);
    await assertRole(db, roleId);
    const names = (await db.select({ name: permissions.name }).from(permissions)).map((p) => p.name);
    const byBase = new Map<string, string[]>();
    for (const n of names) {
      const action = n.slice(n.lastIndexOf('.') + 1);
      if (!(PERMISSION_ACTIONS as readonly string[]).includes(action)) continue;
      const base = n.slice(0, n.lastIndexOf('.'));
      byBase.set(base, [...(byBase.get(base) ?? []), n]);
    }
    const order = (n: string) => PERMISSION_ACTIONS.indexOf(n.slice(n.lastIndexOf('.') + 1) as never);
    const withPermissions = (nodes: TabNode[]): PermissionTreeNode[] =>
      nodes.map((n) => ({
        ...n,
        permissions: n.permission ? (byBase.get(n.permission) ?? []).sort((a, b) => order(a) - order(b)) : [],
        children: withPermissions(n.children),
      }));
    return {
      granted: await grantedNames(db, roleId),
      all: withPermissions(buildTabTree(await allTabs(db, false))),
    };
  },
});

/** Grants or revokes permissions of a role; the audit row names the permissions given. */
const changePermissions = (grant: boolean) =>
  defineAction({
    ...(grant ? calls.grant : calls.revoke),
    summary: grant ? 'Concede permisos a un rol' : 'Retira permisos de un rol',
    tags,
    access: { permission: 'Admin.Roles.update' },
    audit: { resource: 'roles', action: grant ? 'grant' : 'revoke' },
    async handler({ body, db, write }) {
      await assertRole(db, body.role_id);
      const found = await checkPermissionNames(db, body.permissions);
      const ids = found.map((p) => p.id);
      await write(
        async (tx) => {
          if (!found.length) return;
          if (grant) {
            await tx
              .insert(rolePermissions)
              .values(ids.map((permission_id) => ({ role_id: body.role_id, permission_id })))
              .onConflictDoNothing();
          } else {
            await tx
              .delete(rolePermissions)
              .where(
                and(eq(rolePermissions.role_id, body.role_id), inArray(rolePermissions.permission_id, ids)),
              );
          }
        },
        () => ({ recordId: body.role_id, after: { permissions: found.map((p) => p.name) } }),
      );
      invalidateAllUsers();
      return { role_id: body.role_id, granted: await grantedNames(db, body.role_id) };
    },
  });

// ---------- users ----------

/** A user row without what is never answered nor audited. */
function safeUser(row: typeof users.$inferSelect) {
  const {
    password_hash: _h,
    token_version: _t,
    two_factor_secret: _s,
    two_factor_last_step: _l,
    ...rest
  } = row;
  return rest;
}

// The own profile: name, email, avatar and, with the current password, a new password.
const profile = defineAction({
  ...calls.profile,
  summary: 'Actualiza el perfil propio',
  tags,
  access: 'login',
  // Another user's id is refused before the body is read.
  authorize({ user, params }) {
    if (parseId(params.id) !== user.id) throw new ForbiddenError('Solo puede modificar su propio perfil');
  },
  // It checks a password and refuses an e-mail in use: limited per address like the login.
  rateLimit: 'login',
  audit: { resource: 'users', action: 'profile' },
  async handler({ app, user: me, body, db, write }) {
    const id = me.id;
    const [before] = await db.select().from(users).where(eq(users.id, id));
    if (!before) throw new NotFoundError();
    const set: PgUpdateSetSource<typeof users> = {};
    if (body.full_name !== undefined) set.full_name = body.full_name;
    // A new e-mail is a new login name (and where reset links go): it asks for the current
    // password, like a new password does.
    const email = body.email !== undefined ? normaliseEmail(body.email) : undefined;
    const emailChanges = email !== undefined && email !== normaliseEmail(before.email ?? '');
    if (emailChanges || body.password) {
      if (!body.current_password) {
        throw ValidationError.field(
          'current_password',
          emailChanges && !body.password
            ? 'Contraseña actual es obligatorio para cambiar el Email'
            : 'Contraseña actual es obligatorio',
        );
      }
      const valid = await verifyPassword(before.password_hash, body.current_password).catch(() => false);
      if (!valid) throw ValidationError.field('current_password', 'La contraseña actual no es correcta');
    }
    if (email !== undefined) {
      await assertLoginNamesFree(db, id, { email });
      set.email = email;
    }
    if (body.avatar_url !== undefined) set.avatar_url = body.avatar_url;
    if (body.password) {
      set.password_hash = await hashPassword(body.password);
      set.token_version = sql`${users.token_version} + 1`;
    }
    const after = await write(
      async (tx) => {
        if (Object.keys(set).length) {
          await tx
            .update(users)
            .set({ ...set, updated_at: new Date() })
            .where(eq(users.id, id));
        }
        const [row] = await tx.select().from(users).where(eq(users.id, id));
        return row;
      },
      (row) => ({ recordId: id, before: safeUser(before), after: safeUser(row) }),
    );
    invalidateUser(id);
    // A password change ends the old sessions; the caller gets a fresh token to stay signed in.
    const session = body.password ? issueToken(app, after, false) : undefined;
    return { ...safeUser(after), ...(session ?? {}) };
  },
});

const resetPassword = defineAction({
  ...calls.resetPassword,
  summary: 'Un administrador fija una contraseña nueva',
  tags,
  access: { permission: 'Admin.Users.update' },
  audit: { resource: 'users', action: 'reset-password' },
  async handler({ params, body, write }) {
    const id = parseId(params.id);
    const password_hash = await hashPassword(body.password);
    await write(
      async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ password_hash, token_version: sql`${users.token_version} + 1`, updated_at: new Date() })
          .where(eq(users.id, id))
          .returning({ id: users.id });
        if (!row) throw new NotFoundError();
      },
      () => ({ recordId: id }),
    );
    invalidateUser(id);
    return true;
  },
});

export { attemptsOf, isLocked };

export const securityActions = [
  login,
  logout,
  loginInformation,
  menu,
  tabsTree,
  getPermissions,
  changePermissions(true),
  changePermissions(false),
  profile,
  resetPassword,
];
