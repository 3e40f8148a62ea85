// The notifications centre (modules/notifications on the server).

import { NOTIFICATION_KIND_IDS, notificationQuerySchema } from '../notifications';
import { z } from '../zod';
import { defineCall } from './call';

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

export const readAllSchema = z.object({
  kind: z.enum(NOTIFICATION_KIND_IDS, { error: 'Tipo no es válido' }).optional(),
});

export const notificationCalls = {
  list: defineCall({
    method: 'GET',
    path: '/api/notifications',
    query: notificationQuerySchema,
    result: z.object({ data: z.array(notificationSchema), total: z.int(), unread }),
  }),
  unreadCount: defineCall({
    method: 'GET',
    path: '/api/notifications/unread-count',
    result: z.object({ unread }),
  }),
  read: defineCall({
    method: 'POST',
    path: '/api/notifications/:id/read',
    result: z.object({ id: z.int(), unread }),
  }),
  readAll: defineCall({
    method: 'POST',
    path: '/api/notifications/read-all',
    body: readAllSchema,
    result: z.object({ marked: z.int().nonnegative(), unread }),
  }),
};
