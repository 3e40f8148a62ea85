// The user's notifications (GET /api/notifications): the bell's count and latest, the page's
// filtered list, and the read marks. The count is read again every minute and after a mark.
import {
  type NotificationItem,
  type NotificationKind,
  type NotificationPage,
  notificationCalls,
} from '@app/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../lib/http';

/** The bell (and the page)'s two lists. */
export const NOTIFICATION_TABS = [
  { label: 'Notificación', empty: 'No tiene notificaciones' },
  { label: 'Mensajes', empty: 'No tiene mensajes' },
] as const;

export interface NotificationFilters {
  kind?: NotificationKind;
  status?: 'read' | 'unread';
  page?: number;
  perPage?: number;
}

const KEY = ['notifications'] as const;

export function useNotifications(filters: NotificationFilters, refetchInterval?: number) {
  return useQuery({
    queryKey: [...KEY, filters],
    queryFn: () =>
      call(notificationCalls.list, { query: { ...filters } }, { silent: true }) as Promise<NotificationPage>,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (n: Pick<NotificationItem, 'id'>) => call(notificationCalls.read, { params: { id: n.id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useMarkAllRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (kind?: NotificationKind) => call(notificationCalls.readAll, { body: kind ? { kind } : {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** 'hace 5 min', 'hace 3 h', or the date: when a notification came. */
export function whenText(iso: string, now = Date.now()): string {
  const ms = now - Date.parse(iso);
  if (ms < 60_000) return 'hace un momento';
  if (ms < 3_600_000) return `hace ${Math.floor(ms / 60_000)} min`;
  if (ms < 86_400_000) return `hace ${Math.floor(ms / 3_600_000)} h`;
  return new Date(iso).toLocaleDateString('es-PE', { day: '2-digit', month: '2-digit', year: 'numeric' });
}
