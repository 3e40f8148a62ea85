// fast-check arbitraries read from the OpenAPI document (/api/docs/json): each operation's path
// parameters, query and body (JSON or multipart) generated from their schemas, valid values
// mixed with mutated ones (a wrong type, a required field left out, a huge string, an unknown
// id, an unknown key, random bytes as the file), and the checks of its answer against the
// responses the document declares.
import fc from 'fast-check';
import { HOSTILE_STRINGS, stringsIn } from './requests';

export type Schema = Record<string, any>;

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The document's path, with {params}. */
  path: string;
  op: Schema;
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

/** Every operation of the document. */
export function operationsOf(doc: Schema): Operation[] {
  return Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      method: m.toUpperCase() as Operation['method'],
      path,
      op: item[m],
    })),
  );
}

/** The id the fuzzer uses for "a record that is not there". */
export const UNKNOWN_ID = 2147483647;

/** Ids the seeded database holds for most tables, and some it does not. */
const idArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 30 }) },
  { weight: 1, arbitrary: fc.constant(UNKNOWN_ID) },
);

const isId = (key: string | undefined) => !!key && (key === 'id' || /_id$|Id$/.test(key));

/** A huge string: far beyond any declared maxLength, under the body limit. */
const hugeString = fc.constantFrom(5_000, 60_000).map((n) => 'Ñandú '.repeat(n / 6));

/** A value of another type than the schema's, or a hostile one. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS),
  hugeString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(UNKNOWN_ID),
  fc.constant(-1),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.object({ maxDepth: 1, maxKeys: 2 }),
);

const YEARS = { min: 2016, max: 2027 };
const dateArb = fc
  .record({ y: fc.integer(YEARS), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

function stringArb(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date') return dateArb;
  if (s.format === 'date-time') return dateArb.map((d) => `${d}T15:30:00.000Z`);
  if (s.format === 'email') return fc.emailAddress().filter((e) => !s.maxLength || e.length <= s.maxLength);
  if (s.format === 'binary') return fc.string({ maxLength: 20 });
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 60));
  if (typeof s.pattern === 'string') {
    try {
      const re = new RegExp(s.pattern);
      return fc
        .stringMatching(re)
        .filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Number.MAX_SAFE_INTEGER));
    } catch {}
  }
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
}

function numberBounds(s: Schema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : 0.01;
  let min = s.minimum ?? (typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + step : undefined);
  let max = s.maximum ?? (typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - step : undefined);
  min ??= max !== undefined ? max - 1000 : -1000;
  max ??= min + 100_000;
  return { min, max };
}

/** A valid value of a schema (as far as a JSON Schema says: zod's refinements may still refuse it). */
export function schemaValue(s: Schema | undefined, key?: string, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6 || Object.keys(s).length === 0 || (s.description && Object.keys(s).length === 1))
    return fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.integer({ min: 0, max: 100 }),
      fc.boolean(),
      fc.constant(null),
    );
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (Array.isArray(alternatives) && alternatives.length)
    return fc.oneof(...alternatives.map((a: Schema) => schemaValue(a, key, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length)
    return schemaValue({ ...s, allOf: undefined, ...s.allOf[0] }, key, depth);
  if (Array.isArray(s.type))
    return fc.oneof(...s.type.map((type: string) => schemaValue({ ...s, type }, key, depth + 1)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const { min, max } = numberBounds(s, true);
      const ceiling = Math.min(max, min + 100);
      if (isId(key) && min <= 1 && max >= 30) return idArb;
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(ceiling) }) },
        {
          weight: 1,
          arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 2 ** 31 - 1)) }),
        },
      );
    }
    case 'number': {
      const { min, max } = numberBounds(s, false);
      return fc.double({ min, max: Math.min(max, min + 100_000), noNaN: true, noDefaultInfinity: true });
    }
    case 'string':
      return stringArb(s);
    case 'array': {
      const minLength = s.minItems ?? 0;
      return fc.array(schemaValue(s.items, key, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(s.maxItems ?? 4, 4)),
      });
    }
    default:
      break;
  }
  if (s.type === 'object' || s.properties || s.additionalProperties) {
    const props = (s.properties ?? {}) as Record<string, Schema>;
    const record = fc.record(
      Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaValue(v, k, depth + 1)])),
      { requiredKeys: (s.required ?? []).filter((k: string) => k in props) },
    );
    if (s.additionalProperties && typeof s.additionalProperties === 'object' && !Object.keys(props).length)
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }),
        schemaValue(s.additionalProperties, undefined, depth + 1),
        {
          maxKeys: 3,
        },
      );
    return record;
  }
  return fc.oneof(fc.string({ maxLength: 10 }), fc.integer({ min: 0, max: 100 }));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** A body of a JSON schema: valid, or mutated (a wrong type, a required key left out, an unknown key, anything). */
