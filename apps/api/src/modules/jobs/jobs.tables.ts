// Background jobs as the user sees them: a big import or export started by one user, its
// progress, its answer (the bounded per-row report) or its file, its Spanish error. The queue
// itself (who runs it, retries, a server that died mid-job) is pg-boss's, in its own schema
// `pgboss`; this row is what the screens and the status call read (modules/jobs).
import { index, integer, jsonb, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { dealers, users } from '../../db/schema';

export const backgroundJobs = pgTable(
  'background_jobs',
  {
    /** The same id as the pg-boss job (a uuid, not guessable). */
    id: uuid('id').primaryKey(),
    /** What it runs: 'sales-import', 'sales-export', ... (core/jobs.ts JOB_KINDS). */
    kind: varchar('kind', { length: 40 }).notNull(),
    /** The permission the job's call needs; the status call asks it again. */
    permission: varchar('permission', { length: 80 }).notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The owner's dealer (null for the importer's staff): the status call's dealer scope. */
    dealer_id: integer('dealer_id').references(() => dealers.id, { onDelete: 'cascade' }),
    /** queued | running | done | failed */
    status: varchar('status', { length: 12 }).notNull().default('queued'),
    /** Rows (or units) done and expected; total null while unknown. */
    done: integer('done').notNull().default(0),
    total: integer('total'),
    /** What it is doing now, in Spanish ("Leyendo el archivo", "Guardando 100000 filas"). */
    step: varchar('step', { length: 200 }),
    /** The answer of the call it replaces (an import's {saved, total, failed, report}, bounded). */
    result: jsonb('result'),
    /** The Spanish message of a failed job. */
    error: varchar('error', { length: 1000 }),
    /** The input spooled to storage (deleted when the job ends). */
    input_key: varchar('input_key', { length: 200 }),
    /** An export's file in storage, and the name it downloads as. */
    file_key: varchar('file_key', { length: 200 }),
    file_name: varchar('file_name', { length: 200 }),
    attempts: integer('attempts').notNull().default(0),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    started_at: timestamp('started_at', { withTimezone: true }),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    /** After this the row and its file are swept. */
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('background_jobs_user_idx').on(t.user_id, t.created_at),
    index('background_jobs_expires_idx').on(t.expires_at),
  ],
);
