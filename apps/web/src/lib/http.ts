// The one HTTP client (SPEC §7 header, §8): Bearer token and X-Requested-With on every call,
// the SPEC §9 timeout, the {success, result, error} envelope and the error catalogue handled once.
import type { ApiError, BackgroundJob, CallContract, CallInput, CallResult, Envelope } from '@app/contracts';
import { callPath, isBackgroundJob, LIMITS, messages } from '@app/contracts';
import { getToken } from '../session/token';
import { t } from './i18n';

export type Query = Record<string, string | number | boolean | null | undefined | string[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** No toast and no redirect: the caller shows the failure itself (login, selectors). */
  silent?: boolean;
  /**
   * The caller shows validation errors (422 with validationErrors) and duplicates (409) on its
   * form's fields: no toast for them, so each shows once (a dialog form).
   */
  fieldErrors?: boolean;
  /** Expect a file (blob) answer. */
  file?: boolean;
  signal?: AbortSignal;
}

/** A rejected call: the status, the server's error and the text the user saw. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: ApiError | null,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
  get validationErrors() {
    return this.error?.validationErrors ?? [];
  }
}

export interface FileResult {
  blob: Blob;
  filename: string | null;
}

type Hook = {
  toast: (text: string) => void;
  /** A download answered 202: the export runs as a background job (the shell follows it). */
  exportJob: (job: BackgroundJob) => void;
  unauthorized: () => void;
  forbidden: () => void;
};
const hooks: Hook = { toast: () => {}, exportJob: () => {}, unauthorized: () => {}, forbidden: () => {} };
/** The shell plugs in the toast and the redirects (kept out of this module to stay UI-free). */
export function setHttpHooks(h: Partial<Hook>): void {
  Object.assign(hooks, h);
}

const FILE_TYPES = /(application\/pdf|\/xml|application\/zip|spreadsheetml|ms-excel|octet-stream)/i;

export function buildQuery(query?: Query): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const item of v) p.append(k, item);
    else p.append(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The toast text of SPEC §8 for a failed answer. */
export function errorText(body: unknown): string {
  const b = (body ?? {}) as { error?: ApiError | null; message?: string };
  const e = b.error;
  if (e?.message && e.details) return `${e.message}\n${e.details}`;
  if (e?.validationErrors?.length) return e.validationErrors.map((v) => v.message).join('\n');
  if (e?.message) return e.message;
  if (typeof b.message === 'string' && b.message) return b.message;
  return messages.genericError;
}

function filenameOf(res: Response): string | null {
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? plain[1] : null;
}

export async function request<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), LIMITS.requestTimeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  let res: Response;
  try {
    res = await fetch(`/api${path}${buildQuery(opts.query)}`, {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal,
    });
  } catch (err) {
    clearTimeout(timer);
    if (opts.signal?.aborted) throw err;
    // No answer at all: the localized UnknownError.
    const text = t('UnknownError');
    if (!opts.silent) hooks.toast(text);
    throw new HttpError(0, null, text);
  }
  clearTimeout(timer);

  const type = res.headers.get('content-type') ?? '';
  // Files (pdf, xml, zip, xlsx) are answers, never errors; a file asked for may come as a job (202).
  if (res.ok && (FILE_TYPES.test(type) || (opts.file && !(res.status === 202 && type.includes('json'))))) {
    return { blob: await res.blob(), filename: filenameOf(res) } as T;
  }
  let parsed: unknown = null;
  try {
    parsed = type.includes('json') ? await res.json() : { message: (await res.text()) || undefined };
  } catch {
    parsed = null;
  }
  const env = parsed as Envelope<T> | null;
  if (res.ok && env && env.success !== false) return (env.result ?? null) as T;

  const text = errorText(parsed);
  const error = env?.error ?? null;
  const status = res.ok ? (error?.code ?? 400) : res.status;
  const onFields =
    opts.fieldErrors && ((status === 422 && !!error?.validationErrors?.length) || status === 409);
  if (!opts.silent && !onFields) {
    if (status === 401) hooks.unauthorized();
    else if (status === 403) hooks.forbidden();
    if (status !== 403) hooks.toast(text);
  }
  throw new HttpError(status, error, text);
}

export const http = {
  get: <T>(path: string, query?: Query, o?: RequestOptions) => request<T>(path, { ...o, query }),
  post: <T>(path: string, body?: unknown, o?: RequestOptions) =>
    request<T>(path, { ...o, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, o?: RequestOptions) =>
    request<T>(path, { ...o, method: 'PUT', body }),
  del: <T>(path: string, o?: RequestOptions) => request<T>(path, { ...o, method: 'DELETE' }),
};

/** The arguments of a call: its input is optional when nothing in it is required. */
export type CallArgs<C extends CallContract> =
  Record<never, never> extends CallInput<C>
    ? [input?: CallInput<C>, opts?: RequestOptions]
    : [input: CallInput<C>, opts?: RequestOptions];

/**
 * THE typed call: a contract of @app/contracts (calls/<module>.ts) with its :params, query and
 * body, answering its result schema's type. Paths are never typed here (test/api-paths.test.ts).
 */
export function call<C extends CallContract>(c: C, ...[input, opts]: CallArgs<C>): Promise<CallResult<C>> {
  const i = (input ?? {}) as { params?: Record<string, string | number>; query?: Query; body?: unknown };
  return request<CallResult<C>>(apiPath(c, i.params), {
    ...opts,
    method: c.method,
    query: i.query,
    body: i.body,
    file: c.file ?? opts?.file,
  });
}

/** A contract's path with its params, as `request` takes it (without the /api prefix). */
export const apiPath = (c: Pick<CallContract, 'path'>, params?: Record<string, string | number>): string =>
  callPath(c, params).replace(/^\/api(?=\/)/, '');

/** Downloads the file a contract's call answers (a job when it is big), as downloadFile does. */
export function download<C extends CallContract>(
  c: C,
  fallbackName: string,
  input?: CallInput<C>,
): Promise<void> {
  const i = (input ?? {}) as { params?: Record<string, string | number>; query?: Query; body?: unknown };
  return downloadFile(apiPath(c, i.params), fallbackName, { query: i.query, body: i.body });
}

/**
 * Downloads a file from a GET call (query) or a POST call (body) and hands it to the browser; a
 * failure is the client's toast.
 */
export async function downloadFile(
  path: string,
  fallbackName: string,
  opts: { query?: Query; body?: unknown } = {},
): Promise<void> {
  try {
    const file =
      opts.body !== undefined
        ? await request<FileResult | BackgroundJob>(path, { method: 'POST', body: opts.body, file: true })
        : await http.get<FileResult | BackgroundJob>(path, opts.query, { file: true });
    if (isBackgroundJob(file)) hooks.exportJob(file);
    else saveFile(file, fallbackName);
  } catch {
    // the client's toast says why
  }
}

/** Hands a downloaded file to the browser. */
export function saveFile(file: FileResult, fallbackName: string): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  // The server's name as it is (a document keeps its own name, spaces included); a name made up
  // here for an export is written as the server writes its exports, without spaces.
  a.download = file.filename ?? fallbackName.trim().replace(/\s+/g, '_');
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
