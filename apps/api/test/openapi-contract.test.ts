// /api/docs is a contract: a valid OpenAPI 3.1 document (checked by a maintained validator,
// @seriousme/openapi-schema-validator) in which every operation the app serves says what it
// answers: the envelope's `result` on success, the error envelope on each status it may answer,
// multipart file bodies for the uploads, typed path ids and declared filters.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './harness';

let t: TestContext;
let doc: any;
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  doc = res.json();
});
afterAll(() => t?.close());

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      key: `${m.toUpperCase()} ${path}`,
      path,
      method: m,
      op: item[m],
    })),
  );

/** The operation (METHOD /path) an error of the validator points into. */
function operationOf(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  return parts[0] === 'paths' && parts[1] && parts[2]
    ? `${parts[2].toUpperCase()} ${parts[1]}`
    : instancePath;
}

describe('/api/docs', () => {
  it('is a valid OpenAPI 3.1 document, every operation of it', async () => {
    const result = await new Validator({ allErrors: true }).validate(doc);
    const errors = Array.isArray(result.errors) ? result.errors : result.errors ? [result.errors] : [];
    const invalid = [
      ...new Set(errors.map((e) => (typeof e === 'string' ? e : operationOf(e.instancePath)))),
    ];
    console.log(`OPENAPI ${operations().length} operaciones, ${invalid.length} no válidas`);
    expect(invalid).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('covers every /api route the app serves', () => {
    const documented = new Set(operations().map((o) => o.key));
    const served = t.app.routeTable
      .filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('every operation answers the envelope: its result on success, the error envelope on its statuses', () => {
    const problems: string[] = [];
    let withResult = 0;
    const withoutResult: string[] = [];
    for (const { key, op } of operations()) {
      const responses = op.responses ?? {};
      const ok = responses['200'];
      if (!ok) {
        problems.push(`${key}: sin respuesta 200`);
        continue;
      }
      const json = ok.content?.['application/json']?.schema;
      const file = Object.keys(ok.content ?? {}).find((c) => c !== 'application/json');
      if (json) {
        if (!json.properties?.success || !json.properties?.result || !json.properties?.error)
          problems.push(`${key}: la respuesta 200 no es el sobre {success, result, error}`);
        else if (Object.keys(json.properties.result).length) withResult++;
        else withoutResult.push(key);
      } else if (!file) problems.push(`${key}: la respuesta 200 no dice su contenido`);
      else withResult++;
      const errors = Object.keys(responses).filter((s) => Number(s) >= 400);
      if (!errors.includes('400') || !errors.includes('503')) problems.push(`${key}: sin 400 ni 503`);
      if (op.security?.length !== 0 && !errors.includes('401')) problems.push(`${key}: sin 401`);
      for (const s of errors) {
        const schema = responses[s].content?.['application/json']?.schema;
        if (!schema?.properties?.error?.properties?.message)
          problems.push(`${key}: ${s} no es el sobre de error`);
      }
    }
    console.log(`OPENAPI ${withResult} de ${operations().length} operaciones con esquema de resultado`);
    expect(problems).toEqual([]);
    // Every success says its `result` (issue 24: 25 did not), so the fuzzer checks each answer.
    expect(withoutResult).toEqual([]);
  });

  it('the 7 uploads take multipart/form-data with a binary file', () => {
    const uploads = operations().filter((o) => o.op.requestBody?.content?.['multipart/form-data']);
    expect(uploads.map((o) => o.key).sort()).toEqual(
      [
        'POST /api/daily-sales/import',
        'POST /api/dispatches-objectives/import',
        'POST /api/documents/upload',
        'POST /api/figures/import',
        'POST /api/fees/import',
        'POST /api/sales/import',
        'POST /api/workshop-infos/import',
      ].sort(),
    );
    for (const { op } of uploads) {
      const schema = op.requestBody.content['multipart/form-data'].schema;
      expect(schema.properties.file).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
      expect(schema.required).toEqual(['file']);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['413', '429']));
    }
  });

  it('types ids and declares the list filters', () => {
    const get = doc.paths['/api/dealers/get/{id}'].get;
    expect(get.parameters).toContainEqual(
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ type: 'integer' }),
      }),
    );
    const list = doc.paths['/api/sales'].get.parameters.map((p: { name: string }) => p.name);
    expect(list).toEqual(expect.arrayContaining(['page', 'perPage', 'sort', 'order', 'query']));
    expect(list.some((n: string) => n.startsWith('filter['))).toBe(true);
    expect(doc.paths['/api/dealers/{id}'].put.responses['404']).toBeDefined();
  });
});
