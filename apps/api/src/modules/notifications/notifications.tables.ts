// The notifications centre: one row per thing that needs someone (an overdue agreement, a new
// survey alert, ...) with its audience, and per-user read marks. A row is made once (its `key`
// is unique), in the transaction of its event or by the daily sweep, so several servers agree.
import {
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { dealers, users } from '../../db/schema';

export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    /** NOTIFICATION_KINDS (contracts). */
    kind: varchar('kind', { length: 30 }).notNull(),
    /** What the notification is about, once: 'agreement_overdue:12:2026-11-30', 'job:7', ... */
    key: varchar('key', { length: 200 }).notNull(),
    title: varchar('title', { length: 300 }).notNull(),
    body: varchar('body', { length: 2000 }),
    /** The client route that opens what it is about. */
    link: varchar('link', { length: 500 }),
    /**
     * Who sees it: 'staff' (manufacturer users), 'dealer' (the users of dealer_id, or of every
     * dealer when dealer_id is null), 'all' (both), or only `user_id` when set.
     */
    audience: varchar('audience', { length: 10 }).notNull(),
    dealer_id: integer('dealer_id').references(() => dealers.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** A permission the reader must hold (e.g. 'Agreements.view'); null: any signed-in user. */
    permission: varchar('permission', { length: 120 }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notifications_key_uq').on(t.key),
    index('notifications_dealer_idx').on(t.dealer_id, t.id),
    index('notifications_user_idx').on(t.user_id, t.id),
  ],
);

/** A user read (or cleared) a notification. */
export const notificationReads = pgTable(
  'notification_reads',
  {
    notification_id: integer('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    read_at: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.notification_id, t.user_id] }),
    index('notification_reads_user_idx').on(t.user_id),
  ],
);

/** The daily sweep's claim: one row per Lima day swept (the first server to insert it sweeps). */
export const notificationSweeps = pgTable('notification_sweeps', {
  day: date('day', { mode: 'string' }).primaryKey(),
  swept_at: timestamp('swept_at', { withTimezone: true }).notNull().defaultNow(),
});
