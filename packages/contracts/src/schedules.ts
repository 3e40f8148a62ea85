// Scheduled reports by mail (issue 29, item 5): the two kinds, what the Preferencias screen
// shows of each, and the body of its save, with the Spanish messages of SPEC §5.

import { field, typeError } from './resources/fields';
import { z } from './zod';

export const MAIL_SCHEDULE_KINDS = ['resumen_mensual', 'tablero_semanal'] as const;
export type MailScheduleKind = (typeof MAIL_SCHEDULE_KINDS)[number];

export const MAIL_SCHEDULE_TITLES: Record<MailScheduleKind, string> = {
  resumen_mensual: 'Resumen Comparativo mensual',
  tablero_semanal: 'Resumen semanal del tablero',
};

export const MAIL_SCHEDULE_DESCRIPTIONS: Record<MailScheduleKind, string> = {
  resumen_mensual:
    'Cuando un concesionario confirma su mes, se envía el Resumen Comparativo de ese mes (con el .xlsx) a sus contactos activos con correo.',
  tablero_semanal:
    'Cada semana, el día y la hora indicados (hora de Lima), se envían las cifras del tablero (con el .xlsx) a los destinatarios.',
};

/** ISO days of the week (1 lunes .. 7 domingo). */
export const WEEKDAYS = [
  { id: 1, name: 'Lunes' },
  { id: 2, name: 'Martes' },
  { id: 3, name: 'Miércoles' },
  { id: 4, name: 'Jueves' },
  { id: 5, name: 'Viernes' },
  { id: 6, name: 'Sábado' },
  { id: 7, name: 'Domingo' },
] as const;

export const MAIL_SCHEDULE_LABELS = {
  enabled: 'Activo',
  weekday: 'Día de la semana',
  hour: 'Hora (Lima)',
  recipients: 'Destinatarios',
} as const;

export const MAIL_SCHEDULE_MESSAGES = {
  recipientEmail: (address: string) => `Destinatarios: "${address}" no es un Email válido.`,
  tooManyRecipients: 'Destinatarios admite como máximo 50 correos',
  weeklyNeedsDay: 'Día de la semana es obligatorio',
  weeklyNeedsHour: 'Hora (Lima) es obligatorio',
} as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The addresses of a recipients text (commas, semicolons, spaces or lines between them). */
export const splitRecipients = (text: string | null | undefined): string[] =>
  (text ?? '')
    .split(/[\s,;]+/)
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

/** PUT /api/mail-schedules/:id */
export const mailScheduleSaveSchema = z.object({
  enabled: z.boolean({ error: typeError(MAIL_SCHEDULE_LABELS.enabled) }),
  weekday: field.int(MAIL_SCHEDULE_LABELS.weekday, 1, 7).nullable().optional(),
  hour: field.int(MAIL_SCHEDULE_LABELS.hour, 0, 23).nullable().optional(),
  recipients: field.optText(MAIL_SCHEDULE_LABELS.recipients, 2000).superRefine((text, ctx) => {
    const list = splitRecipients(text);
    if (list.length > 50) ctx.addIssue({ code: 'custom', message: MAIL_SCHEDULE_MESSAGES.tooManyRecipients });
    const bad = list.find((a) => !EMAIL_RE.test(a) || a.length > 150);
    if (bad) ctx.addIssue({ code: 'custom', message: MAIL_SCHEDULE_MESSAGES.recipientEmail(bad) });
  }),
});

/** A schedule as GET /api/mail-schedules answers it. */
export const mailScheduleViewSchema = z.object({
  id: z.int(),
  kind: z.enum(MAIL_SCHEDULE_KINDS),
  title: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  weekday: z.int().nullable(),
  hour: z.int().nullable(),
  recipients: z.string().nullable(),
  /** Who receives it when `recipients` is empty, in words. */
  default_recipients: z.string(),
  updated_at: z.string(),
  /** The last mailings made. */
  runs: z.array(
    z.object({
      key: z.string(),
      period: z.string(),
      dealer_name: z.string().nullable(),
      mails: z.int(),
      created_at: z.string(),
    }),
  ),
});
export type MailScheduleView = z.output<typeof mailScheduleViewSchema>;