export function bodyOf(s: Schema): fc.Arbitrary<{ value: unknown; mutation: string }> {
  const valid = schemaValue(s);
  const keys = Object.keys(s.properties ?? {});
  const required = (s.required ?? []) as string[];
  const arbs: fc.WeightedArbitrary<{ value: unknown; mutation: string }>[] = [
    { weight: 4, arbitrary: valid.map((value) => ({ value, mutation: 'válido' })) },
    {
      weight: 1,
      arbitrary: fc.anything({ maxDepth: 2 }).map((value) => ({ value, mutation: 'cualquiera' })),
    },
  ];
  if (keys.length)
    arbs.push(
      {
        weight: 2,
        arbitrary: fc.tuple(valid, fc.constantFrom(...keys), wrongValue).map(([v, k, w]) => ({
          value: isObject(v) ? { ...v, [k]: w } : w,
          mutation: `tipo erróneo en ${k}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(valid, fc.constantFrom('__proto__', 'constructor', 'extra', 'id', 'dealer_id'), wrongValue)
          .map(([v, k, w]) => ({
            value: isObject(v) ? { ...v, [k]: w } : v,
            mutation: `clave desconocida ${k}`,
          })),
      },
    );
  if (required.length)
    arbs.push({
      weight: 1,
      arbitrary: fc.tuple(valid, fc.constantFrom(...required)).map(([v, k]) => {
        if (!isObject(v)) return { value: v, mutation: 'válido' };
        const { [k]: _, ...rest } = v;
        return { value: rest, mutation: `sin ${k}` };
      }),
    });
  return fc.oneof(...arbs);
}

/** A path parameter of its schema: mostly a valid one, sometimes an unknown id or garbage. */
function paramOf(s: Schema | undefined, name: string): fc.Arbitrary<string> {
  const valid = s?.type === 'integer' || isId(name) ? idArb.map(String) : schemaValue(s).map(String);
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0', '-1', 'abc', '1.5', '99999999999999999999', "1'", '%00', '1e3', 'ñ'),
    },
  );
}

/** The query value as a URL carries it. */
function queryText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  return JSON.stringify(v) ?? '';
}

export interface FileCase {
  kind: string;
  bytes: Uint8Array;
  name: string;
  field: string;
}

/** A file for an upload: random bytes, a zip header over junk, empty, a workbook; or no file part. */
export function fileOf(workbooks: Buffer[]): fc.Arbitrary<FileCase | null> {
  const name = fc.oneof(
    fc.constantFrom('datos.xlsx', 'a.pdf', 'x.exe', '../../etc/passwd', 'sin-extension'),
    fc.string({ minLength: 1, maxLength: 30 }).map((s) => `${s.replace(/["\r\n\\]/g, '_')}.xlsx`),
  );
  const field = fc.oneof(
    { weight: 5, arbitrary: fc.constant('file') },
    { weight: 1, arbitrary: fc.constant('archivo') },
  );
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 4000 }).map((b) => ({ kind: 'bytes al azar', b })),
    fc
      .uint8Array({ maxLength: 2000 })
      .map((b) => ({ kind: 'zip basura', b: new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...b]) })),
    fc.constant({ kind: 'vacío', b: new Uint8Array() }),
    ...(workbooks.length
      ? [
          fc.constantFrom(...workbooks).map((b) => ({ kind: 'libro', b: new Uint8Array(b) })),
          fc
            .tuple(fc.constantFrom(...workbooks), fc.integer({ min: 10, max: 3000 }))
            .map(([b, n]) => ({ kind: 'libro truncado', b: new Uint8Array(b.subarray(0, n)) })),
        ]
      : []),
  );
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .record({ bytes, name, field })
        .map(({ bytes, name, field }) => ({ kind: bytes.kind, bytes: bytes.b, name, field })),
    },
    { weight: 1, arbitrary: fc.constant(null) },
  );
}

