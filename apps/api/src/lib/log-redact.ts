// Logged errors never carry the values a query was sent with (e-mails, RUCs, VINs, passwords
// being checked...): drizzle wraps a failing query as "Failed query: <sql>\nparams: <values>" and
// keeps them in `params` (PGlite's own errors too). Every error that reaches a log line goes
// through here: the `err` serializer of the logger (full, with stack) and summarizeError() (one
// short line: the 503 warnings, a failed start, a lost connection). Both replace the parameters
// with a fixed mark, cut the SQL text to its start, take the values out of PostgreSQL's detail
// ("Key (email)=(...)", "Failing row contains (...)") and of the texts (anything shaped like an
// e-mail, a VIN, a DNI or RUC, a token), and keep the database's own message and code.
export const REDACTED_PARAMS = '[parámetros omitidos]';

/** Characters of SQL text a log line keeps (a 1,500-row insert is 36 KB of SQL). */
const MAX_QUERY_CHARS = 200;

interface QueryErrorLike {
  query?: unknown;
  params?: unknown;
  cause?: unknown;
  code?: unknown;
  message?: unknown;
  errors?: unknown;
}

/** err and its causes (an AggregateError's first error too), outermost first. */
function errorChain(err: unknown): QueryErrorLike[] {
  const out: QueryErrorLike[] = [];
  let e = err as QueryErrorLike | undefined;
  for (let i = 0; e && typeof e === 'object' && i < 6; i++) {
    out.push(e);
    e = (e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined)) as QueryErrorLike | undefined;
  }
  return out;
}

/** The "params: ..." text drizzle wrote into the messages of err and its causes. */
function paramTexts(err: unknown): string[] {
  return errorChain(err)
    .filter((e) => typeof e.query === 'string' && Array.isArray(e.params) && e.params.length)
    .map((e) => `params: ${String(e.params)}`);
}

/** Shapes of personal data and secrets, for values that slipped into a text. */
const VALUE_SHAPES: [RegExp, string][] = [
  [/[^\s@"'`(),;=<>[\]{}]+@[^\s@"'`(),;=<>[\]{}]+\.[A-Za-z]{2,}/g, '[correo]'],
  // A VIN: 17 capital letters (no I, O, Q) and digits, with at least one digit.
  [/\b(?=[A-HJ-NPR-Z]*\d)[A-HJ-NPR-Z0-9]{17}\b/g, '[vin]'],
  // A DNI (8 digits) or RUC (11 digits).
  [/\b(?:\d{11}|\d{8})\b/g, '[documento]'],
  // Tokens and their hashes (base64url or hex, 40 characters or more).
  [/\b[A-Za-z0-9_-]{40,}/g, '[token]'],
];

export function redactValues(text: string): string {
  let s = text;
  for (const [re, mark] of VALUE_SHAPES) s = s.replace(re, mark);
  return s;
}

/** The SQL of a query, as a log line shows it: on one line, cut to its start. */
function shortQuery(sql: string): string {
  const one = sql.replace(/\s+/g, ' ').trim();
  return one.length > MAX_QUERY_CHARS ? `${one.slice(0, MAX_QUERY_CHARS)}…` : one;
}

function clean(text: string, params: string[] = []): string {
  let s = text;
  for (const p of params) s = s.split(p).join(`params: ${REDACTED_PARAMS}`);
  // Parameters this error did not carry as a field (a message copied into another error).
  s = s.replace(/\nparams: (?!\[parametros omitidos\])[^\n]*/g, `\nparams: ${REDACTED_PARAMS}`);
  s = s.replace(
    /(Failed query: )([\s\S]*?)(?=\nparams: |$)/g,
    (_, head: string, sql: string) => head + shortQuery(sql),
  );
  // Data exceptions quote the value they could not read: invalid input syntax for type ...: "x".
  s = s.replace(/(invalid input (?:syntax|value) for [^:\n]*: )"[^\n]*"/g, '$1"[valor omitido]"');
  return redactValues(redactUrlCredentials(s));
}

function strip<T>(text: T, params: string[]): T {
  if (typeof text !== 'string') return text;
  return clean(text, params) as T;
}

/** PostgreSQL's detail names the values: "Key (email)=(a@b.pe) ...", "Failing row contains (...)". */
function cleanDetail(detail: string): string {
  return clean(
    detail
      .replace(/=\(.*\)/s, `=(${REDACTED_PARAMS})`)
      .replace(/(Failing row contains )\(.*\)/s, `$1(${REDACTED_PARAMS})`),
  );
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
  if (!err || typeof err !== 'object') return { type: typeof err, message: clean(String(err)), stack: '' };
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
    else if (key === 'query' && typeof v === 'string') out[key] = clean(shortQuery(v));
    else if (key === 'detail' && typeof v === 'string') out[key] = cleanDetail(v);
    else if (v instanceof Error) out[key] = redactErrorSerializer(v as Error);
    else if (v && typeof v === 'object') out[key] = '[objeto omitido]';
    else out[key] = strip(v, params);
  }
  // The database's own error, when a wrapper's message hid it: its code and words first.
  const db = summarizeError(err);
  if (db.code && out.code === undefined) out.code = db.code;
  return out;
}

/** An error as one short log line: the database's message and code, the start of its SQL. */
export interface ErrorSummary {
  type: string;
  message: string;
  /** SQLSTATE of PostgreSQL, or the code of a socket error (ECONNREFUSED...). */
  code?: string;
  query?: string;
}

export function summarizeError(err: unknown): ErrorSummary {
  const chain = errorChain(err);
  if (!chain.length) return { type: typeof err, message: clean(String(err)) };
  const params = paramTexts(err);
  // The innermost error that has a code is the database's (or the socket's) own.
  const own = [...chain].reverse().find((e) => typeof e.code === 'string') ?? chain[chain.length - 1];
  const query = chain.find((e) => typeof e.query === 'string')?.query as string | undefined;
  const out: ErrorSummary = {
    type: (own as object).constructor?.name ?? 'Error',
    message: clean(typeof own.message === 'string' ? own.message : String(own), params),
  };
  if (typeof own.code === 'string') out.code = own.code;
  if (query) out.query = clean(shortQuery(query));
  return out;
}

/** summarizeError() as text: "<message> (código <code>; consulta: <sql>)". */
export function errorLine(err: unknown): string {
  const s = summarizeError(err);
  const extra = [s.code && `código ${s.code}`, s.query && `consulta: ${s.query}`].filter(Boolean);
  return extra.length ? `${s.message} (${extra.join('; ')})` : s.message;
}

/** What stands in a logged address for a secret it carried. */
export const REDACTED = '[oculto]';

/** Query parameters whose value is a secret (download tickets and tokens, survey tokens, passwords). */
const SECRET_PARAM = /token|ticket|password|passwd|clave|secret|key|auth/i;

/**
 * An address as it may be logged: the survey token of /api/public/quiz/<token> (and of any
 * path that ends in one) and the values of secret-looking query parameters are replaced.
 */
export function redactUrl(url: string): string {
  return redactValues(redactUrlSecrets(url));
}

function redactUrlSecrets(url: string): string {
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
