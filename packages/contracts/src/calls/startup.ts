// The calls the start-up and the login make (SPEC §1, §2), as the web's first bundle calls them:
// their method and path (calls/startup-routes.ts, said once and spread into securityCalls /
// preferenceCalls, which add the schemas) typed with their contracts' schemas, which are only
// types here (import type). So the login route builds no zod schema and carries no zod (apps/web
// bundle budget). Nothing here may import a value from a module that builds a schema.

import type { CallRoute } from './call';
import type { preferenceCalls } from './preferences';
import type { securityCalls } from './security';
import { startupRoutes } from './startup-routes';

type StartupContracts = Pick<typeof preferenceCalls, 'settings' | 'generalTypeValues'> &
  Pick<
    typeof securityCalls,
    'login' | 'logout' | 'loginInformation' | 'menu' | 'twoFactorLogin' | 'twoFactorSetup'
  >;

/** The start-up calls as `call()` takes them: the routes, typed with their contracts' schemas. */
export const startupCalls: { [K in keyof typeof startupRoutes]: CallRoute<StartupContracts[K]> } =
  startupRoutes;
