// Connector to the external sales system. Configured by SALES_API_URL and SALES_API_TOKEN
// (configurations). GET {url}?date_from&date_to[&dealer_code] with a Bearer token; the answer is
// an array of sales, or {data|result|sales: [...]}, each with the SALE_ROW_KEYS (or the Spanish
// template headers). CASIS and SIMA connectors follow the same shape.
import { SALE_ROW_KEYS, SALES_IMPORT_HEADERS } from '@app/contracts';
import { AppError, BadRequestError } from '../core/errors';
import type { DatabaseHandle } from '../db/client';
import { readSetting } from './settings';

export const SALES_API_MESSAGES = {
  notConfigured:
    'El API de ventas no esta configurado: registre SALES_API_URL (y SALES_API_TOKEN) en Preferencias > Configuraciones',
  unreachable: 'No se pudo conectar con el API de ventas',
  badAnswer: 'El API de ventas devolvio una respuesta no valida',
  rejected: (status: number) => `El API de ventas rechazo la solicitud (HTTP ${status})`,
} as const;

export class BadGatewayError extends AppError {
  constructor(message: string, details?: string) {
    super(502, message, details);
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

export async function fetchSalesFromApi(
  handle: DatabaseHandle,
  q: SalesApiQuery,
): Promise<Record<string, unknown>[]> {
  const base = await readSetting(handle, 'SALES_API_URL');
  if (!base) throw new BadRequestError(SALES_API_MESSAGES.notConfigured);
  let url: URL;
  try {
    url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new BadRequestError(`${SALES_API_MESSAGES.notConfigured} (la URL "${base}" no es valida)`);
  }
  for (const [k, v] of Object.entries(q)) if (v) url.searchParams.set(k, v);
  const token = await readSetting(handle, 'SALES_API_TOKEN');
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } })?.cause?.code ?? (err as Error)?.name;
    throw new BadGatewayError(SALES_API_MESSAGES.unreachable, cause ? `${url.origin}: ${cause}` : url.origin);
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw new BadGatewayError(SALES_API_MESSAGES.rejected(res.status), text || undefined);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new BadGatewayError(SALES_API_MESSAGES.badAnswer, 'No es JSON');
  }
  const list = Array.isArray(body)
    ? body
    : ((body as Record<string, unknown>)?.data ??
      (body as Record<string, unknown>)?.result ??
      (body as Record<string, unknown>)?.sales);
  if (!Array.isArray(list))
    throw new BadGatewayError(SALES_API_MESSAGES.badAnswer, 'Se esperaba una lista de ventas');
  if (list.length > MAX_ROWS)
    throw new BadGatewayError(SALES_API_MESSAGES.badAnswer, `Mas de ${MAX_ROWS} ventas`);
  return list.map(normaliseKeys);
}
