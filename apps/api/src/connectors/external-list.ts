// One way to an external system (sales API, CASIS, SIMA): its URL and token are settings
// (Preferencias > Configuraciones), it answers JSON with a list of records, and every failure
// answers one fixed Spanish message while the detail goes to the log. A connector is a
// `ExternalSystem` description plus a call to `fetchExternalList`.
import { Agent, fetch, type Response } from 'undici';
import type { Executor } from '../core/action';
import { AppError, BadRequestError } from '../core/errors';
import { checkedLookup, hostOf, internalHostMessage, internalHostReason } from '../lib/outbound-host';
import { readSetting } from '../modules/preferences/settings';

export interface ExternalSystem {
  /** Spanish name in messages: 'el API de ventas', 'CASIS', 'SIMA'. */
  name: string;
  /** What it answers, plural and Spanish: 'ventas', 'cifras', 'despachos'. */
  records: string;
  /** The article of `records` (default 'las'; 'los' for despachos). */
  article?: 'las' | 'los';
  urlKey: string;
  tokenKey: string;
  /** Keys of an object answer that may hold the list (besides a bare array). */
  listKeys?: string[];
  maxRows?: number;
  timeoutMs?: number;
}

/** Who reads the messages: one who opens Preferencias > Configuraciones is told what to set there. */
export type ExternalAudience = 'configures' | 'user';

export function externalMessages(system: ExternalSystem, audience: ExternalAudience = 'configures') {
  const keys = `${system.urlKey} y ${system.tokenKey} en Preferencias > Configuraciones`;
  // A user who cannot open the settings (a dealer) is never sent to a screen it cannot open.
  if (audience === 'user')
    return {
      notConfigured: `${capitalise(system.name)} no está configurado: pida al administrador del sistema que lo configure`,
      failed: `No se pudieron obtener ${system.article ?? 'las'} ${system.records} ${of(system.name)}. Intente más tarde; si sigue fallando, avise al administrador del sistema`,
    };
  return {
    notConfigured: `${capitalise(system.name)} no está configurado: registre ${system.urlKey} (y ${system.tokenKey}) en Preferencias > Configuraciones`,
    /**
     * Every failure of the external system answers this one text: neither its reply nor whether
     * the address was refused, answered HTTP or answered junk (which would map open ports).
     */
    failed: `No se pudieron obtener ${system.article ?? 'las'} ${system.records} ${of(system.name)}. Revise ${keys} o intente más tarde`,
  };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** 'de' before a name, contracted before 'el' (del API de ventas, de CASIS). */
const of = (name: string) => (name.startsWith('el ') ? `del ${name.slice(3)}` : `de ${name}`);

/** Connections to the external systems: their sockets reach only addresses the check allows. */
const outbound = new Agent({ connect: { lookup: checkedLookup } });

/** 502 with the system's fixed message; what went wrong is logged (`logDetail`), never answered. */
export class BadGatewayError extends AppError {
  readonly logDetail: string;
  constructor(message: string, logDetail: string) {
    super(502, message);
    this.logDetail = logDetail;
  }
}

/**
 * GET {url}?query with the Bearer token; the answer is an array, or an object holding one under
 * one of `listKeys` (default data, result). Not configured → 400; any failure → 502.
 */
export async function fetchExternalList(
  db: Executor,
  system: ExternalSystem,
  query: Record<string, string | undefined>,
  /** A path under the configured URL (SIMA: 'despachos', 'marcas'). */
  subPath?: string,
  audience: ExternalAudience = 'configures',
): Promise<unknown[]> {
  const messages = externalMessages(system, audience);
  const fail = (detail: string) => new BadGatewayError(messages.failed, detail);
  const base = await readSetting(db, system.urlKey);
  if (!base) throw new BadRequestError(messages.notConfigured);
  let url: URL;
  try {
    url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    throw new BadRequestError(`${messages.notConfigured} (la URL "${base}" no es válida)`);
  }
  // An internal address (loopback, private, metadata) is refused before any connection.
  if (await internalHostReason(hostOf(url))) throw new BadRequestError(internalHostMessage(system.urlKey));
  if (subPath) url.pathname = `${url.pathname.replace(/\/+$/, '')}/${subPath}`;
  for (const [k, v] of Object.entries(query)) if (v) url.searchParams.set(k, v);
  const token = await readSetting(db, system.tokenKey);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      // A redirect is not followed (it could lead the server, with the token, to another host):
      // it answers as any other failure.
      redirect: 'manual',
      dispatcher: outbound,
      signal: AbortSignal.timeout(system.timeoutMs ?? 30_000),
    });
  } catch (err) {
    const inner = (err as { cause?: { code?: string; message?: string } })?.cause;
    const cause = inner?.code ?? inner?.message ?? (err as Error)?.name;
    throw fail(`sin conexión con ${url.origin}${cause ? `: ${cause}` : ''}`);
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 300);
    throw fail(`${url.origin} respondió HTTP ${res.status}${text ? `: ${text}` : ''}`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw fail(`${url.origin} no respondió JSON (o la respuesta se corto)`);
  }
  const holder = body as Record<string, unknown> | null;
  const list = Array.isArray(body)
    ? body
    : (system.listKeys ?? ['data', 'result']).map((k) => holder?.[k]).find(Array.isArray);
  if (!Array.isArray(list)) throw fail(`${url.origin} no respondió una lista de ${system.records}`);
  const max = system.maxRows ?? 100_000;
  if (list.length > max) throw fail(`${url.origin} respondió más de ${max} ${system.records}`);
  return list;
}
