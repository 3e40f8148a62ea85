// A resource is declared once (table, zod schema, permission base, list behaviour, dealer
// scope); registerResource() derives its generic calls from the declaration (resource-routes).

import { type FieldSpec, fieldsWith, type ResourceContract } from '@app/contracts';
import { getTableColumns, getTableName, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Executor, Tx } from '../db/types';
import type { CurrentUser } from './context';
import type { QueryParams } from './http';
import { registerTableLabels } from './labels';

export type Row = Record<string, any>;

/** A stored record of a table as a hook reads it: its columns typed, plus what the answer adds. */
export type TableRow<T extends PgTable> = T['$inferSelect'] & Row;

export interface HookContext<R extends Row = Row, I extends Row = Row> {
  /** The transaction the change runs in. */
  tx: Tx;
  user: CurrentUser;
  action: 'create' | 'update' | 'delete';
  /** The record id (undefined before an insert). */
  id?: number;
  /** The record before the change (update, delete). */
  before?: R;
  /** The validated body, including fields that are not columns (e.g. users.roles). */
  input: I;
}

/** R: the table's stored row; I: the validated body (partial on update). */
export interface ResourceHooks<R extends Row = Row, I extends Row = Row> {
  /** Returns the values to write; only keys that are table columns are written. */
  beforeSave?(data: I, ctx: HookContext<R, I>): Row | Promise<Row>;
  afterSave?(row: R, ctx: HookContext<R, I> & { id: number }): void | Promise<void>;
  beforeDelete?(ctx: HookContext<R, I> & { id: number; before: R }): void | Promise<void>;
  /** Adds to the answer of get/{id} (e.g. a user's role ids). */
  afterLoad?(row: R, db: Executor): Row | Promise<Row>;
}

export interface ResourceOptions<S extends z.ZodObject = z.ZodObject, T extends PgTable = PgTable> {
  /** Name in the audit log and the OpenAPI tags, e.g. 'dealers'. */
  name: string;
  /** URL segment after /api/, e.g. 'dealer-branches'. */
  path: string;
  table: T;
  /** Create schema; update uses `updateSchema` or `schema.partial()`. */
  schema: S;
  updateSchema?: z.ZodObject;
  /** Permission base, e.g. 'Admin.Dealers' (.view .store .update .destroy .export). */
  permission: string;
  /** Spanish title, e.g. 'Concesionarios' (export file name, "in use in ..." messages). */
  label: string;
  /** Spanish label per field (export headers, error messages). */
  labels: Record<string, string>;
  /** The contract's fields: the export writes a fixed list's names and dates as the screen shows them. */
  fields?: Record<string, FieldSpec>;
  searchable: string[];
  sortable: string[];
  defaultSort: string | { field: string; order: 'asc' | 'desc' };
  /** Fields accepted as filter[field]=value (comma list = any of). */
  filters?: string[];
  /** Custom filters, e.g. date ranges: filter[date_from]=2024-01-01. */
  filterHandlers?: Record<string, (value: string) => SQL | undefined>;
  /**
   * Filters also read from a plain query parameter (`?status=open` as `filter[status]=open`),
   * for calls that predate the filter[...] form; each is a key of `filters` or `filterHandlers`.
   */
  plainFilters?: string[];
  /** Filters applied when the request names no value for them (e.g. alerts: status 'open'). */
  defaultFilters?: Record<string, string>;
  /**
   * Dealer scope: a column holding the dealer id ('dealer_id'; 'id' for dealers itself) or a
   * condition built from the user. Dealer users see and write only their dealer's rows.
   */
  dealerScoped?: string | ((user: CurrentUser) => SQL | undefined);
  /** 'authenticated': perPage=-1 and query-search need only a login (catalogues for selects). */
  lookup?: 'authenticated' | 'permission';
  /**
   * With lookup 'authenticated': the only fields perPage=-1, query-search and get/{id} answer
   * to a user without `<permission>.view` (e.g. id, code, name of a dealer for a select); the
   * quick search then looks only in these fields and get/{id} skips `afterLoad`. Unset: the
   * whole record (reference data such as ubigeo, brands, fixed lists).
   */
  lookupFields?: string[];
  /** Table columns never answered (e.g. password_hash). */
  hidden?: string[];
  /** Left joins for display fields. */
  joins?: { table: PgTable | any; on: SQL }[];
  /** Extra answered fields, e.g. { zone_name: zones.name }. */
  display?: Record<string, PgColumn | SQL | SQL.Aliased>;
  /**
   * Answered fields computed from other answered fields once they are read (never searched,
   * sorted or filtered), e.g. a dealer's full address from its street and ubigeo names: the
   * inputs may then come from the server's catalogue copy (core/catalogue-cache.ts).
   */
  computed?: Record<string, { from: string[]; value(row: Row): unknown }>;
  /** Default export columns (defaults to every answered field). */
  listColumns?: string[];
  /** No create/update/delete routes. */
  readOnly?: boolean;
  /**
   * A display field reads the clock (core/lima `lazyToday`): its pages are never prepared, so
   * each one is built with the day it is read on.
   */
  clockDependent?: boolean;
  /** Default page size (SPEC §9). */
  pageSize?: number;
  /** Order of perPage=-1 and query-search (defaults to name, else defaultSort). */
  lookupOrder?: string;
  /**
   * Reshapes the paged answer (e.g. manufacturer-models adds items/totalCount; quiz responses
   * attach their answers, reading `db`; documents add the caller's read marks, reading `user`).
   */
  extendList?(
    result: { total: number; totalIsEstimate?: boolean; data: Row[] },
    ctx: { query: QueryParams; db: Executor; user: CurrentUser },
  ): unknown;
  hooks?: ResourceHooks<TableRow<T>, Partial<z.output<S>> & Row>;
}

