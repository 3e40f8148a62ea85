// Connector to the external sales system. Configured by SALES_API_URL and SALES_API_TOKEN
// (configurations). GET {url}?date_from&date_to[&dealer_code] with a Bearer token; the answer is
// an array of sales, or {data|result|sales: [...]}, each with the SALE_ROW_KEYS (or the Spanish
// template headers). CASIS and SIMA connectors are the same `ExternalSystem` shape (external-list.ts).
import { SALE_ROW_KEYS, SALES_IMPORT_HEADERS } from '@app/contracts';
import type { Executor } from '../core/action';
import { withoutAccents } from '../core/text';
import { type ExternalSystem, fetchExternalList } from './external-list';

const SALES_API: ExternalSystem = {
  name: 'el API de ventas',
  records: 'ventas',
  urlKey: 'SALES_API_URL',
  tokenKey: 'SALES_API_TOKEN',
  listKeys: ['data', 'result', 'sales'],
};

/** A header as the connector compares it: any case, with or without accents ('Telefono' = 'Teléfono'). */
const headerKey = (h: string) => withoutAccents(h).toLowerCase();

/** Spanish header → row key, so the external system may answer in either vocabulary. */
const HEADER_KEYS = new Map<string, string>(
  SALES_IMPORT_HEADERS.map((h, i) => [headerKey(h), SALE_ROW_KEYS[i]]),
);

function normaliseKeys(o: unknown): Record<string, unknown> {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[HEADER_KEYS.get(headerKey(k)) ?? k] = v;
  return out;
}

export interface SalesApiQuery {
  date_from?: string;
  date_to?: string;
  /** For a dealer user: only that dealer's sales. */
  dealer_code?: string;
}

export async function fetchSalesFromApi(db: Executor, q: SalesApiQuery): Promise<Record<string, unknown>[]> {
  const list = await fetchExternalList(db, SALES_API, { ...q });
  return list.map(normaliseKeys);
}
