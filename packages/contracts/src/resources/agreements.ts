// Seguimiento (/agreement): agreements with a dealer, their levels and statuses, the history of
// comments, status changes and notices, and the bodies of its calls.
import { messages } from '../messages';
import { z } from '../zod';
import { defineContract, f, field, typeError } from './fields';

/** GET /api/agreements-levels: how important an agreement is. */
export const AGREEMENT_LEVELS = [
  { id: 'high', name: 'Alto' },
  { id: 'medium', name: 'Medio' },
  { id: 'low', name: 'Bajo' },
] as const;

/** GET /api/agreements-statuses: pending → in progress → done, or cancelled. */
export const AGREEMENT_STATUSES = [
  { id: 'pending', name: 'Pendiente' },
  { id: 'in_progress', name: 'En proceso' },
  { id: 'done', name: 'Cumplido' },
  { id: 'cancelled', name: 'Anulado' },
] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number]['id'];

/** Statuses still open: only these can be overdue. */
export const OPEN_AGREEMENT_STATUSES: AgreementStatus[] = ['pending', 'in_progress'];

/** SPEC §3 and §9: a new agreement defaults to zone 1 and dealer 1. */
export const AGREEMENT_DEFAULTS = { zone_id: 1, dealer_id: 1, level: 'medium', status: 'pending' } as const;

/** What a history entry records. */
export const AGREEMENT_EVENT_KINDS = [
  { id: 'created', name: 'Creado' },
  { id: 'status', name: 'Cambio de estado' },
  { id: 'comment', name: 'Comentario' },
  { id: 'notify', name: 'Notificado' },
] as const;
export type AgreementEventKind = (typeof AGREEMENT_EVENT_KINDS)[number]['id'];

/** The age buckets of open agreements (days past the due date). */
export const AGREEMENT_AGE_BUCKETS = [
  { key: 'on_time', name: 'En plazo', min: null, max: 0 },
  { key: '1_30', name: '1 a 30 días', min: 1, max: 30 },
  { key: '31_60', name: '31 a 60 días', min: 31, max: 60 },
  { key: '61_90', name: '61 a 90 días', min: 61, max: 90 },
  { key: 'over_90', name: 'Más de 90 días', min: 91, max: null },
] as const;

export const AGREEMENT_MESSAGES = {
  noContacts: (dealer: string) =>
    `El concesionario ${dealer} no tiene contactos activos con email: registre uno en Contactos`,
  contactsNotOfDealer: 'Los contactos elegidos no pertenecen al concesionario del acuerdo',
} as const;

const dateRule = (label: string) =>
  // Empty says '{label} es obligatorio' (SPEC §5), then the format, then a real day.
  field
    .date(label)
    .refine((v) => !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()), `${label} no es una fecha válida`);

const ids = <T extends { id: string }>(list: readonly T[]) => list.map((o) => o.id) as [string, ...string[]];

export const agreementContract = defineContract(
  {
    path: 'agreements',
    permission: 'Agreements',
    title: 'Seguimiento',
    sort: { field: 'due_date', order: 'asc' },
  },
  {
    zone_id: f.optRef('Zona', 'zones', { filter: true, input: 'select' }),
    zone_name: f.display('Zona', { sort: true, column: { width: 120 } }),
    dealer_id: f.optRef('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 1.2 } }),
    title: f.text('Título', 200, { search: true, sort: true, column: { flex: 1.8 } }),
    detail: f.optText('Detalle', 4000, { search: true, input: 'textarea' }),
    level: f.rule('Nivel', (l) => z.enum(ids(AGREEMENT_LEVELS), { error: typeError(l) }), {
      filter: true,
      sort: true,
      options: AGREEMENT_LEVELS,
      column: { width: 90 },
    }),
    status: f.oneOf('Estado', AGREEMENT_STATUSES, { filter: true, sort: true, column: { width: 115 } }),
    responsible: f.optText('Responsable', 150, { search: true, sort: true, column: { flex: 1 } }),
    dealer_contact_id: f.optRef('Contacto responsable', 'dealer-contacts', { within: 'dealer_id' }),
    dealer_contact_name: f.display('Contacto responsable'),
    due_date: f.rule('Fecha límite', dateRule, {
      input: 'date',
      sort: true,
      column: { width: 110, type: 'date' },
    }),
    age_days: f.display('Días vencido', { sort: true, column: { width: 110, type: 'number' } }),
    notified_at: f.display('Notificado', { column: { width: 150, type: 'date' } }),
    created_at: f.created(),
  },
);

/** POST /api/agreements-noty: mails the agreement to the dealer's contacts. */
export const agreementNotifySchema = z.object({
  agreement_id: field.ref('Acuerdo'),
  /** Some of the dealer's contacts; default every active contact with an email. */
  contact_ids: z.array(field.ref('Contacto')).max(200).optional(),
  /** A line added above the agreement in the mail. */
  message: field.optText('Mensaje', 2000),
});

/** POST /api/agreements/:id/comments */
export const agreementCommentSchema = z.object({
  comment: z
    .string({ error: typeError('Comentario') })
    .trim()
    .min(1, messages.required('Comentario'))
    .max(4000, 'Comentario admite como máximo 4000 caracteres'),
  /** A status change sent with the comment. */
  status: z.enum(ids(AGREEMENT_STATUSES), { error: typeError('Estado') }).optional(),
});

const statusId = () => z.enum(AGREEMENT_STATUSES.map((s) => s.id) as [AgreementStatus, ...AgreementStatus[]]);

/** One entry of an agreement's history (GET /api/agreements/:id/history). */
export const agreementEventSchema = z.object({
  id: z.int(),
  kind: z.enum(AGREEMENT_EVENT_KINDS.map((k) => k.id) as [AgreementEventKind, ...AgreementEventKind[]]),
  comment: z.string().nullable(),
  from_status: statusId().nullable(),
  to_status: statusId().nullable(),
  /** notify: who was written to, and how it went. */
  recipients: z
    .array(
      z.looseObject({
        name: z.string().nullable().optional(),
        email: z.string(),
        status: z.string().optional(),
      }),
    )
    .nullable(),
  user_id: z.int().nullable(),
  user_name: z.string().nullable(),
  created_at: z.string(),
});
export type AgreementEvent = z.output<typeof agreementEventSchema>;

/** The answer of POST /api/agreements-noty. */
export const agreementNotifyResultSchema = z.object({
  agreement_id: z.int(),
  sent: z.int(),
  pending: z.int(),
  failed: z.int(),
  recipients: z.array(
    z.object({ name: z.string(), email: z.string(), status: z.enum(['sent', 'pending', 'failed']) }),
  ),
});
export type AgreementNotifyResult = z.output<typeof agreementNotifyResultSchema>;

/** GET /api/agreements-summary (and agreementsByAge for the dashboard). */
export const agreementAgeSummarySchema = z.object({
  as_of: z.string(),
  total: z.int(),
  open: z.int(),
  overdue: z.int(),
  /** Open agreements by days past due: en plazo, 1-30, 31-60, 61-90, more than 90. */
  buckets: z.array(z.object({ key: z.string(), name: z.string(), count: z.int() })),
  by_status: z.array(z.object({ status: statusId(), name: z.string(), count: z.int() })),
});
export type AgreementAgeSummary = z.output<typeof agreementAgeSummarySchema>;

export const AGREEMENT_CONTRACTS = [agreementContract] as const;
