// Documents of the library (the extranet): a document in a category with its dates and its
// audience (every dealer, or the dealers of document_dealers), its stored files, and who has
// read it. File bytes live in the file storage (core/storage.ts) under document_files.storage_key.
import {
  bigint,
  boolean,
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
import { active, timestamps } from '../../db/columns';
import { categories, dealers, users } from '../../db/schema';

export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    title: varchar('title', { length: 200 }).notNull(),
    description: varchar('description', { length: 2000 }),
    category_id: integer('category_id')
      .notNull()
      .references(() => categories.id),
    /** Dealers see it from this day (Lima) on. */
    published_at: date('published_at', { mode: 'string' }).notNull(),
    /** Dealers see it up to this day included; null: never expires. */
    expires_at: date('expires_at', { mode: 'string' }),
    /** Every dealer sees it; otherwise only the dealers of document_dealers. */
    all_dealers: boolean('all_dealers').notNull().default(true),
    created_by: integer('created_by').references(() => users.id),
    ...active,
    ...timestamps,
  },
  (t) => [
    index('documents_published_idx').on(t.published_at),
    index('documents_category_idx').on(t.category_id),
    // The global search (modules/search) finds documents by title.
    index('documents_search_idx').using('gin', t.title.op('gin_trgm_ops')),
  ],
);

/** The chosen dealers of a document that is not for every dealer. */
export const documentDealers = pgTable(
  'document_dealers',
  {
    document_id: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
  },
  (t) => [
    primaryKey({ columns: [t.document_id, t.dealer_id] }),
    index('document_dealers_dealer_idx').on(t.dealer_id),
  ],
);

/**
 * A stored file. Uploaded first (document_id null), attached when the document is saved; a file
 * left unattached (upload abandoned, document deleted or file removed from it) is swept from the
 * storage after a day.
 */
export const documentFiles = pgTable(
  'document_files',
  {
    id: serial('id').primaryKey(),
    document_id: integer('document_id').references(() => documents.id, { onDelete: 'set null' }),
    /** The key in the file storage (never derived from the client's file name). */
    storage_key: varchar('storage_key', { length: 200 }).notNull(),
    /** The client's file name, as downloads answer it. */
    filename: varchar('filename', { length: 255 }).notNull(),
    /** The type recognised from the content. */
    mime: varchar('mime', { length: 120 }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    uploaded_by: integer('uploaded_by').references(() => users.id),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('document_files_key_uq').on(t.storage_key),
    index('document_files_document_idx').on(t.document_id),
  ],
);

/** A user opened or downloaded a document (the read mark; first time kept). */
export const documentReads = pgTable(
  'document_reads',
  {
    document_id: integer('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    read_at: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.document_id, t.user_id] }),
    index('document_reads_user_idx').on(t.user_id),
  ],
);
