import { agreementCalls } from './agreements';
import { dashboardCalls } from './dashboard';
import { dispatchCalls } from './dispatches';
import { documentCalls } from './documents';
import { capacityCalls, feeCalls, figureCalls } from './figures';
import { notificationCalls } from './notifications';
import { preferenceCalls } from './preferences';
import { quizCalls } from './quiz';
import { salesCalls } from './sales';
import { securityCalls } from './security';
import { shellCalls } from './shell';
import { savedViewCalls } from './views';
import { workshopCalls } from './workshop';

export * from './agreements';
export * from './call';
export * from './dashboard';
export * from './dispatches';
export * from './documents';
export * from './figures';
export * from './notifications';
export * from './preferences';
export * from './quiz';
export * from './resource';
export * from './sales';
export * from './security';
export * from './shell';
export * from './startup';
export * from './views';
export * from './workshop';

/** Every module's calls (the web's path test reads them). */
export const API_CALLS = {
  agreementCalls,
  capacityCalls,
  dashboardCalls,
  dispatchCalls,
  documentCalls,
  feeCalls,
  figureCalls,
  notificationCalls,
  preferenceCalls,
  quizCalls,
  salesCalls,
  securityCalls,
  shellCalls,
  savedViewCalls,
  workshopCalls,
};
