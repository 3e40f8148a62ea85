// The notifications centre's calls: the user's list (filters: kind, read or unread; the unread
// count with it), the count alone (the bell), and the read marks (one, or all). Every signed-in
// user has a centre; what it holds is filtered by its side, dealer and permissions (visibleTo).
import { NOTIFICATION_KIND_IDS, notificationQuerySchema } from '@app/contracts';
import { z } from 'zod';
import { defineAction } from '../../core/action';
import { NotFoundError } from '../../core/errors';
import { parseId } from '../../core/http';
import { listNotifications, markAllRead, markRead, unreadCount } from './notifications.service';

const tags = ['Notificaciones'];

const unread = z.int().nonnegative().meta({ description: 'Notificaciones sin leer del usuario' });
const notificationSchema = z.object({
  id: z.int(),
  kind: z.enum(NOTIFICATION_KIND_IDS),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  dealer_id: z.int().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});

const list = defineAction({
  method: 'GET',
  path: '/api/notifications',
  summary: 'Notificaciones del usuario, las más recientes primero (filtros: tipo, leídas o no leídas)',
  tags,
  access: 'login',
  query: notificationQuerySchema,
  result: z.object({ data: z.array(notificationSchema), total: z.int(), unread }),
  async handler({ db, user, query }) {
    return listNotifications(db, user, query);
  },
});

const count = defineAction({
  method: 'GET',
  path: '/api/notifications/unread-count',
  summary: 'Cantidad de notificaciones sin leer (la campana)',
  tags,
  access: 'login',
  result: z.object({ unread }),
  async handler({ db, user }) {
    return { unread: await unreadCount(db, user) };
  },
});

const readOne = defineAction({
  method: 'POST',
  path: '/api/notifications/:id/read',
  summary: 'Marca una notificación como leída',
  tags,
  access: 'login',
  audit: { resource: 'notifications', action: 'read' },
  result: z.object({ id: z.int(), unread }),
  async handler({ db, user, params, write }) {
    const id = parseId(params.id);
    // Not visible to the user: 404, and the transaction (with its audit row) is undone.
    await write(
      async (tx) => {
        if (!(await markRead(tx, user, id)))
          throw new NotFoundError('La notificación no existe o no es suya');
        return { id };
      },
      () => ({ recordId: id }),
    );
    return { id, unread: await unreadCount(db, user) };
  },
});

export const readAllSchema = z.object({
  kind: z.enum(NOTIFICATION_KIND_IDS, { error: 'Tipo no es válido' }).optional(),
});

const readAll = defineAction({
  method: 'POST',
  path: '/api/notifications/read-all',
  summary: 'Marca como leídas todas las notificaciones del usuario (o las de un tipo)',
  tags,
  access: 'login',
  body: readAllSchema,
  audit: { resource: 'notifications', action: 'read' },
  result: z.object({ marked: z.int().nonnegative(), unread }),
  async handler({ db, user, body, write }) {
    const marked = await write(
      (tx) => markAllRead(tx, user, body.kind),
      (n) => ({ after: { marked: n, kind: body.kind ?? null } }),
    );
    return { marked, unread: await unreadCount(db, user) };
  },
});

export const notificationActions = [list, count, readAll, readOne];
