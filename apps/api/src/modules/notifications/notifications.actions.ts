// The notifications centre's calls: the user's list (filters: kind, read or unread; the unread
// count with it), the count alone (the bell), and the read marks (one, or all). Every signed-in
// user has a centre; what it holds is filtered by its side, dealer and permissions (visibleTo).
import { notificationCalls as calls } from '@app/contracts';
import { defineAction } from '../../core/action';
import { NotFoundError } from '../../core/errors';
import { parseId } from '../../core/http';
import { listNotifications, markAllRead, markRead, unreadCount } from './notifications.service';

const tags = ['Notificaciones'];

const list = defineAction({
  ...calls.list,
  summary: 'Notificaciones del usuario, las más recientes primero (filtros: tipo, leídas o no leídas)',
  tags,
  access: 'login',
  async handler({ db, user, query }) {
    return listNotifications(db, user, query);
  },
});

const count = defineAction({
  ...calls.unreadCount,
  summary: 'Cantidad de notificaciones sin leer (la campana)',
  tags,
  access: 'login',
  async handler({ db, user }) {
    return { unread: await unreadCount(db, user) };
  },
});

const readOne = defineAction({
  ...calls.read,
  summary: 'Marca una notificación como leída',
  tags,
  access: 'login',
  audit: { resource: 'notifications', action: 'read' },
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

const readAll = defineAction({
  ...calls.readAll,
  summary: 'Marca como leídas todas las notificaciones del usuario (o las de un tipo)',
  tags,
  access: 'login',
  audit: { resource: 'notifications', action: 'read' },
  async handler({ db, user, body, write }) {
    const marked = await write(
      (tx) => markAllRead(tx, user, body.kind),
      (n) => ({ after: { marked: n, kind: body.kind ?? null } }),
    );
    return { marked, unread: await unreadCount(db, user) };
  },
});

export const notificationActions = [list, count, readAll, readOne];
