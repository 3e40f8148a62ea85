// The calls the fuzzer walks, read from the registry (API_MODULES): every generic call of every
// declared resource and every declared action. A module that joins the registry is fuzzed
// without a line here.

import { queryShape } from '@app/contracts';
import type { z } from 'zod';
import type { Action } from '../../src/core/action';
import { allActions, allResources } from '../../src/core/registry';
import type { Resource } from '../../src/core/resource';
import { API_MODULES } from '../../src/modules';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface FuzzRoute {
  method: Method;
  /** The path as registered, with its :params. */
  path: string;
  /** Field names the call knows (body schema keys, list fields), so the fuzzer hits real keys. */
  fields: string[];
  /** Query keys the call reads. */
  queryKeys: string[];
  /** The logout ends the fuzzer's own session: it runs with a throwaway token. */
  endsSession?: boolean;
}

const LIST_KEYS = ['page', 'perPage', 'sort', 'order', 'query', 'columns', 'filter'];

function shapeKeys(schema: z.ZodType | undefined): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}

function resourceRoutes(r: Resource): FuzzRoute[] {
  const base = `/api/${r.path}`;
  const fields = [...new Set([...Object.keys(r.selection), ...shapeKeys(r.schema)])];
  const queryKeys = [
    ...LIST_KEYS,
    ...(r.filters ?? []).map((f) => `filter[${f}]`),
    ...Object.keys(r.filterHandlers ?? {}).map((f) => `filter[${f}]`),
    ...(r.plainFilters ?? []),
    'enc_auth_token',
  ];
  const read = (method: Method, path: string): FuzzRoute => ({ method, path, fields, queryKeys });
  const routes = [
    read('GET', base),
    read('GET', `${base}/query-search`),
    read('GET', `${base}/get/:id`),
    read('GET', `${base}/export`),
  ];
  if (!r.readOnly) routes.push(read('POST', base), read('PUT', `${base}/:id`), read('DELETE', `${base}/:id`));
  return routes;
}

function actionRoute(a: Action): FuzzRoute {
  return {
    method: a.method,
    path: a.path,
    fields: [...shapeKeys(a.body), ...(a.target ? shapeKeys(a.target.schema) : [])],
    queryKeys: [...Object.keys((a.query && queryShape(a.query)) ?? {}), ...LIST_KEYS, 'enc_auth_token'],
    endsSession: a.path === '/api/auth/logout',
  };
}

/** Calls served outside the registry (a plugin's route), besides the API docs. */
const OUTSIDE_REGISTRY: FuzzRoute[] = [
  // Prometheus metrics (core/metrics.ts): from app.inject's loopback address it answers text.
  { method: 'GET', path: '/api/metrics', fields: [], queryKeys: ['enc_auth_token'] },
];

/** Every call of the registry, once each, and the few outside it. */
export function registryRoutes(): FuzzRoute[] {
  const seen = new Set<string>();
  const out: FuzzRoute[] = [];
  for (const route of [
    ...allResources(API_MODULES).flatMap(resourceRoutes),
    ...allActions(API_MODULES).map(actionRoute),
    ...OUTSIDE_REGISTRY,
  ]) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(route);
  }
  return out;
}
