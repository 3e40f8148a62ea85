// The core tables, one schema for PGlite and PostgreSQL. Module tables live in
// modules/<module>/<module>.tables.ts (they import the core tables from here); modules/tables.ts
// gathers both. Migrations are generated from all of them
// (`npm run db:generate -w apps/api`, see drizzle.config.ts) into apps/api/drizzle.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { active, timestamps } from './columns';

/** The address_ fields of SPEC §3, shared by every record that has an address. */
const addressFields = {
  address_country_id: integer('address_country_id').references(() => countries.id),
  address_department_id: integer('address_department_id').references(() => departments.id),
  address_province_id: integer('address_province_id').references(() => provinces.id),
  address_district_id: integer('address_district_id').references(() => districts.id),
  address_address1: varchar('address_address1', { length: 200 }),
  address_address2: varchar('address_address2', { length: 200 }),
  address_other: varchar('address_other', { length: 200 }),
  address_postcode: varchar('address_postcode', { length: 20 }),
  address_phone: varchar('address_phone', { length: 30 }),
  address_phone_mobile: varchar('address_phone_mobile', { length: 30 }),
};

// ---------- Geography ----------
export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 3 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  ...active,
  ...timestamps,
});

export const departments = pgTable('departments', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 2 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  ...active,
  ...timestamps,
});

export const provinces = pgTable(
  'provinces',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 4 }).notNull().unique(),
    department_id: integer('department_id')
      .notNull()
      .references(() => departments.id),
    name: varchar('name', { length: 120 }).notNull(),
    ...active,
    ...timestamps,
  },
  (t) => [index('provinces_department_idx').on(t.department_id)],
);

export const districts = pgTable(
  'districts',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 6 }).notNull().unique(),
    province_id: integer('province_id')
      .notNull()
      .references(() => provinces.id),
    name: varchar('name', { length: 120 }).notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    ...active,
    ...timestamps,
  },
  (t) => [index('districts_province_idx').on(t.province_id)],
);

// ---------- Organisation ----------
export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 150 }).notNull().unique(),
  ruc: varchar('ruc', { length: 11 }),
  email: varchar('email', { length: 150 }),
  ...addressFields,
  ...active,
  ...timestamps,
});

export const zones = pgTable('zones', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 20 }),
  name: varchar('name', { length: 120 }).notNull().unique(),
  ...active,
  ...timestamps,
});

/**
 * One row per cached catalogue (zones and ubigeo, see CACHED_CATALOGUES): a statement trigger on
 * the catalogue adds 1 to its version on every insert, update or delete, whoever writes it (the
 * engine, an import, another server, psql). A list page reads the sum in the same statement, so a
 * server's in-process copy of the names is known stale at once (core/catalogue-cache.ts).
 */
export const catalogueVersions = pgTable('catalogue_versions', {
  table_name: varchar('table_name', { length: 63 }).primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * Small reference tables a list page names from the server's memory instead of looking them up
 * in SQL on every page (a page of dealers shows four of them). Each has its trigger and its row
 * in catalogue_versions (migration 0009); a table listed here without them is simply not cached.
 */
export const CACHED_CATALOGUES = ['zones', 'departments', 'provinces', 'districts'] as const;

export const dealers = pgTable(
  'dealers',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 20 }).notNull().unique(),
    name: varchar('name', { length: 150 }).notNull(),
    ruc: varchar('ruc', { length: 11 }),
    company_id: integer('company_id').references(() => companies.id),
    zone_id: integer('zone_id').references(() => zones.id),
    department_id: integer('department_id').references(() => departments.id),
    province_id: integer('province_id').references(() => provinces.id),
    district_id: integer('district_id').references(() => districts.id),
    email: varchar('email', { length: 150 }),
    ...addressFields,
    ...active,
    ...timestamps,
  },
  (t) => [
    index('dealers_zone_idx').on(t.zone_id),
    // The list sorts by name, then id, by default: the page's ids come from this index alone.
    index('dealers_name_idx').on(t.name, t.id),
    // A search by district name matches the dealers of the matching districts through this.
    index('dealers_district_idx').on(t.district_id),
    // The quick search (ILIKE '%text%') on the searched columns (pg_trgm, migration 0002).
    index('dealers_search_idx').using(
      'gin',
      t.code.op('gin_trgm_ops'),
      t.name.op('gin_trgm_ops'),
      t.ruc.op('gin_trgm_ops'),
    ),
  ],
);

