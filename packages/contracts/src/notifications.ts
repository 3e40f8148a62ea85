// The notifications centre (the bell and /main/order): what needs the user, its kinds with their
// Spanish names, and the list's query. Shared by the server (kinds, filters) and the client.
import { z } from './zod';

/** Every kind of notification, with its Spanish name (the filter of the page and the bell). */
export const NOTIFICATION_KINDS = [
  { id: 'agreement_due', name: 'Acuerdo por vencer' },
  { id: 'agreement_overdue', name: 'Acuerdo vencido' },
  { id: 'quiz_alert', name: 'Alerta de encuesta' },
  { id: 'figures_pending', name: 'Cifras por confirmar' },
  { id: 'document', name: 'Documento publicado' },
  { id: 'job', name: 'Importación o exportación' },
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number]['id'];
export const NOTIFICATION_KIND_IDS = NOTIFICATION_KINDS.map((k) => k.id) as [
  NotificationKind,
  ...NotificationKind[],
];

/** One notification as the list answers it. */
export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string | null;
  /** The client route that opens what it is about (e.g. '/agreement?query=...'). */
  link: string | null;
  dealer_id: number | null;
  created_at: string;
  read_at: string | null;
}

export interface NotificationPage {
  data: NotificationItem[];
  total: number;
  /** Unread notifications of the user, whatever the filters. */
  unread: number;
}

/** GET /api/notifications query: filters and paging (the page's filters). */
export const notificationQuerySchema = z.object({
  kind: z.enum(NOTIFICATION_KIND_IDS, { error: 'Tipo no es válido' }).optional(),
  status: z.enum(['read', 'unread'], { error: 'Estado debe ser read o unread' }).optional(),
  page: z.coerce.number({ error: 'Página debe ser un número' }).int().min(1).max(100_000).default(1),
  perPage: z.coerce.number({ error: 'Por página debe ser un número' }).int().min(1).max(100).default(10),
});
