// The global search of the top bar: dealers by code or name, sales by VIN, invoice or buyer,
// agreements by title, documents by title, users by name or e-mail. One query per kind, only the
// kinds the caller may view (their screen's .view permission), each within the call's dealer
// scope (the engine's ctx.scope on the kind's dealer column: a dealer user finds only its own
// dealer's sales, even by exact VIN), documents within their own visibility rule.
//
// Every condition is an ILIKE '%text%' that a pg_trgm GIN index answers (0002_list_search,
// 0007_seguimiento_taller, 0017_global-search), or a whole VIN's equality on its unique index; no
// ORDER BY over the big tables' matches, so a common word stops at the first SEARCH_PER_KIND rows
// instead of sorting thousands, and on sales one LIMITed branch per column (findSales), never an
// OR across columns that the planner answers with a sequential scan (bench/search.mjs).
import {
  shellCalls as calls,
  SEARCH_KINDS,
  SEARCH_MIN_LENGTH,
  SEARCH_PER_KIND,
  type SearchAnswer,
  type SearchHit,
  type SearchKind,
  VIN_RE,
} from '@app/contracts';
import { and, asc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { defineAction, type Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { escapeLike, scopeCondition } from '../../core/resource-query';
import type { Scope } from '../../core/scope';
import { documentResource } from '../documents/documents.resources';
import { agreements, categories, dealers, documents, sales, users } from '../tables';

/** Who searches: the caller and the call's dealer scope (the engine's: a dealer user's own dealer). */
type Searcher = { user: CurrentUser; scope: Scope };

type Finder = (db: Executor, pattern: string, who: Searcher, q: string) => Promise<Omit<SearchHit, 'kind'>[]>;

const n = SEARCH_PER_KIND;
/** What may be a whole invoice number: letters, digits and dashes, with a digit, no spaces. */
const INVOICE_RE = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9-]{3,39}$/;

const FINDERS: Record<SearchKind, Finder> = {
  dealers: (db, p, { scope }) =>
    db
      .select({ id: dealers.id, title: dealers.name, subtitle: dealers.code })
      .from(dealers)
      .where(and(or(ilike(dealers.code, p), ilike(dealers.name, p)), scope.on(dealers.id)))
      .orderBy(asc(dealers.name), asc(dealers.id))
      .limit(n),
  sales: findSales,
  agreements: (db, p, { scope }) =>
    db
      .select({ id: agreements.id, title: agreements.title, subtitle: dealers.name })
      .from(agreements)
      .leftJoin(dealers, eq(dealers.id, agreements.dealer_id))
      .where(and(ilike(agreements.title, p), scope.on(agreements.dealer_id)))
      .limit(n),
  // A document's visibility is its own rule (published to the caller's dealer), not a dealer column.
  documents: (db, p, { user }) =>
    db
      .select({ id: documents.id, title: documents.title, subtitle: categories.name })
      .from(documents)
      .leftJoin(categories, eq(categories.id, documents.category_id))
      .where(and(ilike(documents.title, p), scopeCondition(documentResource, user)))
      .limit(n),
  users: (db, p, { scope }) =>
    db
      .select({
        id: users.id,
        title: users.full_name,
        subtitle: sql<string>`${users.username} || ' · ' || ${users.email}`,
      })
      .from(users)
      .where(
        and(
          or(ilike(users.username, p), ilike(users.full_name, p), ilike(users.email, p)),
          // A dealer user who may view users finds its own dealer's only.
          scope.on(users.dealer_id),
        ) as SQL,
      )
      .orderBy(asc(users.full_name), asc(users.id))
      .limit(n),
};

/**
 * Sales by VIN, invoice or buyer: one branch per column, each with its own LIMIT, so each is
 * planned on its own index (an OR of the three under one small LIMIT was planned as a sequential
 * scan of the whole table, 7 s on a million sales for a text no row holds twice). A whole VIN
 * (17 letters and digits) is one row of the VIN's unique index: an equality, not a trigram search.
 * The rows are the VIN's first, then the invoice's, then the buyer's.
 */
async function findSales(db: Executor, pattern: string, who: Searcher, q: string) {
  const scope = who.scope.on(sales.dealer_id);
  const vin = q.toUpperCase();
  const branch = (rank: number, cond: SQL) =>
    sql`(select ${sales.id} as id, ${sql.raw(String(rank))} as rank from ${sales} where ${and(cond, scope)} limit ${n})`;
  // A whole invoice number (any case) is looked up on its exact index (sales_invoice_upper_idx):
  // its trigrams ('F00', '000', '-00') are in nearly every invoice, so the trigram search of a
  // whole number reads most of the index. Only when no invoice is exactly the text is it searched
  // as a part of one.
  const upperInvoice = sql`upper(${sales.invoice})`;
  let invoice = ilike(sales.invoice, pattern);
  if (INVOICE_RE.test(q)) {
    const exact = await db
      .select({ id: sales.id })
      .from(sales)
      .where(and(eq(upperInvoice, vin), scope))
      .limit(1);
    if (exact.length) invoice = eq(upperInvoice, vin) as SQL;
  }
  const branches = [
    VIN_RE.test(vin) ? branch(1, eq(sales.vin, vin)) : branch(1, ilike(sales.vin, pattern)),
    branch(2, invoice),
    branch(3, ilike(sales.buyer_name, pattern)),
  ];
  const res = await db.execute<{ id: number; title: string; subtitle: string | null }>(sql`
    select ${sales.id} as id, ${sales.vin} as title,
           concat_ws(' · ', ${sales.buyer_name}, 'Factura ' || ${sales.invoice}, ${dealers.name}) as subtitle
    from (select id, min(rank) as rank from (${sql.join(branches, sql` union all `)}) b group by id) m
    join ${sales} on ${sales.id} = m.id
    left join ${dealers} on ${dealers.id} = ${sales.dealer_id}
    order by m.rank, ${sales.id}
    limit ${n}`);
  return res.rows.map((r) => ({ id: Number(r.id), title: r.title, subtitle: r.subtitle }));
}

const search = defineAction({
  ...calls.search,
  summary:
    'Búsqueda global: concesionarios, ventas, seguimiento, documentos y usuarios que el usuario puede ver',
  tags: ['Búsqueda'],
  access: 'login',
  async handler({ user, scope, query, db }) {
    const q = (query.q ?? '').trim().replace(/\s+/g, ' ').slice(0, 100);
    const answer: SearchAnswer = { q, groups: [] };
    if (q.length < SEARCH_MIN_LENGTH) return answer;
    const pattern = `%${escapeLike(q)}%`;
    const kinds = SEARCH_KINDS.filter((k) => user.permissions.has(k.permission));
    const found = await Promise.all(kinds.map((k) => FINDERS[k.kind](db, pattern, { user, scope }, q)));
    kinds.forEach((k, i) => {
      const hits = found[i]!;
      if (hits.length)
        answer.groups.push({
          kind: k.kind,
          title: k.title,
          hits: hits.map((h) => ({ kind: k.kind, id: h.id, title: h.title, subtitle: h.subtitle ?? null })),
        });
    });
    return answer;
  },
});

export const searchActions = [search];
