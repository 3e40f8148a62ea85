// The registry against the client's contracts: every resource a user can write, and every
// resource an action audits, has its contract in RESOURCE_CONTRACTS under the same path (the
// audit screen titles and filters by it); every action with a body documents it in /api/docs.
import { RESOURCE_CONTRACTS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allActions, allResources } from '../src/core/registry';
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
      .map((a) => a.audit?.resource)
      .filter((n): n is string => !!n && n !== 'auth');
    expect(names.filter((n) => !contracts[n])).toEqual([]);
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
