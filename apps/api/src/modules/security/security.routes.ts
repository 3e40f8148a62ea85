// Special calls of SPEC §7 "Roles, tabs, users": permissions per role, the tab trees, the own
// profile and an administrator's password reset.
import {
  PERMISSION_ACTIONS,
  type PermissionTreeNode,
  permissionChangeSchema,
  profileSchema,
  resetPasswordSchema,
  type TabNode,
} from '@app/contracts';
import { verify } from '@node-rs/argon2';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { writeAudit } from '../../core/audit';
import {
  currentUser,
  invalidateAllUsers,
  invalidateUser,
  issueToken,
  requireAuth,
  requirePermission,
} from '../../core/auth';
import { ok } from '../../core/envelope';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors';
import { parseBody, parseId, type QueryParams, qs } from '../../core/http';
import { perAddressLimit } from '../../core/rate-limit';
import { permissions, rolePermissions, roles, tabs, users } from '../../db/schema';
import { assertLoginNamesFree, normaliseEmail } from './login-names';
import { hashPassword } from './security.resources';

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

async function allTabs(db: any, onlyActive: boolean): Promise<TabRow[]> {
  const q = db.select().from(tabs);
  return (onlyActive ? q.where(eq(tabs.active, true)) : q).orderBy(asc(tabs.order), asc(tabs.id));
}

async function checkPermissionNames(db: any, names: string[]): Promise<{ id: number; name: string }[]> {
  const unique = [...new Set(names)];
  if (!unique.length) return [];
  const found = await db
    .select({ id: permissions.id, name: permissions.name })
    .from(permissions)
    .where(inArray(permissions.name, unique));
  const known = new Set(found.map((f: { name: string }) => f.name));
  const unknown = unique.filter((n) => !known.has(n));
  if (unknown.length)
    throw ValidationError.field('permissions', `Permisos desconocidos: ${unknown.join(', ')}`);
  return found;
}

async function assertRole(db: any, roleId: number): Promise<void> {
  const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
  if (!role) throw new NotFoundError('El rol no existe');
}

/** The permission names a role holds, by name. */
async function grantedNames(db: any, roleId: number): Promise<string[]> {
  const rows = await db
    .select({ name: permissions.name })
    .from(rolePermissions)
    .innerJoin(permissions, eq(rolePermissions.permission_id, permissions.id))
    .where(eq(rolePermissions.role_id, roleId))
    .orderBy(asc(permissions.name));
  return rows.map((g: { name: string }) => g.name);
}

