// Columns that many tables share (core tables and module tables alike).
import { boolean, timestamp } from 'drizzle-orm/pg-core';

export const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const active = { active: boolean('active').notNull().default(true) };
