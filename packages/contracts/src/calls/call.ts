// A call of the API said once, for both sides: its method, its path (with :params), its query
// string, its body and its result, each a zod schema. The server declares the call's action from
// it (`defineAction({ ...call, summary, access, handler })`: the route, the parsing and
// /api/docs' result schema follow), and the web calls it through one typed function
// (`call(contract, { params, query, body })`, apps/web/src/lib/http.ts): no API path is typed twice.
// One file per module (calls/<module>.ts); a resource's generic calls come from its contract
// (resourceCalls).

import type { QueryValues } from '../query';
import { z } from '../zod';

export type CallMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface CallContract {
  method: CallMethod;
  /** The full path, '/api/...', with :params (':id' an integer id). */
  path: string;
  /** The query string (contracts/query: defineQuery). */
  query?: z.ZodType;
  /** The JSON body. */
  body?: z.ZodType;
  /** The envelope's `result` on success (shown in /api/docs, checked by the OpenAPI fuzzer). */
  result?: z.ZodType;
  /** The answer is a file (a download), not the envelope. */
  file?: true;
  /** The body is a multipart form with one file (an upload). */
  upload?: true;
  /** Takes any query parameters (a resource's list: filters, sort, page), not a declared schema. */
  anyQuery?: true;
}

/** Query parameters as sent (a list repeats its name). */
export type QueryParamValues = Record<string, string | number | boolean | null | undefined | string[]>;

/** Declares a call; its path stays a literal type, so its :params are typed. */
export const defineCall = <const C extends CallContract>(c: C): C => c;

/** The :params of a path: `/api/a/:id/b/:fileId` → { id, fileId }. */
export type PathParams<P extends string> = string extends P
  ? Record<string, string | number>
  : P extends `${string}:${infer N}/${infer Rest}`
    ? { [K in N]: string | number } & PathParams<`/${Rest}`>
    : P extends `${string}:${infer N}`
      ? { [K in N]: string | number }
      : Record<never, never>;

/** What a call answers: its result schema's output (unknown while it declares none). */
export type CallResult<C extends CallContract> = C['result'] extends z.ZodType
  ? z.output<C['result']>
  : unknown;

/** What a caller gives: the path's params, the query (the names its schema declares), the body. */
export type CallInput<C extends CallContract> = (keyof PathParams<C['path']> extends never
  ? { params?: undefined }
  : { params: PathParams<C['path']> }) &
  (C['query'] extends z.ZodType
    ? { query?: QueryValues<C['query']> }
    : C['anyQuery'] extends true
      ? { query?: QueryParamValues }
      : { query?: undefined }) &
  (C['body'] extends z.ZodType
    ? { body: z.input<C['body']> }
    : C['upload'] extends true
      ? { body: FormData }
      : { body?: undefined });

/** The path of a call with its :params filled (each encoded). */
export function callPath(
  c: Pick<CallContract, 'path'>,
  params: Record<string, string | number> = {},
): string {
  return c.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new Error(`${c.path}: falta el parámetro ${name}`);
    return encodeURIComponent(String(v));
  });
}

/**
 * The generic calls of a resource (core/resource-routes on the server): the list, one record,
 * the select search, create, update, delete and the .xlsx export, all from its contract's path.
 */
/** A record's body as the generic calls take it (the server parses it with the contract's schema). */
const recordBody = z.record(z.string(), z.unknown());

export function resourceCalls<const P extends string>(resource: P | { path: P }) {
  const base = `/api/${typeof resource === 'string' ? resource : resource.path}` as `/api/${P}`;
  return {
    list: defineCall({ method: 'GET', path: base, anyQuery: true }),
    get: defineCall({ method: 'GET', path: `${base}/get/:id` }),
    search: defineCall({ method: 'GET', path: `${base}/query-search`, anyQuery: true }),
    create: defineCall({ method: 'POST', path: base, body: recordBody }),
    update: defineCall({ method: 'PUT', path: `${base}/:id`, body: recordBody }),
    remove: defineCall({ method: 'DELETE', path: `${base}/:id` }),
    export: defineCall({ method: 'GET', path: `${base}/export`, file: true, anyQuery: true }),
  };
}