export interface Resource<S extends z.ZodObject = z.ZodObject, T extends PgTable = PgTable>
  extends ResourceOptions<S, T> {
  tableName: string;
  columns: Record<string, PgColumn>;
  /** What a read answers: table columns minus hidden, plus display fields. */
  selection: Record<string, PgColumn | SQL | SQL.Aliased>;
  /** Every answered field: the selection's, then the computed ones. */
  answered: string[];
  sort: { field: string; order: 'asc' | 'desc' };
  activeColumn?: PgColumn;
  dealerColumn?: string;
}

export function defineResource<S extends z.ZodObject, T extends PgTable>(
  options: ResourceOptions<S, T>,
): Resource<S, T> {
  const tableName = getTableName(options.table);
  const columns = getTableColumns(options.table) as Record<string, PgColumn>;
  const selection: Record<string, PgColumn | SQL | SQL.Aliased> = {};
  for (const [k, c] of Object.entries(columns)) if (!options.hidden?.includes(k)) selection[k] = c;
  Object.assign(selection, options.display ?? {});
  const sort =
    typeof options.defaultSort === 'string'
      ? { field: options.defaultSort, order: 'asc' as const }
      : options.defaultSort;
  for (const key of [
    ...options.searchable,
    ...options.sortable,
    sort.field,
    ...(options.filters ?? []),
    ...(options.lookupFields ?? []),
  ]) {
    if (!(key in selection)) throw new Error(`Recurso ${options.name}: campo desconocido ${key}`);
  }
  for (const [key, c] of Object.entries(options.computed ?? {})) {
    const missing = c.from.filter((k) => !(k in selection));
    if (key in selection || missing.length)
      throw new Error(`Recurso ${options.name}: campo calculado ${key} no válido (${missing.join(', ')})`);
  }
  for (const key of [...(options.plainFilters ?? []), ...Object.keys(options.defaultFilters ?? {})]) {
    if (!options.filters?.includes(key) && !Object.hasOwn(options.filterHandlers ?? {}, key))
      throw new Error(`Recurso ${options.name}: filtro desconocido ${key}`);
  }
  registerTableLabels(tableName, options.label, options.labels);
  return {
    lookup: 'permission',
    ...options,
    tableName,
    columns,
    selection,
    answered: [...Object.keys(selection), ...Object.keys(options.computed ?? {})],
    sort,
    activeColumn: columns.active,
    dealerColumn: typeof options.dealerScoped === 'string' ? options.dealerScoped : undefined,
  };
}

/** Display fields a resource adds to its contract's (answered only by the server). */
export interface ContractExtras {
  searchable?: string[];
  sortable?: string[];
  filters?: string[];
  labels?: Record<string, string>;
}

/**
 * The declaration fields a shared contract already says: path, permission, title, labels, the
 * schema, the page size, the list order and lookup rules of its head, and which fields the list
 * searches, sorts and filters by (the field flags, so a grid column the contract calls sortable
 * is one the server sorts). A resource may add display fields of its own with `extras`.
 */
export function fromContract<S extends z.ZodObject>(c: ResourceContract<S>, extras: ContractExtras = {}) {
  return {
    name: c.path,
    path: c.path,
    permission: c.permission,
    label: c.title,
    labels: { ...c.labels, ...extras.labels },
    fields: c.fields,
    schema: c.schema,
    pageSize: c.pageSize,
    defaultSort: c.sort ?? ('name' in c.fields ? 'name' : 'id'),
    lookup: c.lookup ?? ('permission' as const),
    lookupOrder: c.lookupOrder,
    lookupFields: c.lookupFields ? [...c.lookupFields] : undefined,
    searchable: [...fieldsWith(c, 'search'), ...(extras.searchable ?? [])],
    sortable: [...fieldsWith(c, 'sort'), ...(extras.sortable ?? [])],
    filters: [...fieldsWith(c, 'filter'), ...(extras.filters ?? [])],
  };
}

/**
 * A plain resource: its contract and its table say everything (no joins, hooks or scope), so
 * the registry declares it (core/registry `plainResources`).
 */
export function plainResource(contract: ResourceContract, table: PgTable): Resource {
  return defineResource({ ...fromContract(contract), table });
}
