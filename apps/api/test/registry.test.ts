// The registry against the client's contracts: every resource a user can write, and every
// resource an action audits, has its contract in RESOURCE_CONTRACTS under the same path (the
// audit screen titles and filters by it); every action with a body documents it in /api/docs.
import { AUDITED_CALLS, defineContract, f, RESOURCE_CONTRACTS } from '@app/contracts';
import { integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditedAs } from '../src/core/action';
import { allActions, allResources, plainResourcesModule } from '../src/core/registry';
import { API_MODULES } from '../src/modules';
import { createTestApp, type TestContext } from './harness';

const contracts = RESOURCE_CONTRACTS as Record<string, { path: string; title: string }>;

describe('registry', () => {
  it('every writable resource has its contract in RESOURCE_CONTRACTS, same path and title', () => {
    const missing: string[] = [];
    for (const r of allResources(API_MODULES)) {
      if (r.readOnly) continue;
      const c = contracts[r.name];
      if (!c || c.path !== r.path || c.title !== r.label) missing.push(r.name);
    }
    expect(missing).toEqual([]);
  });

  it('every resource an action audits is in RESOURCE_CONTRACTS', () => {
    const names = allActions(API_MODULES)
      .map((a) => auditedAs(a)?.resource)
      .filter((n): n is string => !!n && n !== 'auth');
    expect(names.filter((n) => !contracts[n] && !AUDITED_CALLS.some((c) => c.id === n))).toEqual([]);
  });

  it('every contract is served: declared by a module, or plain from its table', () => {
    const served = new Set(allResources(API_MODULES).map((r) => r.path));
    expect(Object.keys(contracts).filter((path) => !served.has(path))).toEqual([]);
    // Plain ones are those whose contract and table say everything, e.g. zones and countries.
    const plain = API_MODULES.find((m) => m.name === 'plain')?.resources?.map((r) => r.path);
    expect(plain).toEqual(expect.arrayContaining(['zones', 'countries', 'manufacturers']));
  });

  it('a new contract and a table named after its path are a resource, with the head and fields of the contract', () => {
    const regions = pgTable('sales_regions', {
      id: serial('id').primaryKey(),
      code: varchar('code', { length: 20 }),
      name: varchar('name', { length: 120 }).notNull(),
      sort_order: integer('sort_order'),
    });
    const contract = defineContract(
      {
        path: 'sales-regions',
        permission: 'Admin.SalesRegions',
        title: 'Regiones',
        pageSize: 10,
        sort: 'code',
      },
      {
        code: f.optText('Código', 20, { search: true, sort: true }),
        name: f.text('Nombre', 120, { search: true, sort: true, filter: true }),
      },
    );
    const [region] = plainResourcesModule({ 'sales-regions': contract }, { regions }, []).resources ?? [];
    expect(region).toMatchObject({
      path: 'sales-regions',
      tableName: 'sales_regions',
      permission: 'Admin.SalesRegions',
      label: 'Regiones',
      pageSize: 10,
      sort: { field: 'code', order: 'asc' },
      searchable: ['code', 'name'],
      sortable: ['id', 'code', 'name'],
      filters: ['name'],
    });
    // Without its table the mistake is named at start, not on the first call.
    expect(() => plainResourcesModule({ 'sales-regions': contract }, {}, [])).toThrow(
      'El recurso sales-regions no tiene declaración ni tabla sales_regions',
    );
  });

  it('no two modules declare the same resource path or action route', () => {
    const paths = allResources(API_MODULES).map((r) => r.path);
    expect(paths.length).toBe(new Set(paths).size);
    const routes = allActions(API_MODULES).map((a) => `${a.method} ${a.path}`);
    expect(routes.length).toBe(new Set(routes).size);
  });
});

describe('/api/docs', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('documents every action, with its body schema where it has one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; summary?: string }>>;
    };
    const problems: string[] = [];
    for (const a of allActions(API_MODULES)) {
      const path = a.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = doc.paths[path]?.[a.method.toLowerCase()];
      if (!op) problems.push(`${a.method} ${a.path}: no documentado`);
      else if (op.summary !== a.summary) problems.push(`${a.method} ${a.path}: sin resumen`);
      else if (a.body && !op.requestBody) problems.push(`${a.method} ${a.path}: sin cuerpo documentado`);
    }
    expect(problems).toEqual([]);
  });
});
