// Seguimiento: agreements with a dealer and their history (comments, status changes, notices).
import { date, index, integer, jsonb, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { dealerContacts, dealers, users, zones } from '../../db/schema';

export const agreements = pgTable(
  'agreements',
  {
    id: serial('id').primaryKey(),
    zone_id: integer('zone_id')
      .notNull()
      .references(() => zones.id),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    title: varchar('title', { length: 200 }).notNull(),
    detail: text('detail'),
    /** high | medium | low */
    level: varchar('level', { length: 10 }).notNull().default('medium'),
    /** pending | in_progress | done | cancelled */
    status: varchar('status', { length: 12 }).notNull().default('pending'),
    responsible: varchar('responsible', { length: 150 }),
    dealer_contact_id: integer('dealer_contact_id').references(() => dealerContacts.id, {
      onDelete: 'set null',
    }),
    due_date: date('due_date', { mode: 'string' }).notNull(),
    /** When it was last mailed to the dealer's contacts. */
    notified_at: timestamp('notified_at', { withTimezone: true }),
    created_by: integer('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('agreements_dealer_idx').on(t.dealer_id, t.due_date),
    index('agreements_status_due_idx').on(t.status, t.due_date),
    index('agreements_search_idx').using('gin', t.title.op('gin_trgm_ops'), t.responsible.op('gin_trgm_ops')),
  ],
);

/** One entry of an agreement's history: who, when, and what happened. */
export const agreementEvents = pgTable(
  'agreement_events',
  {
    id: serial('id').primaryKey(),
    agreement_id: integer('agreement_id')
      .notNull()
      .references(() => agreements.id, { onDelete: 'cascade' }),
    /** created | status | comment | notify */
    kind: varchar('kind', { length: 10 }).notNull(),
    comment: text('comment'),
    from_status: varchar('from_status', { length: 12 }),
    to_status: varchar('to_status', { length: 12 }),
    /** notify: [{name, email, status}] */
    recipients: jsonb('recipients'),
    user_id: integer('user_id').references(() => users.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agreement_events_agreement_idx').on(t.agreement_id, t.id)],
);
