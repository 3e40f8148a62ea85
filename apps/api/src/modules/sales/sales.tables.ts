// CEM sales: one row per vehicle sold. The VIN is unique: a vehicle is sold once.
import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { timestamps } from '../../db/columns';
import { dealerBranches, dealers, manufacturerModels, manufacturers } from '../../db/schema';

export const sales = pgTable(
  'sales',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    dealer_branch_id: integer('dealer_branch_id').references(() => dealerBranches.id),
    sale_date: date('sale_date', { mode: 'string' }).notNull(),
    invoice: varchar('invoice', { length: 40 }).notNull(),
    buyer_name: varchar('buyer_name', { length: 200 }).notNull(),
    document_type: varchar('document_type', { length: 5 }).notNull(),
    document_number: varchar('document_number', { length: 20 }).notNull(),
    email: varchar('email', { length: 150 }),
    phone: varchar('phone', { length: 30 }),
    vin: varchar('vin', { length: 17 }).notNull(),
    manufacturer_id: integer('manufacturer_id')
      .notNull()
      .references(() => manufacturers.id),
    manufacturer_model_id: integer('manufacturer_model_id').references(() => manufacturerModels.id),
    /** The model as written by the dealer (also when it matches a catalogue model). */
    model_name: varchar('model_name', { length: 150 }).notNull(),
    year: integer('year').notNull(),
    seller: varchar('seller', { length: 150 }),
    /** E Efectivo, T Tarjeta, D Deposito, G Gratuito. */
    payment_method: varchar('payment_method', { length: 1 }).notNull(),
    /** sin_enviar | enviada | respondida | contacto_invalido */
    survey_status: varchar('survey_status', { length: 20 }).notNull().default('sin_enviar'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sales_vin_uq').on(t.vin),
    index('sales_dealer_date_idx').on(t.dealer_id, t.sale_date),
    index('sales_date_idx').on(t.sale_date),
    index('sales_manufacturer_idx').on(t.manufacturer_id),
    // The global search's exact invoice (issue 29): a whole invoice number typed in any case is
    // one lookup, not a trigram search whose trigrams ('F00', '000', ...) every invoice shares.
    index('sales_invoice_upper_idx').on(sql`upper(${t.invoice})`),
    // The quick search (ILIKE '%text%') on the searched columns (pg_trgm, migration 0002).
    index('sales_search_idx').using(
      'gin',
      t.vin.op('gin_trgm_ops'),
      t.buyer_name.op('gin_trgm_ops'),
      t.invoice.op('gin_trgm_ops'),
      t.document_number.op('gin_trgm_ops'),
      t.email.op('gin_trgm_ops'),
      t.model_name.op('gin_trgm_ops'),
      t.seller.op('gin_trgm_ops'),
    ),
  ],
);
