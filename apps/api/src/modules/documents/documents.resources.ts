// The declared resources of the library: categories (a tree) and documents. A dealer user's
// scope on documents is what is published to it: active, published on or before today (Lima),
// not expired, and for every dealer or for its own. The same scope answers 404 to a download of
// any other document (the actions' target). Only manufacturer users write documents.
import { categoryContract, documentContract } from '@app/contracts';
import { and, eq, exists, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { CurrentUser } from '../../core/context';
import { ForbiddenError, ValidationError } from '../../core/errors';
import { limaToday } from '../../core/lima';
import { defineResource, fromContract, type HookContext, type Row } from '../../core/resource';
import { categories } from '../../db/schema';
import { documentNotices } from '../notifications/notifications.service';
import { attachFiles, extendDocumentList, filesOf, setDealers } from './documents.files';
import { documents } from './documents.tables';

export const categoryResource = defineResource({
  ...fromContract(categoryContract),
  table: categories,
  display: {
    parent_name: sql<string | null>`(select p.name from categories p where p.id = "categories"."parent_id")`,
  },
  hooks: {
    async beforeSave(data, ctx) {
      if (ctx.id && data.parent_id) await assertNotInside(ctx, ctx.id, Number(data.parent_id));
      return data;
    },
  },
});

/** A category cannot sit inside itself or inside one of its own subcategories. */
async function assertNotInside(ctx: HookContext, id: number, parentId: number): Promise<void> {
  const seen = new Set<number>();
  for (let at: number | null = parentId; at !== null && !seen.has(at); ) {
    if (at === id)
      throw ValidationError.field(
        'parent_id',
        'Una categoría no puede estar dentro de sí misma ni de una de sus subcategorías',
      );
    seen.add(at);
    const [row]: { parent_id: number | null }[] = await ctx.tx
      .select({ parent_id: categories.parent_id })
      .from(categories)
      .where(eq(categories.id, at));
    at = row?.parent_id ?? null;
  }
}

/** What a dealer user sees: published to it, from its publication day up to its expiry day. */
export function visibleToDealer(user: CurrentUser, today = limaToday()): SQL {
  return and(
    eq(documents.active, true),
    lte(documents.published_at, today),
    or(isNull(documents.expires_at), gte(documents.expires_at, today)),
    or(
      eq(documents.all_dealers, true),
      exists(
        sql`(select 1 from document_dealers dd where dd.document_id = "documents"."id" and dd.dealer_id = ${user.dealerId ?? 0})`,
      ),
    ),
  ) as SQL;
}

/** ?category=<id>: the documents of the category and of every category inside it. */
function inCategoryTree(value: string): SQL | undefined {
  const id = Number(value);
  if (!Number.isInteger(id) || id <= 0) throw ValidationError.field('category', 'Categoría no es válido');
  return sql`${documents.category_id} in (with recursive tree(id) as (select ${id}::int union select c.id from categories c join tree on c.parent_id = tree.id) select id from tree)`;
}

/** ?status=published|scheduled|expired|hidden (the manufacturer's view of its library). */
function withStatus(value: string): SQL | undefined {
  const today = limaToday();
  switch (value) {
    case 'published':
      return and(
        eq(documents.active, true),
        lte(documents.published_at, today),
        or(isNull(documents.expires_at), gte(documents.expires_at, today)),
      );
    case 'scheduled':
      return and(eq(documents.active, true), sql`${documents.published_at} > ${today}`);
    case 'expired':
      return and(eq(documents.active, true), sql`${documents.expires_at} < ${today}`);
    case 'hidden':
      return eq(documents.active, false);
    default:
      throw ValidationError.field('status', 'Estado no es válido (published, scheduled, expired, hidden)');
  }
}

/** The values a save leaves on the record: the stored ones with the body's over them. */
const merged = (data: Row, before: Row | undefined, key: string) =>
  Object.hasOwn(data, key) ? data[key] : before?.[key];

export const documentResource = defineResource({
  ...fromContract(documentContract, { filters: ['category_id'] }),
  table: documents,
  dealerScoped: (user) => visibleToDealer(user),
  joins: [{ table: categories, on: eq(documents.category_id, categories.id) }],
  display: {
    category_name: categories.name,
    file_count: sql<number>`(select count(*)::int from document_files f where f.document_id = "documents"."id")`,
  },
  hidden: ['created_by'],
  filterHandlers: { category: inCategoryTree, status: withStatus },
  plainFilters: ['category', 'status'],
  extendList: (page, ctx) => extendDocumentList(page, ctx, visibleToDealer),
  hooks: {
    beforeSave(data, ctx) {
      if (ctx.user.isDealer) throw new ForbiddenError('Solo el fabricante publica documentos en la extranet');
      const published = merged(data, ctx.before, 'published_at') as string | undefined;
      const expires = merged(data, ctx.before, 'expires_at') as string | null | undefined;
      if (published && expires && expires < published)
        throw ValidationError.field(
          'expires_at',
          'La fecha de vencimiento debe ser igual o posterior a la fecha de publicación',
        );
      if (data.all_dealers === undefined && ctx.action === 'create') data.all_dealers = true;
      const allDealers = merged(data, ctx.before, 'all_dealers') !== false;
      const dealerIds = ctx.input.dealer_ids as number[] | undefined;
      if (!allDealers && ctx.action === 'create' && !dealerIds?.length)
        throw ValidationError.field(
          'dealer_ids',
          'Elija los concesionarios que verán el documento, o márquelo visible para todos',
        );
      if (!allDealers && dealerIds !== undefined && dealerIds.length === 0)
        throw ValidationError.field(
          'dealer_ids',
          'Elija los concesionarios que verán el documento, o márquelo visible para todos',
        );
      const fileIds = ctx.input.file_ids as number[] | undefined;
      if ((ctx.action === 'create' && !fileIds?.length) || (fileIds && fileIds.length === 0))
        throw ValidationError.field('file_ids', 'Adjunte al menos un archivo');
      if (ctx.action === 'create') data.created_by = ctx.user.id;
      return data;
    },
    async afterSave(_row, ctx) {
      const fileIds = ctx.input.file_ids as number[] | undefined;
      if (fileIds) await attachFiles(ctx.tx, ctx.id, fileIds);
      const allDealers = ctx.input.all_dealers as boolean | undefined;
      const dealerIds = ctx.input.dealer_ids as number[] | undefined;
      if (allDealers === true) await setDealers(ctx.tx, ctx.id, []);
      else if (dealerIds !== undefined) await setDealers(ctx.tx, ctx.id, dealerIds);
      // Published today (or in the last days): its dealers are told now; a later day, by the sweep.
      await documentNotices(ctx.tx, undefined, [ctx.id]);
    },
    async afterLoad(row, db) {
      return { ...row, files: await filesOf(db, [row.id as number]) };
    },
  },
});

export const documentsResources = [categoryResource, documentResource];
