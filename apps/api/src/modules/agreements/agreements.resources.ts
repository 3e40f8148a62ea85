// Seguimiento: the declared agreements resource (list with its filters and overdue age, dialog,
// export, dealer scope) and the history each change leaves. Calls beyond CRUD are in
// agreements.actions.ts.
import {
  AGREEMENT_DEFAULTS,
  AGREEMENT_LEVELS,
  AGREEMENT_STATUSES,
  agreementContract,
  OPEN_AGREEMENT_STATUSES,
} from '@app/contracts';
import { and, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { lazyToday, sqlToday } from '../../core/lima';
import { defineResource, fromContract, type HookContext, type Row } from '../../core/resource';
import { dealerContacts, dealers, zones } from '../../db/schema';
import { agreementNotices } from '../notifications/notifications.service';
import { agreementEvents, agreements } from './agreements.tables';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const dateFilter = (label: string, op: typeof gte) => (v: string) => {
  if (!DATE_RE.test(v)) throw ValidationError.field('filter', `${label}: formato de fecha YYYY-MM-DD`);
  return op(agreements.due_date, v);
};

/** The Spanish name of a fixed-list value (the export shows 'Pendiente', not 'pending'). */
const nameOf = (col: PgColumn, list: readonly { id: string; name: string }[]): SQL<string> =>
  sql<string>`case ${col} ${sql.join(
    list.map((o) => sql`when ${o.id} then ${o.name}`),
    sql` `,
  )} else ${col} end`;

const isOpen = inArray(agreements.status, OPEN_AGREEMENT_STATUSES);

/** Days an open agreement is past its due date on Lima's today; null when closed or not yet due. */
const ageDays = sql<number | null>`case when ${agreements.status} in ('pending', 'in_progress')
  and ${agreements.due_date} < ${lazyToday} then ${lazyToday} - ${agreements.due_date} end`;

/** What a dealer user may change on its agreement: its progress, not what was agreed. */
const DEALER_EDITABLE = ['status'];

async function assertContactOfDealer(tx: Executor, contactId: unknown, dealerId: unknown): Promise<void> {
  if (contactId == null || dealerId == null) return;
  const [c] = await tx
    .select({ dealer_id: dealerContacts.dealer_id })
    .from(dealerContacts)
    .where(eq(dealerContacts.id, Number(contactId)));
  if (!c || c.dealer_id !== Number(dealerId))
    throw ValidationError.field('dealer_contact_id', 'El contacto no pertenece al concesionario');
}

async function beforeSave(data: Row, ctx: HookContext): Promise<Row> {
  if (ctx.action === 'update' && ctx.user.isDealer) {
    for (const k of Object.keys(data)) if (!DEALER_EDITABLE.includes(k)) delete data[k];
    return data;
  }
  if (ctx.action === 'create') {
    // SPEC §3: a new agreement defaults to dealer 1 (a dealer user's is its own).
    data.dealer_id ??= AGREEMENT_DEFAULTS.dealer_id;
    data.status ??= AGREEMENT_DEFAULTS.status;
    data.created_by = ctx.user.id;
  } else {
    if ('zone_id' in data && data.zone_id == null) delete data.zone_id;
    if ('dealer_id' in data && data.dealer_id == null) delete data.dealer_id;
    if ('status' in data && data.status == null) delete data.status;
  }
  const dealerId = data.dealer_id ?? ctx.before?.dealer_id;
  // The zone follows the dealer (issue 27): whatever the client sends, an agreement is filed under
  // its dealer's zone, so the zone filter finds it. Only a dealer without a zone keeps the one given
  // (zone 1 by default, SPEC §3).
  if (ctx.action === 'create' || 'dealer_id' in data || 'zone_id' in data) {
    const [d] = await ctx.tx
      .select({ zone_id: dealers.zone_id })
      .from(dealers)
      .where(eq(dealers.id, Number(dealerId)));
    if (d?.zone_id != null) data.zone_id = d.zone_id;
    else if (ctx.action === 'create') data.zone_id ??= AGREEMENT_DEFAULTS.zone_id;
  }
  const contactId = 'dealer_contact_id' in data ? data.dealer_contact_id : ctx.before?.dealer_contact_id;
  await assertContactOfDealer(ctx.tx, contactId, dealerId);
  return data;
}

/** The history: its creation, and every status change (who, when, from, to). */
async function afterSave(_row: Row, ctx: HookContext & { id: number }): Promise<void> {
  // Saved already due within 7 days or overdue: told now, not at the next day's sweep.
  await agreementNotices(ctx.tx, undefined, [ctx.id]);
  const [now] = await ctx.tx
    .select({ status: agreements.status })
    .from(agreements)
    .where(eq(agreements.id, ctx.id));
  if (ctx.action === 'create') {
    await ctx.tx
      .insert(agreementEvents)
      .values({ agreement_id: ctx.id, kind: 'created', to_status: now.status, user_id: ctx.user.id });
  } else if (ctx.before && now && ctx.before.status !== now.status) {
    await ctx.tx.insert(agreementEvents).values({
      agreement_id: ctx.id,
      kind: 'status',
      from_status: ctx.before.status,
      to_status: now.status,
      user_id: ctx.user.id,
    });
  }
}

export const agreementResource = defineResource({
  ...fromContract(agreementContract, {
    labels: { level_name: 'Nivel', status_name: 'Estado', dealer_code: 'Código concesionario' },
  }),
  table: agreements,
  joins: [
    { table: zones, on: eq(agreements.zone_id, zones.id) },
    { table: dealers, on: eq(agreements.dealer_id, dealers.id) },
    { table: dealerContacts, on: eq(agreements.dealer_contact_id, dealerContacts.id) },
  ],
  display: {
    zone_name: zones.name,
    dealer_name: dealers.name,
    dealer_code: dealers.code,
    dealer_contact_name: dealerContacts.name,
    age_days: ageDays,
    level_name: nameOf(agreements.level, AGREEMENT_LEVELS),
    status_name: nameOf(agreements.status, AGREEMENT_STATUSES),
  },
  hidden: ['created_by'],
  dealerScoped: 'dealer_id',
  // age_days reads Lima's today when each page is read.
  clockDependent: true,
  filterHandlers: {
    due_from: dateFilter('Vence desde', gte),
    due_to: dateFilter('Vence hasta', lte),
    overdue: (v) => {
      if (v === '1' || v === 'true') return and(isOpen, lt(agreements.due_date, sqlToday()));
      if (v === '0' || v === 'false') return sql`not (${and(isOpen, lt(agreements.due_date, sqlToday()))})`;
      throw ValidationError.field('filter', 'Vencido: use 1 o 0');
    },
  },
  plainFilters: ['zone_id', 'dealer_id', 'level', 'status', 'due_from', 'due_to', 'overdue'],
  listColumns: [
    'id',
    'zone_name',
    'dealer_name',
    'title',
    'detail',
    'level_name',
    'status_name',
    'responsible',
    'dealer_contact_name',
    'due_date',
    'age_days',
    'notified_at',
    'created_at',
  ],
  hooks: { beforeSave, afterSave },
});
