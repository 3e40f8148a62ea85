// The calls the start-up and the login make (SPEC §1, §2), as plain data: their method and path
// are said here once and spread into securityCalls / preferenceCalls, which add the schemas. The
// web's first bundle calls them through `startupCalls`, whose schemas are only types (import
// type), so the login route builds no zod schema and carries no zod (apps/web bundle budget).
// Nothing here may import a value from a module that builds a schema.

import type { CallContract, CallRoute } from './call';
import type { preferenceCalls } from './preferences';
import type { securityCalls } from './security';

/** Method and path of each start-up call (the one place they are written). */
export const startupRoutes = {
  settings: { method: 'GET', path: '/api/getUserConfigurations' },
  generalTypeValues: { method: 'GET', path: '/api/general-types-values' },
  login: { method: 'POST', path: '/api/auth/login' },
  logout: { method: 'POST', path: '/api/auth/logout' },
  loginInformation: { method: 'GET', path: '/api/auth/getCurrentLoginInformations' },
  menu: { method: 'GET', path: '/api/tabs/menu' },
  twoFactorLogin: { method: 'POST', path: '/api/auth/two-factor' },
  twoFactorSetup: { method: 'POST', path: '/api/auth/two-factor/setup' },
} as const satisfies Record<string, Pick<CallContract, 'method' | 'path'>>;

type StartupContracts = Pick<typeof preferenceCalls, 'settings' | 'generalTypeValues'> &
  Pick<
    typeof securityCalls,
    'login' | 'logout' | 'loginInformation' | 'menu' | 'twoFactorLogin' | 'twoFactorSetup'
  >;

/** The start-up calls as `call()` takes them: the routes, typed with their contracts' schemas. */
export const startupCalls: { [K in keyof typeof startupRoutes]: CallRoute<StartupContracts[K]> } =
  startupRoutes;