const BOUNDARY = 'openapiFuzz5Kq2Zr9Lx';

function multipartOf(file: FileCase | null): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="nota"\r\n\r\nprueba\r\n`),
  ];
  if (file)
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

export interface OpenApiRequest {
  url: string;
  contentType?: string;
  payload?: string | Buffer;
  /** What the request carries, for a report and to tell an echo from a leak. */
  mutation: string;
  echo: string[];
}

/** A request of one operation, from its declared parameters and body. */
export function requestOf(o: Operation, workbooks: Buffer[]): fc.Arbitrary<OpenApiRequest> {
  const params = (o.op.parameters ?? []) as Schema[];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const path = fc
    .tuple(...pathParams.map((p) => paramOf(p.schema, p.name)))
    .map((values) =>
      pathParams.reduce((url, p, i) => url.replace(`{${p.name}}`, encodeURIComponent(values[i]!)), o.path),
    );
  const query = fc.record<Record<string, unknown>>(
    Object.fromEntries(
      queryParams.map((p) => [
        p.name,
        fc.oneof(
          { weight: 4, arbitrary: schemaValue(p.schema, p.name) },
          { weight: 1, arbitrary: wrongValue },
        ),
      ]),
    ),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const content = (o.op.requestBody?.content ?? {}) as Record<string, { schema: Schema }>;
  type Body = { contentType?: string; payload?: string | Buffer; mutation: string; strings: string[] };
  let body: fc.Arbitrary<Body> = fc.constant({ mutation: 'sin cuerpo', strings: [] });
  if (content['multipart/form-data'])
    body = fileOf(workbooks).map((file) => ({
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      payload: multipartOf(file),
      mutation: file
        ? `archivo ${file.kind} (${file.bytes.length} bytes, campo ${file.field})`
        : 'sin archivo',
      strings: file ? [file.name, file.field] : [],
    }));
  else if (content['application/json'])
    body = bodyOf(content['application/json'].schema).map(({ value, mutation }) => ({
      contentType: 'application/json',
      payload: JSON.stringify(value) ?? 'null',
      mutation,
      strings: stringsIn(value),
    }));
  return fc.record({ path, query, body }).map(({ path, query, body }) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) search.append(k, queryText(v));
    const qs = search.toString();
    return {
      url: qs ? `${path}?${qs}` : path,
      contentType: body.contentType,
      payload: body.payload,
      mutation: body.mutation,
      echo: [
        ...body.strings,
        ...Object.values(query).flatMap((v) => stringsIn(v)),
        ...path.split('/').map(decodeSafe),
      ],
    };
  });
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The dealer ids an answer names (`dealer_id` or `dealerId` anywhere in it). */
export function dealerIdsIn(value: unknown, out = new Set<number>(), depth = 0): Set<number> {
  if (depth > 12) return out;
  if (Array.isArray(value)) for (const v of value) dealerIdsIn(v, out, depth + 1);
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'dealer_id' || k === 'dealerId') && typeof v === 'number') out.add(v);
      else dealerIdsIn(v, out, depth + 1);
    }
  return out;
}