export const dealerBranches = pgTable(
  'dealer_branches',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    code: varchar('code', { length: 20 }),
    name: varchar('name', { length: 150 }).notNull(),
    department_id: integer('department_id').references(() => departments.id),
    province_id: integer('province_id').references(() => provinces.id),
    district_id: integer('district_id').references(() => districts.id),
    ...addressFields,
    ...active,
    ...timestamps,
  },
  (t) => [index('dealer_branches_dealer_idx').on(t.dealer_id)],
);

export const employees = pgTable(
  'employees',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    dealer_branch_id: integer('dealer_branch_id').references(() => dealerBranches.id),
    first_name: varchar('first_name', { length: 100 }).notNull(),
    last_name: varchar('last_name', { length: 100 }).notNull(),
    document_number: varchar('document_number', { length: 20 }),
    position: varchar('position', { length: 100 }),
    email: varchar('email', { length: 150 }),
    phone: varchar('phone', { length: 30 }),
    license_category: varchar('license_category', { length: 10 }),
    ...active,
    ...timestamps,
  },
  (t) => [index('employees_dealer_idx').on(t.dealer_id)],
);

export const dealerContacts = pgTable(
  'dealer_contacts',
  {
    id: serial('id').primaryKey(),
    dealer_id: integer('dealer_id')
      .notNull()
      .references(() => dealers.id),
    name: varchar('name', { length: 150 }).notNull(),
    position: varchar('position', { length: 100 }),
    email: varchar('email', { length: 150 }),
    phone: varchar('phone', { length: 30 }),
    receives_alerts: boolean('receives_alerts').notNull().default(true),
    ...active,
    ...timestamps,
  },
  (t) => [
    // A dealer user's list (its dealer's contacts by name, then id) reads its page from this index.
    index('dealer_contacts_dealer_idx').on(t.dealer_id, t.name, t.id),
    index('dealer_contacts_search_idx').using(
      'gin',
      t.name.op('gin_trgm_ops'),
      t.email.op('gin_trgm_ops'),
      t.position.op('gin_trgm_ops'),
    ),
  ],
);

// ---------- Brands ----------
export const manufacturers = pgTable('manufacturers', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 2 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  color: varchar('color', { length: 9 }),
  ...active,
  ...timestamps,
});

export const manufacturerModels = pgTable(
  'manufacturer_models',
  {
    id: serial('id').primaryKey(),
    manufacturer_id: integer('manufacturer_id')
      .notNull()
      .references(() => manufacturers.id),
    code: varchar('code', { length: 30 }),
    name: varchar('name', { length: 150 }).notNull(),
    ...active,
    ...timestamps,
  },
  (t) => [
    index('manufacturer_models_manufacturer_idx').on(t.manufacturer_id),
    uniqueIndex('manufacturer_models_name_uq').on(t.manufacturer_id, t.name),
  ],
);

// ---------- Catalogues ----------
export const concepts = pgTable('concepts', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 30 }).notNull().unique(),
  name: varchar('name', { length: 150 }).notNull(),
  unit: varchar('unit', { length: 20 }),
  group: varchar('group', { length: 60 }),
  order: integer('order').notNull().default(0),
  /** Off: lower is better (compliance = fee ÷ figure). */
  higher_is_better: boolean('higher_is_better').notNull().default(true),
  /** How months and dealers add up: sum | avg (a rate, days) | last (a month-end stock). */
  aggregation: varchar('aggregation', { length: 4 }).notNull().default('sum'),
  /** Decimals a value takes (0: a count); null: its unit's (UNIT_DECIMALS). */
  decimals: smallint('decimals'),
  /** A dealer's month beyond this range is warned about on the screen, never refused. */
  plausible_min: numeric('plausible_min', { precision: 16, scale: 2, mode: 'number' }),
  plausible_max: numeric('plausible_max', { precision: 16, scale: 2, mode: 'number' }),
  ...active,
  ...timestamps,
});

