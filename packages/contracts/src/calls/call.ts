// A call of the API said once, for both sides: its method, its path (with :params), its query
// string, its body and its result, each a zod schema. The server declares the call's action from
// it (`defineAction({ ...call, summary, access, handler })`: the route, the parsing and
// /api/docs' result schema follow), and the web calls it through one typed function
// (`call(contract, { params, query, body })`, apps/web/src/lib/http.ts): no API path is typed twice.
// One file per module (calls/<module>.ts); a resource's generic calls come from its contract
// (resourceCalls, calls/resource.ts). This file builds no schema: the login bundle loads it.

import type { QueryValues } from '../query';
import type { z } from '../zod';

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

/**
 * A call's method, path and flags as plain data, its schemas only types (absent at run time):
 * what the web needs to call it without building zod (calls/startup.ts). `call()` takes it as a
 * contract and types its input and answer from the schemas' types.
 */
export type CallRoute<C extends CallContract> = Omit<C, 'query' | 'body' | 'result'> & {
  [K in 'query' | 'body' | 'result' as K extends keyof C ? K : never]?: C[K];
};

/** What a call answers: its result schema's output (unknown while it declares none). */
export type CallResult<C extends CallContract> =
  NonNullable<C['result']> extends z.ZodType ? z.output<NonNullable<C['result']>> : unknown;

/** What a caller gives: the path's params, the query (the names its schema declares), the body. */
export type CallInput<C extends CallContract> = (keyof PathParams<C['path']> extends never
  ? { params?: undefined }
  : { params: PathParams<C['path']> }) &
  (NonNullable<C['query']> extends z.ZodType
    ? { query?: QueryValues<NonNullable<C['query']>> }
    : C['anyQuery'] extends true
      ? { query?: QueryParamValues }
      : { query?: undefined }) &
  (NonNullable<C['body']> extends z.ZodType
    ? { body: z.input<NonNullable<C['body']>> }
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
