// The global search of the top bar (GET /api/search?q=): what it finds, grouped by kind, each kind
// shown only to those who may view its screen and within their dealer scope (server side).
import { defineQuery, textParam } from './query';

/** The kinds, in the order the box shows them: its group title, the permission, its screen. */
export const SEARCH_KINDS = [
  { kind: 'dealers', title: 'Concesionarios', permission: 'Admin.Dealers.view', screen: 'dealer' },
  { kind: 'sales', title: 'Ventas', permission: 'Sales.view', screen: 'sales' },
  { kind: 'agreements', title: 'Seguimiento', permission: 'Agreements.view', screen: 'agreement' },
  { kind: 'documents', title: 'Documentos', permission: 'Documents.view', screen: 'extranet' },
  { kind: 'users', title: 'Usuarios', permission: 'Admin.Users.view', screen: 'user' },
] as const;

export type SearchKind = (typeof SEARCH_KINDS)[number]['kind'];

/** Fewer characters would match half a table: the box waits for this many. */
export const SEARCH_MIN_LENGTH = 3;
/** Results of each kind. */
export const SEARCH_PER_KIND = 5;

/** GET /api/search: ?q, the text (longer texts are cut at 100 characters). */
export const searchQuery = defineQuery({
  q: textParam(500).meta({ type: 'string', description: `Texto (al menos ${SEARCH_MIN_LENGTH} caracteres)` }),
});

export interface SearchHit {
  kind: SearchKind;
  id: number;
  /** What the row is called (a dealer's name, a sale's VIN, an agreement's title...). */
  title: string;
  /** A second line: code, buyer and invoice, dealer... */
  subtitle: string | null;
}

export interface SearchAnswer {
  q: string;
  /** Only the kinds the caller may view, each with at most SEARCH_PER_KIND hits. */
  groups: { kind: SearchKind; title: string; hits: SearchHit[] }[];
}

export const searchMessages = {
  tooShort: `Escriba al menos ${SEARCH_MIN_LENGTH} caracteres`,
  empty: (q: string) => `Sin resultados para «${q}»`,
};
