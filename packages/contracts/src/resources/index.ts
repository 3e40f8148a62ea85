export * from './agreements';
export * from './brands';
export * from './catalogues';
export * from './documents';
export * from './fields';
export * from './geography';
export * from './organisation';
export * from './preferences';
export * from './security';
export * from './workshop';

import { DISPATCH_CONTRACTS } from '../dispatches';
import { FIGURE_CONTRACTS } from '../figures';
import { QUIZ_CONTRACTS } from '../quiz';
import { SALE_CONTRACTS } from '../sales';
import { AGREEMENT_CONTRACTS } from './agreements';
import { BRAND_CONTRACTS } from './brands';
import { CATALOGUE_CONTRACTS } from './catalogues';
import { DOCUMENT_CONTRACTS } from './documents';
import { GEOGRAPHY_CONTRACTS } from './geography';
import { ORGANISATION_CONTRACTS } from './organisation';
import { PREFERENCE_CONTRACTS } from './preferences';
import { SECURITY_CONTRACTS } from './security';
import { WORKSHOP_CONTRACTS } from './workshop';

type ByPath<T extends readonly { path: string }[]> = { [C in T[number] as C['path']]: C };

function byPath<const T extends readonly { path: string }[]>(list: T): ByPath<T> {
  return Object.fromEntries(list.map((c) => [c.path, c])) as ByPath<T>;
}

/**
 * Every resource's contract by its API path, gathered from each module's list (a new contract
 * is added to its module's list, nowhere else). The menu's resource entries (MENU_TREE), the
 * generic screen of a menu entry, the audit screen's titles and filter, and the server's
 * registry (apps/api/test/registry.test.ts) are read from here.
 */
export const RESOURCE_CONTRACTS = byPath([
  ...ORGANISATION_CONTRACTS,
  ...GEOGRAPHY_CONTRACTS,
  ...BRAND_CONTRACTS,
  ...CATALOGUE_CONTRACTS,
  ...PREFERENCE_CONTRACTS,
  ...SECURITY_CONTRACTS,
  ...SALE_CONTRACTS,
  ...QUIZ_CONTRACTS,
  ...DISPATCH_CONTRACTS,
  ...FIGURE_CONTRACTS,
  ...AGREEMENT_CONTRACTS,
  ...WORKSHOP_CONTRACTS,
  ...DOCUMENT_CONTRACTS,
]);

export type ResourcePath = keyof typeof RESOURCE_CONTRACTS;

/**
 * The Spanish title of a resource the audit trail names (its API path), e.g. 'sales' is 'CEM';
 * the audit screen, its resource filter and its export show these.
 */
/** What declared actions audit that is not a resource of its own (the user's notifications). */
export const AUDITED_CALLS: { id: string; name: string }[] = [
  { id: 'notifications', name: 'Notificaciones' },
  { id: 'saved-views', name: 'Vistas guardadas' },
  { id: 'mail-outbox', name: 'Correos pendientes' },
  { id: 'mail-schedules', name: 'Correos programados' },
];

export const AUDIT_RESOURCES: { id: string; name: string }[] = Object.values(
  RESOURCE_CONTRACTS as Record<string, { path: string; title: string }>,
)
  .map((c) => ({ id: c.path, name: c.title }))
  .concat(AUDITED_CALLS)
  .sort((a, b) => a.name.localeCompare(b.name));