/** Document categories: a tree (parent_id), the folders of the extranet. */
export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 120 }).notNull().unique(),
  parent_id: integer('parent_id').references((): AnyPgColumn => categories.id),
  description: varchar('description', { length: 300 }),
  ...active,
  ...timestamps,
});

export const generalTypes = pgTable('general_types', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 60 }).notNull().unique(),
  name: varchar('name', { length: 120 }).notNull(),
  ...active,
  ...timestamps,
});

export const typeValues = pgTable(
  'type_values',
  {
    id: serial('id').primaryKey(),
    general_type_id: integer('general_type_id')
      .notNull()
      .references(() => generalTypes.id),
    code: varchar('code', { length: 60 }).notNull(),
    name: varchar('name', { length: 120 }).notNull(),
    order: integer('order').notNull().default(0),
    payload: jsonb('payload'),
    ...active,
    ...timestamps,
  },
  (t) => [uniqueIndex('type_values_code_uq').on(t.general_type_id, t.code)],
);

export const configurations = pgTable('configurations', {
  id: serial('id').primaryKey(),
  key: varchar('key', { length: 80 }).notNull().unique(),
  value: text('value'),
  /** Public settings are answered by getUserConfigurations without a token. */
  is_public: boolean('is_public').notNull().default(false),
  description: varchar('description', { length: 200 }),
  ...timestamps,
});

// ---------- Security ----------
export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 80 }).notNull().unique(),
  description: varchar('description', { length: 200 }),
  is_static: boolean('is_static').notNull().default(false),
  ...active,
  ...timestamps,
});

export const permissions = pgTable('permissions', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 120 }).notNull().unique(),
  display_name: varchar('display_name', { length: 150 }),
  ...timestamps,
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    role_id: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission_id: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.role_id, t.permission_id] })],
);

export const tabs = pgTable(
  'tabs',
  {
    id: serial('id').primaryKey(),
    parent_id: integer('parent_id'),
    /** Screen name the client matches (SPEC §2), e.g. 'dealer', 'user'. */
    name: varchar('name', { length: 80 }).notNull().unique(),
    title: varchar('title', { length: 120 }).notNull(),
    path: varchar('path', { length: 200 }),
    icon: varchar('icon', { length: 80 }),
    order: integer('order').notNull().default(0),
    /** Permission base, e.g. 'Admin.Dealers'; '.view' shows it in the menu. */
    permission: varchar('permission', { length: 120 }),
    ...active,
    ...timestamps,
  },
  (t) => [index('tabs_parent_idx').on(t.parent_id)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 80 }).notNull().unique(),
    /** Stored trimmed and lower-cased (normaliseEmail); unique whatever the case or spaces. */
    email: varchar('email', { length: 150 }).notNull().unique(),
    full_name: varchar('full_name', { length: 150 }).notNull(),
    password_hash: text('password_hash').notNull(),
    /** Set: a dealer user limited to that dealer's records. */
    dealer_id: integer('dealer_id').references(() => dealers.id),
    default_tab: varchar('default_tab', { length: 80 }).notNull().default('home'),
    avatar_url: text('avatar_url'),
    confirmed: boolean('confirmed').notNull().default(true),
    /** Raised on password change and logout: tokens carry it, older ones stop working. */
    token_version: integer('token_version').notNull().default(0),
    /**
     * The TOTP secret (base32), encrypted with a key derived from the token secret
     * (security/two-factor.ts); never answered. Set at enrolment, in force once confirmed.
     */
    two_factor_secret: text('two_factor_secret'),
    /** When the second factor was confirmed: set means every login asks for a code. */
    two_factor_confirmed_at: timestamp('two_factor_confirmed_at', { withTimezone: true }),
    /** The TOTP time step of the last code accepted: a code is accepted once. */
    two_factor_last_step: integer('two_factor_last_step'),
    ...active,
    ...timestamps,
  },
  // A login name designates one account: user names are unique whatever their case, e-mails
  // whatever their case and surrounding spaces (login resolves both that way).
  (t) => [
    uniqueIndex('users_username_lower_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_normalised_uq').on(sql`lower(btrim(${t.email}))`),
    // The global search (modules/search) finds users by user name, name or e-mail.
    index('users_search_idx').using(
      'gin',
      t.username.op('gin_trgm_ops'),
      t.full_name.op('gin_trgm_ops'),
      t.email.op('gin_trgm_ops'),
    ),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role_id: integer('role_id')
      .notNull()
      .references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.role_id] })],
);

