// The one list of what the API serves: each module declares its resources and actions; the app
// registers them from here, and the authorization matrix, the no-500 fuzz test and the check
// against the client's RESOURCE_CONTRACTS walk the same list, so no call can be missed.
import type { FastifyInstance } from 'fastify';
import { type Action, registerAction } from './action';
import type { Resource } from './resource';
import { registerResource } from './resource-routes';

export interface ApiModule {
  name: string;
  resources?: Resource[];
  actions?: Action[];
  /** Work run once the server is ready (e.g. mail kept while SMTP was missing goes out). */
  onReady?: (app: FastifyInstance) => Promise<void>;
}

export function defineModule(module: ApiModule): ApiModule {
  return module;
}

export function registerModules(app: FastifyInstance, modules: ApiModule[]): void {
  for (const m of modules) {
    for (const r of m.resources ?? []) registerResource(app, r);
    for (const a of m.actions ?? []) registerAction(app, a);
    const { onReady } = m;
    if (onReady) app.addHook('onReady', () => onReady(app));
  }
}

export const allResources = (modules: ApiModule[]): Resource[] => modules.flatMap((m) => m.resources ?? []);
export const allActions = (modules: ApiModule[]): Action[] => modules.flatMap((m) => m.actions ?? []);
