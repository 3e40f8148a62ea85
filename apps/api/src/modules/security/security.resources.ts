// Security resources: users (password hashing, roles), roles, tabs (menu tree), audit logs.
import { AUDIT_RESOURCES, auditLogContract, roleContract, tabContract, userContract } from '@app/contracts';
import { eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { invalidateAllUsers, invalidateUser } from '../../core/auth';
import { ConflictError, ValidationError } from '../../core/errors';
import { hashPassword } from '../../core/passwords';
import { defineResource, fromContract } from '../../core/resource';
import {
  auditLogs,
  dealers,
  permissions,
  rolePermissions,
  roles,
  tabs,
  userRoles,
  users,
} from '../../db/schema';
import { assertLoginNamesFree, normaliseEmail } from './login-names';

export { hashPassword };

export const userResource = defineResource({
  ...fromContract(userContract),
  table: users,
  hidden: ['password_hash', 'token_version', 'two_factor_secret', 'two_factor_last_step'],
  joins: [{ table: dealers, on: eq(users.dealer_id, dealers.id) }],
  display: {
    dealer_name: dealers.name,
    role_names: sql<string | null>`(select string_agg(r.name, ', ' order by r.name) from user_roles ur
      join roles r on r.id = ur.role_id where ur.user_id = ${users.id})`,
  },
  listColumns: [
    'id',
    'username',
    'full_name',
    'email',
    'dealer_name',
    'role_names',
    'confirmed',
    'active',
    'created_at',
    'two_factor_confirmed_at',
  ],
  hooks: {
    async beforeSave(data, ctx) {
      if (ctx.action === 'create' && !data.password) {
        throw ValidationError.field('password', 'Contraseña es obligatorio');
      }
      if (data.password) {
        data.password_hash = await hashPassword(data.password);
        // A new password ends every session opened with the old one.
        if (ctx.action === 'update') data.token_version = sql`${users.token_version} + 1`;
      }
      delete data.password;
      if (ctx.action === 'update' && ctx.id === ctx.user.id && data.active === false) {
        throw ValidationError.field('active', 'No puede deshabilitar su propio usuario');
      }
      if (typeof data.email === 'string') data.email = normaliseEmail(data.email);
      await assertLoginNamesFree(ctx.tx, ctx.id, { username: data.username, email: data.email });
      return data;
    },
    async afterSave(_row, ctx) {
      const roleIds = ctx.input.roles as number[] | undefined;
      if (roleIds) {
        await ctx.tx.delete(userRoles).where(eq(userRoles.user_id, ctx.id));
        const unique = [...new Set(roleIds)];
        const known = unique.length
          ? await ctx.tx.select({ id: roles.id }).from(roles).where(inArray(roles.id, unique))
          : [];
        if (known.length !== unique.length) throw ValidationError.field('roles', 'Rol no existe');
        if (unique.length)
          await ctx.tx.insert(userRoles).values(unique.map((role_id) => ({ user_id: ctx.id, role_id })));
      }
      invalidateUser(ctx.id);
    },
    beforeDelete(ctx) {
      if (ctx.id === ctx.user.id) throw new ConflictError('No puede eliminar su propio usuario');
      invalidateUser(ctx.id);
    },
    async afterLoad(row, db) {
      const rs = await db
        .select({ id: userRoles.role_id })
        .from(userRoles)
        .where(eq(userRoles.user_id, row.id));
      return { ...row, roles: rs.map((r: { id: number }) => r.id) };
    },
  },
});

export const roleResource = defineResource({
  ...fromContract(roleContract),
  table: roles,
  display: {
    users_count: sql<number>`(select count(*)::int from user_roles ur where ur.role_id = ${roles.id})`,
  },
  hooks: {
    beforeSave(data, ctx) {
      if (ctx.action === 'update' && ctx.before?.is_static && data.name && data.name !== ctx.before.name) {
        throw ValidationError.field('name', 'No se puede renombrar un rol del sistema');
      }
      return data;
    },
    afterSave() {
      invalidateAllUsers();
    },
    beforeDelete(ctx) {
      if (ctx.before.is_static) throw new ConflictError('No se puede eliminar un rol del sistema');
      invalidateAllUsers();
    },
    async afterLoad(row, db) {
      const granted = await db
        .select({ name: permissions.name })
        .from(rolePermissions)
        .innerJoin(permissions, eq(rolePermissions.permission_id, permissions.id))
        .where(eq(rolePermissions.role_id, row.id))
        .orderBy(permissions.name);
      return { ...row, permissions: granted.map((g: { name: string }) => g.name) };
    },
  },
});

const parentTab = alias(tabs, 'parent_tab');

export const tabResource = defineResource({
  ...fromContract(tabContract),
  table: tabs,
  joins: [{ table: parentTab, on: eq(tabs.parent_id, parentTab.id) }],
  display: { parent_title: parentTab.title },
  hooks: {
    beforeSave(data, ctx) {
      if (ctx.action === 'update' && data.parent_id && data.parent_id === ctx.id) {
        throw ValidationError.field('parent_id', 'Un menú no puede ser su propio padre');
      }
      return data;
    },
    async beforeDelete(ctx) {
      const [child] = await ctx.tx
        .select({ id: tabs.id })
        .from(tabs)
        .where(eq(tabs.parent_id, ctx.id))
        .limit(1);
      if (child) throw new ConflictError('No se puede eliminar: el registro está en uso en Menú');
    },
  },
});

const dateParam = (name: string, value: string): Date => {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(Date.parse(value))) {
    throw ValidationError.field(`filter.${name}`, 'Formato de fecha YYYY-MM-DD');
  }
  // A day is Lima's day, whatever the server's time zone.
  return new Date(value.length === 10 ? `${value}T00:00:00-05:00` : value);
};

export const auditLogResource = defineResource({
  ...fromContract(auditLogContract),
  // The export names each resource by its title, as the screen does ('CEM', not 'sales').
  fields: {
    ...auditLogContract.fields,
    resource: { ...auditLogContract.fields.resource, options: AUDIT_RESOURCES },
  },
  readOnly: true,
  table: auditLogs,
  filterHandlers: {
    date_from: (v) => gte(auditLogs.at, dateParam('date_from', v)),
    // Inclusive end day: everything before the next midnight.
    date_to: (v) => {
      const d = dateParam('date_to', v);
      return v.length === 10 ? lt(auditLogs.at, new Date(d.getTime() + 86_400_000)) : lte(auditLogs.at, d);
    },
  },
  listColumns: ['id', 'at', 'username', 'resource', 'record_id', 'action'],
});
