// Connector to SIMA, the importer's dispatch system. Configured by SIMA_API_URL (its base, e.g.
// https://sima.example.com/api) and SIMA_API_TOKEN (configurations). GET {url}/despachos?date_from
// &date_to answers the dispatch lines of the period; GET {url}/marcas its brands. Either answer
// is an array or {data|result|despachos|marcas: [...]}.
import type { Executor } from '../core/action';
import { BadRequestError } from '../core/errors';
import { readSetting } from '../modules/preferences/settings';
import { type ExternalSystem, externalMessages, fetchExternalList } from './external-list';

const SIMA: ExternalSystem = {
  name: 'SIMA',
  records: 'despachos',
  article: 'los',
  urlKey: 'SIMA_API_URL',
  tokenKey: 'SIMA_API_TOKEN',
  listKeys: ['data', 'result', 'despachos'],
  maxRows: 200_000,
};

const SIMA_BRANDS: ExternalSystem = {
  ...SIMA,
  records: 'marcas',
  article: 'las',
  listKeys: ['data', 'result', 'marcas'],
};

/** SIMA's URL is set, else the same 400 the pull would answer (checked before a pull is queued). */
export async function requireSimaConfigured(db: Executor): Promise<void> {
  if (!(await readSetting(db, SIMA.urlKey))) throw new BadRequestError(externalMessages(SIMA).notConfigured);
}

/** One dispatch line as SIMA sends it (Spanish or English keys; see simaField). */
export type SimaRecord = Record<string, unknown>;

/** The dispatch lines of a period (dates YYYY-MM-DD, both included). */
export async function fetchSimaDispatches(
  db: Executor,
  period: { date_from: string; date_to: string },
): Promise<SimaRecord[]> {
  const list = await fetchExternalList(db, SIMA, period, 'despachos');
  return list.map((o) => (o && typeof o === 'object' && !Array.isArray(o) ? (o as SimaRecord) : {}));
}

export interface SimaBrand {
  code: string;
  name: string;
}

/** SIMA's brands: {code|codigo, name|nombre|marca}, or plain names. */
export async function fetchSimaBrands(db: Executor): Promise<SimaBrand[]> {
  const list = await fetchExternalList(db, SIMA_BRANDS, {}, 'marcas');
  const out: SimaBrand[] = [];
  for (const item of list) {
    if (typeof item === 'string' && item.trim()) out.push({ code: item.trim(), name: item.trim() });
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      const code = String(o.code ?? o.codigo ?? o.id ?? '').trim();
      const name = String(o.name ?? o.nombre ?? o.marca ?? code).trim();
      if (code || name) out.push({ code: code || name, name: name || code });
    }
  }
  return out;
}
