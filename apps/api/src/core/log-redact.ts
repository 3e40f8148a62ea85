// Logged errors never carry the values a query was sent with (e-mails, RUCs, passwords being
// checked...): drizzle wraps a failing query as "Failed query: <sql>\nparams: <values>" and
// keeps them in `params` (PGlite's own errors too). The `err` serializer of the logger replaces
// them, in the message and the stack of the error and of its causes, and in the fields `params`
// and `detail`, with a fixed mark; the SQL text stays.
export const REDACTED_PARAMS = '[parámetros omitidos]';

interface QueryErrorLike {
  query?: unknown;
  params?: unknown;
  cause?: unknown;
}

/** The "params: ..." text drizzle wrote into the messages of err and its causes. */
function paramTexts(err: unknown): string[] {
  const out: string[] = [];
  let e = err as QueryErrorLike | undefined;
  for (let i = 0; e && typeof e === 'object' && i < 5; i++) {
    if (typeof e.query === 'string' && Array.isArray(e.params) && e.params.length) {
      out.push(`params: ${String(e.params)}`);
    }
    e = e.cause as QueryErrorLike | undefined;
  }
  return out;
}

function strip<T>(text: T, params: string[]): T {
  if (typeof text !== 'string') return text;
  let s: string = text;
  for (const p of params) s = s.split(p).join(`params: ${REDACTED_PARAMS}`);
  return redactUrlCredentials(s) as T;
}

/** user:password@ of any address in a text (an SMTP or database URL in an error message). */
export function redactUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1[oculto]@');
}

/** Like pino's standard `err` serializer (type, message and stack with causes, own fields). */
export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function redactErrorSerializer(err: Error): SerializedError {
  if (!err || typeof err !== 'object') return { type: typeof err, message: String(err), stack: '' };
  const e = err as Error & Record<string, unknown>;
  const params = paramTexts(err);
  const causes: Error[] = [];
  for (let c = e.cause, i = 0; c instanceof Error && i < 5; c = c.cause, i++) causes.push(c);
  const out: SerializedError = {
    type: e.constructor?.name ?? e.name,
    message: strip([e.message, ...causes.map((c) => c.message)].filter(Boolean).join(': '), params),
    stack: strip([e.stack, ...causes.map((c) => `caused by: ${c.stack}`)].filter(Boolean).join('\n'), params),
  };
  for (const key of Object.keys(e)) {
    if (key === 'cause' || key in out) continue;
    const v = e[key];
    if (key === 'params' && v != null) out[key] = REDACTED_PARAMS;
    // PostgreSQL's detail of a key violation names the values: "Key (email)=(a@b.pe) ...".
    else if (key === 'detail' && typeof v === 'string')
      out[key] = v.replace(/=\(.*\)/s, `=(${REDACTED_PARAMS})`);
    else if (v instanceof Error) out[key] = redactErrorSerializer(v as Error);
    else out[key] = strip(v, params);
  }
  return out;
}

/** What stands in a logged address for a secret it carried. */
export const REDACTED = '[oculto]';

/** Query parameters whose value is a secret (download tokens, survey tokens, passwords). */
const SECRET_PARAM = /token|password|passwd|clave|secret|key|auth/i;

/**
 * An address as it may be logged: the survey token of /api/public/quiz/<token> (and of any
 * path that ends in one) and the values of secret-looking query parameters are replaced.
 */
export function redactUrl(url: string): string {
  const [pathPart, query] = splitOnce(url, '?');
  const cleanPath = pathPart.replace(/\/[A-Za-z0-9_-]{40,}(?=\/|$)/g, `/${REDACTED}`);
  if (query === undefined) return cleanPath;
  const params = query
    .split('&')
    .map((pair) => {
      const [key, value] = splitOnce(pair, '=');
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {}
      return value !== undefined && SECRET_PARAM.test(name) ? `${key}=${REDACTED}` : pair;
    })
    .join('&');
  return `${cleanPath}?${params}`;
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/** Fastify's request serializer with the address redacted (no header is logged, as before). */
export function redactRequestSerializer(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
