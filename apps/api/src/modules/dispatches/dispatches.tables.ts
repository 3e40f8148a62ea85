// Dispatches (despachos) from SIMA, the SIMA warehouses they leave from, the objectives per dealer,
// brand and month, and the daily sales per dealer, model and day.
import {
  boolean,
  date,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { dealers, manufacturerModels, manufacturers } from '../../db/schema';

export const storedOffices = pgTable('transaction_stored_offices', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 20 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  active: boolean('active').notNull().default(true),
  ...timestamps,
});

export const dispatches = pgTable(
  'dispatches',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    stored_office_id: integer('stored_office_id').references(() => storedOffices.id),
    manufacturer_id: integer('manufacturer_id')
      .notNull()
      .references(() => manufacturers.id),
    manufacturer_model_id: integer('manufacturer_model_id').references(() => manufacturerModels.id),
    /** The model as SIMA (or the person) wrote it, also when it matches a catalogue model. */
    model_name: varchar('model_name', { length: 150 }).notNull(),
    vin: varchar('vin', { length: 17 }).notNull(),
    dispatch_date: date('dispatch_date', { mode: 'string' }).notNull(),
    units: integer('units').notNull().default(1),
    invoice: varchar('invoice', { length: 40 }),
    /** 'SIMA' or 'Manual'. */
    source: varchar('source', { length: 10 }).notNull().default('Manual'),
    /** SIMA's key of the line (its id, else the VIN): a second pull updates instead of adding. */
    sima_key: varchar('sima_key', { length: 60 }).unique(),
    ...timestamps,
  },
  (t) => [
    // The summaries and reports read a period, all dealers or one. The network's period carries
    // what they add up (dealer, brand, units): an index-only scan, no visit to the wide rows,
    // scattered by date (issue 28: the dashboard's despachos group at ×100).
    index('dispatches_date_units_idx').on(t.dispatch_date, t.dealer_id, t.manufacturer_id, t.units),
    index('dispatches_dealer_date_idx').on(t.dealer_id, t.dispatch_date),
    index('dispatches_vin_idx').on(t.vin),
    index('dispatches_search_idx').using(
      'gin',
      t.vin.op('gin_trgm_ops'),
      t.model_name.op('gin_trgm_ops'),
      t.invoice.op('gin_trgm_ops'),
    ),
  ],
);

export const dispatchObjectives = pgTable(
  'dispatch_objectives',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    manufacturer_id: integer('manufacturer_id')
      .notNull()
      .references(() => manufacturers.id),
    year: smallint('year').notNull(),
    month: smallint('month').notNull(),
    units: integer('units').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('dispatch_objectives_uq').on(t.dealer_id, t.manufacturer_id, t.year, t.month),
    index('dispatch_objectives_period_idx').on(t.year, t.month),
  ],
);

export const dailySales = pgTable(
  'daily_sales',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    manufacturer_id: integer('manufacturer_id')
      .notNull()
      .references(() => manufacturers.id),
    manufacturer_model_id: integer('manufacturer_model_id')
      .notNull()
      .references(() => manufacturerModels.id),
    sale_date: date('sale_date', { mode: 'string' }).notNull(),
    units: integer('units').notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('daily_sales_uq').on(t.dealer_id, t.manufacturer_model_id, t.sale_date),
    // A period's units per dealer and brand read from the index alone (as dispatches_date_units_idx).
    index('daily_sales_date_units_idx').on(t.sale_date, t.dealer_id, t.manufacturer_id, t.units),
  ],
);