export function securityRoutes(app: FastifyInstance): void {
  const db = () => app.ctx.handle.db as any;
  const tags = ['Seguridad'];

  app.get(
    '/api/tabs/menu',
    { preHandler: requireAuth, schema: { tags, summary: 'Menu del usuario (pestañas que puede ver)' } },
    async (request) => {
      const user = currentUser(request);
      const rows = await allTabs(db(), true);
      return ok(buildTabTree(rows, (t) => !!t.permission && user.permissions.has(`${t.permission}.view`)));
    },
  );

  app.get(
    '/api/tabs-tree',
    { preHandler: requireAuth, schema: { tags, summary: 'Arbol completo de pestañas' } },
    async (request) => {
      const user = currentUser(request);
      if (!user.permissions.has('Admin.Tabs.view') && !user.permissions.has('Admin.Roles.view')) {
        throw new ForbiddenError(
          'No tiene permiso para ver Admin.Tabs',
          'Permiso requerido: Admin.Tabs.view',
        );
      }
      return ok(buildTabTree(await allTabs(db(), false)));
    },
  );

  app.get(
    '/api/get-permissions',
    {
      preHandler: requirePermission('Admin.Roles.view'),
      schema: { tags, summary: 'Permisos de un rol y arbol' },
    },
    async (request) => {
      const raw = qs(request.query as QueryParams, 'role_id');
      if (raw === undefined) throw ValidationError.field('role_id', 'Rol es obligatorio');
      const roleId = parseId(raw);
      await assertRole(db(), roleId);
      const names: string[] = (await db().select({ name: permissions.name }).from(permissions)).map(
        (p: { name: string }) => p.name,
      );
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
          permissions: n.permission
            ? (byBase.get(n.permission) ?? []).sort((a, b) => order(a) - order(b))
            : [],
          children: withPermissions(n.children),
        }));
      return ok({
        granted: await grantedNames(db(), roleId),
        all: withPermissions(buildTabTree(await allTabs(db(), false))),
      });
    },
  );

  const changePermissions = (grant: boolean) => async (request: any) => {
    const user = currentUser(request);
    const body = parseBody(permissionChangeSchema, request.body);
    await assertRole(db(), body.role_id);
    const found = await checkPermissionNames(db(), body.permissions);
    await db().transaction(async (tx: any) => {
      if (found.length) {
        if (grant) {
          await tx
            .insert(rolePermissions)
            .values(found.map((p) => ({ role_id: body.role_id, permission_id: p.id })))
            .onConflictDoNothing();
        } else {
          await tx.delete(rolePermissions).where(
            and(
              eq(rolePermissions.role_id, body.role_id),
              inArray(
                rolePermissions.permission_id,
                found.map((p) => p.id),
              ),
            ),
          );
        }
      }
      await writeAudit(tx, {
        user,
        resource: 'roles',
        recordId: body.role_id,
        action: grant ? 'grant' : 'revoke',
        after: { permissions: found.map((p) => p.name) },
      });
    });
    invalidateAllUsers();
    return ok({ role_id: body.role_id, granted: await grantedNames(db(), body.role_id) });
  };

  app.put(
    '/api/save-permission',
    {
      preHandler: requirePermission('Admin.Roles.update'),
      schema: { tags, summary: 'Concede permisos a un rol' },
    },
    changePermissions(true),
  );
  app.put(
    '/api/revoke-permission',
    {
      preHandler: requirePermission('Admin.Roles.update'),
      schema: { tags, summary: 'Retira permisos de un rol' },
    },
    changePermissions(false),
  );

  // The own profile: name, email, avatar and, with the current password, a new password.
  app.put(
    '/api/user/:id',
    {
      preHandler: requireAuth,
      // It checks a password and refuses an e-mail in use: limited per address like the login.
      config: { rateLimit: perAddressLimit('login') },
      schema: { tags, summary: 'Actualiza el perfil propio' },
    },
    async (request) => {
      const me = currentUser(request);
      const id = parseId((request.params as { id: string }).id);
      if (id !== me.id) throw new ForbiddenError('Solo puede modificar su propio perfil');
      const body = parseBody(profileSchema, request.body);
      const [before] = await db().select().from(users).where(eq(users.id, id));
      if (!before) throw new NotFoundError();
      const set: Record<string, unknown> = {};
      if (body.full_name !== undefined) set.full_name = body.full_name;
      if (body.email !== undefined) {
        set.email = normaliseEmail(body.email);
        await assertLoginNamesFree(db(), id, { email: set.email as string });
      }
      if (body.avatar_url !== undefined) set.avatar_url = body.avatar_url;
      if (body.password) {
        if (!body.current_password) {
          throw ValidationError.field('current_password', 'Contraseña actual es obligatorio');
        }
        const valid = await verify(before.password_hash, body.current_password).catch(() => false);
        if (!valid) throw ValidationError.field('current_password', 'La contraseña actual no es correcta');
        set.password_hash = await hashPassword(body.password);
        set.token_version = sql`${users.token_version} + 1`;
      }
      const after = await db().transaction(async (tx: any) => {
        if (Object.keys(set).length) {
          await tx
            .update(users)
            .set({ ...set, updated_at: new Date() })
            .where(eq(users.id, id));
        }
        const [row] = await tx.select().from(users).where(eq(users.id, id));
        const { password_hash: _a, token_version: _b, ...safeBefore } = before;
        const { password_hash: _c, token_version: _d, ...safeAfter } = row;
        await writeAudit(tx, {
          user: me,
          resource: 'users',
          recordId: id,
          action: 'profile',
          before: safeBefore,
          after: safeAfter,
        });
        return row;
      });
      invalidateUser(id);
      const { password_hash: _h, token_version: _t, ...profile } = after;
      // A password change ends the old sessions; the caller gets a fresh token to stay signed in.
      const session = body.password ? issueToken(app, after, false) : undefined;
      return ok({ ...profile, ...(session ?? {}) });
    },
  );

  app.put(
    '/api/users/:id/reset-password',
    {
      preHandler: requirePermission('Admin.Users.update'),
      schema: { tags, summary: 'Un administrador fija una contraseña nueva' },
    },
    async (request) => {
      const me = currentUser(request);
      const id = parseId((request.params as { id: string }).id);
      const body = parseBody(resetPasswordSchema, request.body);
      const password_hash = await hashPassword(body.password);
      await db().transaction(async (tx: any) => {
        const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id));
        if (!row) throw new NotFoundError();
        await tx
          .update(users)
          .set({ password_hash, token_version: sql`${users.token_version} + 1`, updated_at: new Date() })
          .where(eq(users.id, id));
        await writeAudit(tx, { user: me, resource: 'users', recordId: id, action: 'reset-password' });
      });
      invalidateUser(id);
      return ok(true);
    },
  );
}
