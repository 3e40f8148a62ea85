// Connector to the external sales system. Configured by SALES_API_URL and SALES_API_TOKEN
// (configurations). GET {url}?date_from&date_to[&dealer_code] with a Bearer token; the answer is
// an array of sales, or {data|result|sales: [...]}, each with the SALE_ROW_KEYS (or the Spanish
// template headers). CASIS and SIMA connectors follow the same shape.
import { SALE_ROW_KEYS, SALES_IMPORT_HEADERS } from '@app/contracts';
import type { Executor } from '../core/action';
import { AppError, BadRequestError } from '../core/errors';
import { readSetting } from '../modules/preferences/settings';

export const SALES_API_MESSAGES = {
  notConfigured:
    'El API de ventas no esta configurado: registre SALES_API_URL (y SALES_API_TOKEN) en Preferencias > Configuraciones',
  /**
   * Every failure of the external system answers this one text: neither its reply nor whether
   * the address was refused, answered HTTP or answered junk (which would map open ports).
   */
  failed:
    'No se pudieron obtener las ventas del API de ventas. Revise SALES_API_URL y SALES_API_TOKEN en Preferencias > Configuraciones o intente mas tarde',
} as const;

/** 502 with the fixed message; what went wrong is logged (`logDetail`), never answered. */
export class BadGatewayError extends AppError {
  readonly logDetail: string;
  constructor(logDetail: string) {
    super(502, SALES_API_MESSAGES.failed);
    this.logDetail = logDetail;
  }
}

const TIMEOUT_MS = 30_000;
const MAX_ROWS = 100_000;

/** Spanish header → row key, so the external system may answer in either vocabulary. */
const HEADER_KEYS = new Map<string, string>(
  SALES_IMPORT_HEADERS.map((h, i) => [h.toLowerCase(), SALE_ROW_KEYS[i]]),
);

function normaliseKeys(o: unknown): Record<string, unknown> {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[HEADER_KEYS.get(k.toLowerCase()) ?? k] = v;
  return out;
}

export interface SalesApiQuery {
  date_from?: string;
  date_to?: string;
  /** For a dealer user: only that dealer's sales. */
  dealer_code?: string;
}

export async function fetchSalesFromApi(db: Executor, q: SalesApiQuery): Promise<Record<string, unknown>[]> {
  const base = await readSetting(db, 'SALES_API_URL');
  if (!base) throw new BadRequestError(SALES_API_MESSAGES.notConfigured);
  let url: URL;
  try {
    url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new BadRequestError(`${SALES_API_MESSAGES.notConfigured} (la URL "${base}" no es valida)`);
  }
  for (const [k, v] of Object.entries(q)) if (v) url.searchParams.set(k, v);
  const token = await readSetting(db, 'SALES_API_TOKEN');
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const inner = (err as { cause?: { code?: string; message?: string } })?.cause;
    const cause = inner?.code ?? inner?.message ?? (err as Error)?.name;
    throw new BadGatewayError(`sin conexion con ${url.origin}${cause ? `: ${cause}` : ''}`);
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new BadGatewayError(`${url.origin} respondio HTTP ${res.status}${text ? `: ${text}` : ''}`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new BadGatewayError(`${url.origin} no respondio JSON`);
  }
  const list = Array.isArray(body)
    ? body
    : ((body as Record<string, unknown>)?.data ??
      (body as Record<string, unknown>)?.result ??
      (body as Record<string, unknown>)?.sales);
  if (!Array.isArray(list)) throw new BadGatewayError(`${url.origin} no respondio una lista de ventas`);
  if (list.length > MAX_ROWS) throw new BadGatewayError(`${url.origin} respondio mas de ${MAX_ROWS} ventas`);
  return list.map(normaliseKeys);
}
