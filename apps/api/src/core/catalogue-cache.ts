// The names of small catalogues (zones, ubigeo) in the server's memory, for list pages.
//
// A page of dealers shows a zone, a department, a province and a district: four lookups per row,
// which cost PostgreSQL more than reading the page itself. A page instead reads the references
// (zone_id, ...) and the catalogues' version in the same statement, and takes the names from
// here. The version is a sum kept by statement triggers on the catalogues (migration 0009, table
// catalogue_versions), so any write — the engine's, an import's, another server's, psql's — is
// seen by the very next page: a page whose version differs from the copy's reloads the copy
// before answering. Nothing is ever answered from a copy older than the page's own snapshot.
import { eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { CACHED_CATALOGUES, catalogueVersions } from '../db/schema';
import type { Db } from '../db/types';
import type { Row } from './resource';

/** The catalogues' version, read by a page in its own statement (one row, planned once). */
export const catalogueVersion = sql<number>`(select coalesce(sum(${catalogueVersions.version}), 0)::int from ${catalogueVersions})`;

interface Copy {
  version: number;
  rows: Map<unknown, Row>;
}

/** The catalogues of one database (one per database handle: tests open several at once). */
class CatalogueCache {
  private registered?: Promise<Set<string>>;
  private readonly copies = new Map<string, Copy>();
  private readonly loading = new Map<string, Promise<Copy>>();

  constructor(private readonly db: () => Db) {}

  /**
   * The cached catalogues this database has: those of CACHED_CATALOGUES with their row in
   * catalogue_versions (and so their trigger). Read once; a table without them is looked up in
   * SQL as before.
   */
  tables(): Promise<Set<string>> {
    this.registered ??= this.db()
      .select({ name: catalogueVersions.table_name })
      .from(catalogueVersions)
      .then((rows) => {
        const have = new Set(rows.map((r) => r.name));
        return new Set<string>(CACHED_CATALOGUES.filter((t) => have.has(t)));
      })
      .catch((err: unknown) => {
        this.registered = undefined; // e.g. the database was not reachable: ask again next time
        throw err;
      });
    return this.registered;
  }

  /** The rows of a catalogue by primary key, as of `version` or newer. */
  async rows(table: PgTable, version: number): Promise<Map<unknown, Row>> {
    const name = getTableName(table);
    const copy = this.copies.get(name);
    if (copy && copy.version === version) return copy.rows;
    // A copy of another version is reloaded once (a newer page, or a copy newer than this page:
    // either way the reload is at least as new as the page).
    let pending = this.loading.get(name);
    if (!pending) {
      pending = this.load(table).finally(() => this.loading.delete(name));
      this.loading.set(name, pending);
    }
    return (await pending).rows;
  }

  /** The whole catalogue and the version, in one statement (one snapshot). */
  private async load(table: PgTable): Promise<Copy> {
    const name = getTableName(table);
    const columns = getTableColumns(table);
    const read: { version: number; row: Row | null }[] = await this.db()
      .select({ version: catalogueVersion, row: columns })
      .from(catalogueVersions)
      .leftJoin(table, sql`true`)
      .where(eq(catalogueVersions.table_name, name));
    const rows = new Map<unknown, Row>();
    for (const r of read) if (r.row) rows.set(r.row.id, r.row);
    const copy = { version: Number(read[0]?.version ?? -1), rows };
    this.copies.set(name, copy);
    return copy;
  }
}

const caches = new WeakMap<object, CatalogueCache>();

/** The cache of a database (keyed by its drizzle instance). */
export function catalogueCache(db: Db): CatalogueCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CatalogueCache(() => db);
    caches.set(db, cache);
  }
  return cache;
}