/**
 * Login attempts, for the lockout: keyed by the account (user_id) when the typed name resolves
 * to a user, else by the normalised typed name (user_id null). Rows older than a day are pruned.
 */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: serial('id').primaryKey(),
    /** The typed name, trimmed and lower-cased. */
    username: varchar('username', { length: 150 }).notNull(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Null while the password is being checked. */
    succeeded: boolean('succeeded'),
    ip: varchar('ip', { length: 64 }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_username_at_idx').on(t.username, t.at),
    index('login_attempts_user_at_idx').on(t.user_id, t.at),
    index('login_attempts_at_idx').on(t.at),
  ],
);

/** The recovery codes of a second factor: SHA-256 of each code, each usable once. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code_hash: varchar('code_hash', { length: 64 }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.user_id)],
);

/**
 * Secrets the server owns (the generated token-signing key): never read or written by any
 * call, unlike `configurations`, which administrators edit.
 */
export const serverSecrets = pgTable('server_secrets', {
  key: varchar('key', { length: 80 }).primaryKey(),
  value: text('value').notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: serial('id').primaryKey(),
    user_id: integer('user_id'),
    username: varchar('username', { length: 80 }),
    resource: varchar('resource', { length: 80 }).notNull(),
    record_id: integer('record_id'),
    action: varchar('action', { length: 20 }).notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_logs_resource_idx').on(t.resource, t.record_id), index('audit_logs_at_idx').on(t.at)],
);

/**
 * The per-address request counts of the limited calls (login, survey, uploads), kept here so
 * every instance on one database counts together (core/rate-limit.ts). One row per call and
 * address for the current window; rows whose window ended long ago are swept.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: varchar('key', { length: 300 }).primaryKey(),
    hits: integer('hits').notNull(),
    reset_at: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_reset_idx').on(t.reset_at)],
);

/**
 * Download tickets (core/download-ticket.ts): a link the browser opens carries one of these, never
 * the session. Each is for one user, one path and a minute, and is deleted when used, so it
 * serves once on any instance. Only its SHA-256 is kept.
 */
export const downloadTickets = pgTable(
  'download_tickets',
  {
    hash: varchar('hash', { length: 64 }).primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_version: integer('token_version').notNull(),
    path: varchar('path', { length: 500 }).notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('download_tickets_expires_idx').on(t.expires_at)],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  html: text('html'),
  text: text('text'),
  status: varchar('status', { length: 20 }).notNull().default('pending'),
  error: text('error'),
  sent_at: timestamp('sent_at', { withTimezone: true }),
  /** Files sent with the message (a scheduled report's .xlsx): [{filename, contentType, content (base64)}]. */
  attachments: jsonb('attachments').$type<MailAttachment[]>(),
  ...timestamps,
});

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64. */
  content: string;
}

// Background jobs as the user sees them: a big import or export started by one user, its
// progress, its answer (the bounded per-row report) or its file, its Spanish error. The queue
// itself (who runs it, retries, a server that died mid-job) is pg-boss's, in its own schema
// `pgboss`; this row is what core/jobs.ts writes and the jobs module's status call reads.
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
