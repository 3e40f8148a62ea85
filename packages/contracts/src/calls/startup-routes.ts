// Method and path of the calls the start-up and the login make (SPEC §1, §2), as plain data: a
// leaf module (types only imported), spread into securityCalls / preferenceCalls, which add the
// schemas, and typed with those schemas for the web in calls/startup.ts.

import type { CallContract } from './call';

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
