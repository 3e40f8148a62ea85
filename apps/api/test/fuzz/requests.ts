// fast-check arbitraries of hostile requests: path parameters, query strings, headers and bodies
// (random JSON, the call's own field names with wrong values, broken JSON, wrong content types,
// multipart with random bytes). Values an attacker tries first are mixed with random ones.
import fc from 'fast-check';
import type { FuzzRoute, Method } from './routes';

/** Strings a probe sends first: injections, escapes, odd numbers, control characters. */
export const HOSTILE_STRINGS = [
  "' or 1=1 --",
  '"; drop table users; --',
  "1'); delete from sales; --",
  '1 union select password_hash from users',
  '$1',
  '%00',
  '\u0000',
  '\\',
  '%',
  '_',
  '*',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '{"$ne":1}',
  '[object Object]',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '-9223372036854775809',
  '2147483648',
  '1.5',
  '0x10',
  'true',
  'null',
  'undefined',
  '2024-02-30',
  '9999-99-99',
  '1970-01-01T00:00:00Z',
  '\u202e\u200b\ufeff',
  '𝕏😀',
  ' ',
  '',
  'a,b,,c',
  'x'.repeat(300),
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

/** A JSON value for a field: wrong types, edge numbers, hostile strings, nesting. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 30 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      0,
      -1,
      1.5,
      2147483648,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      1e308,
      -1e-308,
    ),
  },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.array(fc.oneof(fc.integer({ min: -2, max: 20 }), hostileString), { maxLength: 4 }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;

export interface FuzzBody {
  contentType?: string;
  payload?: string | Buffer;
  /** For reports and for telling echoed input from a leak. */
  strings: string[];
}

function jsonBody(value: unknown): FuzzBody {
  const text = JSON.stringify(value) ?? 'null';
  return { contentType: 'application/json', payload: text, strings: stringsIn(value) };
}

/** Every string inside a value (keys too), to recognise the request's own text in an answer. */
export function stringsIn(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 8) return out;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out, depth + 1);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsIn(v, out, depth + 1);
    }
  return out;
}

function multipart(bytes: Uint8Array, filename: string, fieldName: string): FuzzBody {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${filename}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`;
  const payload = Buffer.concat([
    Buffer.from(head),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload,
    strings: [filename, fieldName],
  };
}

/** A body for a call that takes one, made from its field names where it has some. */
export function bodyFor(route: FuzzRoute): fc.Arbitrary<FuzzBody> {
  const keys = route.fields.length ? route.fields : ['id', 'name'];
  const withFields = fc
    .dictionary(
      fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: hostileString }),
      fieldValue,
      { maxKeys: 8 },
    )
    .map(jsonBody);
  return fc.oneof(
    { weight: 6, arbitrary: withFields },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(jsonBody) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}',
          '{"a":',
          '{"a":1}}',
          "{'a':1}",
          '\u0000',
          'null',
          '[]',
          DEEP,
          `{"name":"${'x'.repeat(100_000)}"}`,
          '{"id":1e400}',
        )
        .map((payload) => ({ contentType: 'application/json', payload, strings: [] })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/xml',
            'multipart/form-data',
            'application/json; charset=utf-16',
            'application/octet-stream',
            'image/png',
          ),
          fc.string({ maxLength: 200 }),
        )
        .map(([contentType, payload]) => ({ contentType, payload, strings: [payload] })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.oneof(
            fc.uint8Array({ maxLength: 2000 }),
            // A zip's magic number, then garbage: gets past a first look at the type.
            fc
              .uint8Array({ maxLength: 500 })
              .map((b) => Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...b])),
          ),
          fc.constantFrom('ventas.xlsx', 'a.exe', '../../x.xlsx', 'x.xlsx\u0000.png', ''),
          fc.constantFrom('file', 'archivo', 'x'),
        )
        .map(([bytes, filename, field]) => multipart(bytes, filename, field)),
    },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ strings: [] }) },
  );
}

const pathValue = (name: string): fc.Arbitrary<string> =>
  name === 'id'
    ? fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
        { weight: 2, arbitrary: fc.constantFrom('0', '-1', '99999999', '2147483648', '1.5', '1e3', '0x1') },
        { weight: 2, arbitrary: hostileString.map(encodeURIComponent) },
        { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', '..%2f..', 'x'.repeat(600)) },
      )
    : fc.oneof(
        { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
        { weight: 2, arbitrary: hostileString.map(encodeURIComponent) },
        { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%00', 'x'.repeat(600)) },
      );

/** The route's path with its parameters filled. */
export function pathFor(route: FuzzRoute): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
  if (!names.length) return fc.constant(route.path);
  return fc.tuple(...names.map(pathValue)).map((values) => {
    let i = 0;
    return route.path.replace(/:([A-Za-z_]+)/g, () => values[i++]);
  });
}

export interface FuzzQuery {
  text: string;
  strings: string[];
}

/** A query string: known keys and random ones, values encoded or raw, repeated keys. */
export function queryFor(route: FuzzRoute): fc.Arbitrary<FuzzQuery> {
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...route.queryKeys) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'filter[__proto__]',
        'filter[constructor]',
        'sort[]',
        'page[0]',
        '__proto__',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encodeURIComponent) },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: hostileString.map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...route.fields, 'asc', 'desc', '-1', '1', '100', '101') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '{"active":{"$ne":1}}', '[1,2]', '1&2', '%26%3D'),
    },
  );
  return fc.array(fc.tuple(key, value), { maxLength: 6 }).map((pairs) => ({
    text: pairs.map(([k, v]) => `${k}=${v}`).join('&'),
    strings: pairs.flatMap(([k, v]) => [safeDecode(k), safeDecode(v)]),
  }));
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export type Who = 'admin' | 'dealer' | 'none' | 'forged' | 'garbage';

/** Who calls, and headers beside the authorization. */
export const callerArb = fc.record({
  who: fc.constantFrom<Who>('admin', 'admin', 'admin', 'dealer', 'dealer', 'none', 'forged', 'garbage'),
  headers: fc.dictionary(
    fc.constantFrom(
      'x-forwarded-for',
      'x-real-ip',
      'accept',
      'accept-language',
      'x-http-method-override',
      'origin',
      'referer',
      'cookie',
      'if-none-match',
      'range',
      'x-requested-with',
    ),
    fc.oneof(
      fc.constantFrom('127.0.0.1, 10.0.0.1', '::1', 'bytes=0-1', '*/*', 'DELETE', 'null', '../', "' or 1=1"),
      fc.stringMatching(/^[\x20-\x7e]{0,60}$/),
    ),
    { maxKeys: 3 },
  ),
});

export interface FuzzRequest {
  method: Method;
  url: string;
  who: Who;
  headers: Record<string, string>;
  body: FuzzBody;
  /** The request's own strings, which an error may echo ("Columnas no validas: x"). */
  echo: string[];
}

export function requestFor(route: FuzzRoute): fc.Arbitrary<FuzzRequest> {
  const takesBody = route.method === 'POST' || route.method === 'PUT';
  return fc
    .record({
      path: pathFor(route),
      query: queryFor(route),
      caller: callerArb,
      body: takesBody ? bodyFor(route) : fc.constant<FuzzBody>({ strings: [] }),
    })
    .map(({ path, query, caller, body }) => ({
      method: route.method,
      url: query.text ? `${path}?${query.text}` : path,
      who: caller.who,
      headers: caller.headers,
      body,
      echo: [...query.strings, ...body.strings, ...path.split('/').map(safeDecode)],
    }));
}
