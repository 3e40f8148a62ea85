// Scheduled reports by mail (issue 29, item 5): one row per kind of schedule, edited in
// Preferencias, and one row per mailing made, whose unique key makes it happen once whatever the
// number of servers (the row and the outbox messages are written in one transaction).
import { boolean, integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { dealers, users } from '../../db/schema';

export const mailSchedules = pgTable('mail_schedules', {
  id: serial('id').primaryKey(),
  /** MAIL_SCHEDULE_KINDS (contracts): 'resumen_mensual' | 'tablero_semanal'. */
  kind: varchar('kind', { length: 40 }).notNull().unique(),
  enabled: boolean('enabled').notNull().default(false),
  /** The weekly one: ISO day of the week in Lima (1 lunes .. 7 domingo) and the hour (0-23). */
  weekday: integer('weekday'),
  hour: integer('hour'),
  /** Addresses separated by commas; empty: the default recipients of the kind. */
  recipients: varchar('recipients', { length: 2000 }),
  updated_by: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const mailScheduleRuns = pgTable(
  'mail_schedule_runs',
  {
    id: serial('id').primaryKey(),
    schedule_id: integer('schedule_id')
      .notNull()
      .references(() => mailSchedules.id, { onDelete: 'cascade' }),
    /** What was mailed, once: 'resumen:12:2026-11' (dealer and month), 'tablero:2026-W48' (ISO week). */
    key: varchar('key', { length: 120 }).notNull(),
    /** The period in words ('Noviembre 2026', 'Semana 48 de 2026'). */
    period: varchar('period', { length: 80 }).notNull(),
    dealer_id: integer('dealer_id').references(() => dealers.id, { onDelete: 'cascade' }),
    mails: integer('mails').notNull().default(0),
    /** Milliseconds spent building the mail and its file. */
    build_ms: integer('build_ms'),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('mail_schedule_runs_key_idx').on(t.schedule_id, t.key)],
);
