// The one list of what the API serves: each module declares its resources and actions; the app
// registers them from here, and the authorization matrix, the fuzz test (test/fuzz.test.ts) and
// the check against the client's RESOURCE_CONTRACTS walk the same list, so no call can be missed.
import type { ResourceContract } from '@app/contracts';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { type Action, registerAction } from './action';
import { plainResource, type Resource } from './resource';
import { registerResource } from './resource-routes';

export interface ApiModule {
  name: string;
  resources?: Resource[];
  actions?: Action[];
  /** Work run once the server is ready (e.g. mail kept while SMTP was missing goes out). */
  onReady?: (app: FastifyInstance) => Promise<void>;
  /** Work run when the server closes (stop the module's timers). */
  onClose?: (app: FastifyInstance) => Promise<void>;
}

export function defineModule(module: ApiModule): ApiModule {
  return module;
}

export function registerModules(app: FastifyInstance, modules: ApiModule[]): void {
  for (const m of modules) {
    for (const r of m.resources ?? []) registerResource(app, r);
    for (const a of m.actions ?? []) registerAction(app, a);
    const { onReady, onClose } = m;
    if (onReady) app.addHook('onReady', () => onReady(app));
    if (onClose) app.addHook('onClose', () => onClose(app));
  }
}

export const allResources = (modules: ApiModule[]): Resource[] => modules.flatMap((m) => m.resources ?? []);
export const allActions = (modules: ApiModule[]): Action[] => modules.flatMap((m) => m.actions ?? []);

/**
 * The resources no module declares: for a contract with no declaration, its contract and the
 * table named after its path (dealer-branches → dealer_branches) say everything, so adding a
 * plain resource is its contract and its table.
 */
export function plainResourcesModule(
  contracts: Record<string, ResourceContract>,
  tables: Record<string, unknown>,
  declared: ApiModule[],
): ApiModule {
  const taken = new Set(allResources(declared).map((r) => r.path));
  const byName = new Map<string, PgTable>();
  for (const t of Object.values(tables)) if (is(t, PgTable)) byName.set(getTableName(t), t);
  const resources: Resource[] = [];
  for (const contract of Object.values(contracts)) {
    if (taken.has(contract.path)) continue;
    const name = contract.path.replaceAll('-', '_');
    const table = byName.get(name);
    if (!table) throw new Error(`El recurso ${contract.path} no tiene declaración ni tabla ${name}`);
    resources.push(plainResource(contract, table));
  }
  return defineModule({ name: 'plain', resources });
}
