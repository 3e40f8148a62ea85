// Figures, fees and capacities: a dealer's month (period) and its state, the figures and fees
// per dealer × concept × month, and the workshop capacity per branch × month. Values are
// numeric(16,2), read as numbers (mode 'number').
import {
  type AnyPgColumn,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { concepts, dealerBranches, dealers, users } from '../../db/schema';

const amount = (name: string) => numeric(name, { precision: 16, scale: 2, mode: 'number' });
const at = (name: string) => timestamp(name, { withTimezone: true });

/** A dealer × year × month with a state; no row means closed. */
export const figurePeriods = pgTable(
  'figure_periods',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    year: smallint('year').notNull(),
    month: smallint('month').notNull(),
    /** closed | enabled | confirmed */
    status: varchar('status', { length: 12 }).notNull().default('closed'),
    enabled_at: at('enabled_at'),
    enabled_by: integer('enabled_by').references(() => users.id),
    confirmed_at: at('confirmed_at'),
    confirmed_by: integer('confirmed_by').references(() => users.id),
    reopened_at: at('reopened_at'),
    reopened_by: integer('reopened_by').references(() => users.id),
    reopen_reason: varchar('reopen_reason', { length: 300 }),
    reminded_at: at('reminded_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('figure_periods_dealer_month_uq').on(t.dealer_id, t.year, t.month),
    index('figure_periods_month_idx').on(t.year, t.month, t.status),
  ],
);

/** A grid cell: a dealer's value for a concept and a month (figures and fees alike). */
const gridCell = () => ({
  id: serial('id').primaryKey(),
  dealer_id: integer('dealer_id')
    .notNull()
    .references(() => dealers.id),
  concept_id: integer('concept_id')
    .notNull()
    .references(() => concepts.id),
  year: smallint('year').notNull(),
  month: smallint('month').notNull(),
  value: amount('value').notNull(),
});

/** One value per cell; the month's cells of every dealer; a concept's cells (its delete check). */
const gridCellIndexes =
  (name: string) =>
  (t: { dealer_id: AnyPgColumn; year: AnyPgColumn; month: AnyPgColumn; concept_id: AnyPgColumn }) => [
    uniqueIndex(`${name}_cell_uq`).on(t.dealer_id, t.year, t.month, t.concept_id),
    index(`${name}_month_idx`).on(t.year, t.month),
    index(`${name}_concept_idx`).on(t.concept_id),
  ];

/** A dealer's figure for a concept and month. */
export const figures = pgTable(
  'figures',
  {
    ...gridCell(),
    /** grid | concept | import | casis */
    source: varchar('source', { length: 10 }).notNull().default('grid'),
    updated_by: integer('updated_by').references(() => users.id),
    ...timestamps,
  },
  gridCellIndexes('figures'),
);

/** A dealer's target (cuota) for a concept and month. */
export const fees = pgTable(
  'fees',
  {
    ...gridCell(),
    updated_by: integer('updated_by').references(() => users.id),
    ...timestamps,
  },
  gridCellIndexes('fees'),
);

/** A branch's workshop capacity in a month; available_hours is computed on save. */
export const capacities = pgTable(
  'capacities',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    dealer_branch_id: integer('dealer_branch_id')
      .notNull()
      .references(() => dealerBranches.id),
    year: smallint('year').notNull(),
    month: smallint('month').notNull(),
    bays: amount('bays'),
    technicians: amount('technicians'),
    hours_per_day: amount('hours_per_day'),
    working_days: amount('working_days'),
    available_hours: amount('available_hours'),
    updated_by: integer('updated_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('capacities_branch_month_uq').on(t.dealer_branch_id, t.year, t.month),
    index('capacities_dealer_month_idx').on(t.dealer_id, t.year, t.month),
  ],
);

/**
 * Per dealer, concept, year and cut month (1..12): the dealer's figures and fees of the months
 * 1..month, summed as they combine (issue 28). Kept by triggers in the same statement as every
 * write to figures and fees (migration 0024), so it equals a recomputation from their rows; the
 * concept's aggregation is applied when read (Suma: `sum`; Promedio: `sum ÷ n`; Último valor:
 * `last`, the value of the latest month present). `paired_*`: the months with both a figure and a
 * fee (what a compliance compares), `paired_months` their bits (1 << month).
 */
const exact = (name: string) => numeric(name, { mode: 'number' });
export const figureYtd = pgTable(
  'figure_ytd',
  {
    year: smallint('year').notNull(),
    /** The cut month: the row sums the months 1..month. */
    month: smallint('month').notNull(),
    concept_id: integer('concept_id').notNull(),
    dealer_id: integer('dealer_id').notNull(),
    fig_n: integer('fig_n').notNull(),
    fig_sum: exact('fig_sum'),
    fig_last: exact('fig_last'),
    /** The figure of the cut month itself. */
    fig_month: exact('fig_month'),
    fee_n: integer('fee_n').notNull(),
    fee_sum: exact('fee_sum'),
    fee_last: exact('fee_last'),
    fee_month: exact('fee_month'),
    paired_n: integer('paired_n').notNull(),
    paired_fig_sum: exact('paired_fig_sum'),
    paired_fig_last: exact('paired_fig_last'),
    paired_fee_sum: exact('paired_fee_sum'),
    paired_fee_last: exact('paired_fee_last'),
    paired_months: integer('paired_months'),
  },
  (t) => [primaryKey({ columns: [t.year, t.month, t.concept_id, t.dealer_id] })],
);
