// Info Taller: a dealer's (and branch's) workshop figures for a month.
import { index, integer, numeric, pgTable, serial, smallint, unique, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { dealerBranches, dealers, users } from '../../db/schema';

const amount = (name: string) => numeric(name, { precision: 14, scale: 2, mode: 'number' });

export const workshopInfos = pgTable(
  'workshop_infos',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    dealer_branch_id: integer('dealer_branch_id').references(() => dealerBranches.id),
    year: smallint('year').notNull(),
    month: smallint('month').notNull(),
    work_orders_opened: integer('work_orders_opened').notNull(),
    work_orders_closed: integer('work_orders_closed').notNull(),
    hours_sold: amount('hours_sold').notNull(),
    hours_worked: amount('hours_worked').notNull(),
    labour_revenue: amount('labour_revenue').notNull(),
    parts_revenue: amount('parts_revenue').notNull(),
    accessories_revenue: amount('accessories_revenue'),
    warranty_orders: integer('warranty_orders'),
    technicians: integer('technicians'),
    notes: varchar('notes', { length: 500 }),
    /** form | import | batch | demo */
    source: varchar('source', { length: 10 }).notNull().default('form'),
    updated_by: integer('updated_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    // One row per dealer, branch (or none) and month; an import replaces it.
    unique('workshop_infos_month_uq')
      .on(t.dealer_id, t.dealer_branch_id, t.year, t.month)
      .nullsNotDistinct(),
    index('workshop_infos_period_idx').on(t.year, t.month),
  ],
);
