// Saved views: the caller's own and those shared with one of its roles, per list screen; save
// one (sharing it with a role only as an administrator); delete one's own. Audited.
import { savedViewCalls as calls, type SavedView, SHARE_VIEWS_PERMISSION } from '@app/contracts';
import { and, asc, eq, or, sql } from 'drizzle-orm';
import { defineAction, type Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../core/errors';
import { parseId } from '../../core/http';
import { roles } from '../../db/schema';
import { savedViews } from './views.tables';

const tags = ['Vistas guardadas'];
const audit = (action: 'create' | 'delete') => ({ resource: 'saved-views', action }) as const;

const mineOrShared = (user: CurrentUser) =>
  or(
    eq(savedViews.user_id, user.id),
    sql`${savedViews.role_id} in (select ur.role_id from user_roles ur where ur.user_id = ${user.id})`,
  );

async function viewsOf(db: Executor, user: CurrentUser, screen: string): Promise<SavedView[]> {
  const rows = await db
    .select({
      id: savedViews.id,
      screen: savedViews.screen,
      name: savedViews.name,
      params: savedViews.params,
      role_id: savedViews.role_id,
      role_name: roles.name,
      user_id: savedViews.user_id,
    })
    .from(savedViews)
    .leftJoin(roles, eq(roles.id, savedViews.role_id))
    .where(and(eq(savedViews.screen, screen), mineOrShared(user)))
    .orderBy(asc(savedViews.name), asc(savedViews.id));
  return rows.map(({ user_id, ...r }) => ({ ...r, own: user_id === user.id }));
}

const list = defineAction({
  ...calls.list,
  summary: 'Vistas guardadas de una lista: las propias y las compartidas con un rol del usuario',
  tags,
  access: 'login',
  async handler({ db, user, query }) {
    return viewsOf(db, user, query.screen);
  },
});

/** A view's query: no page (a view opens on page 1), nothing but the list's own parameters. */
function cleanParams(raw: string): string {
  const sp = new URLSearchParams(raw.startsWith('?') ? raw.slice(1) : raw);
  const out = new URLSearchParams();
  for (const [k, v] of sp)
    if (/^(filter\[\w+\]|sort|order|query|perPage|hide)$/.test(k) && v !== '') out.append(k, v);
  return out.toString();
}

const save = defineAction({
  ...calls.save,
  summary: 'Guarda la vista actual de una lista (filtros, orden, columnas y tamaño de página)',
  tags,
  access: 'login',
  // Sharing with a role needs SHARE_VIEWS_PERMISSION.
  statuses: [403],
  audit: audit('create'),
  async handler({ user, body, write }) {
    const roleId = body.role_id ?? null;
    if (roleId && !user.permissions.has(SHARE_VIEWS_PERMISSION))
      throw new ForbiddenError('Solo un administrador comparte vistas con un rol');
    return write(async (tx) => {
      if (roleId) {
        const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
        if (!role) throw ValidationError.field('role_id', 'El rol no existe');
      }
      const [row] = await tx
        .insert(savedViews)
        .values({
          user_id: user.id,
          screen: body.screen,
          name: body.name.trim(),
          params: cleanParams(body.params),
          role_id: roleId,
        })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new ConflictError(`Ya tiene una vista llamada "${body.name.trim()}" en esta lista`);
      return row;
    });
  },
});

const remove = defineAction({
  ...calls.remove,
  summary: 'Elimina una vista guardada propia',
  tags,
  access: 'login',
  audit: audit('delete'),
  async handler({ user, params, write }) {
    const id = parseId(params.id);
    return write(
      async (tx) => {
        const [row] = await tx
          .delete(savedViews)
          .where(and(eq(savedViews.id, id), eq(savedViews.user_id, user.id)))
          .returning();
        if (!row) throw new NotFoundError('La vista no existe o no es suya');
        return { id };
      },
      () => ({ recordId: id }),
    );
  },
});

export const viewActions = [list, save, remove];
