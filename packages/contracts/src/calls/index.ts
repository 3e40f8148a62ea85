import { agreementCalls } from './agreements';
import { dispatchCalls } from './dispatches';
import { documentCalls } from './documents';
import { notificationCalls } from './notifications';
import { preferenceCalls } from './preferences';
import { quizCalls } from './quiz';
import { salesCalls } from './sales';
import { securityCalls } from './security';
import { shellCalls } from './shell';
import { savedViewCalls } from './views';

export * from './agreements';
export * from './call';
export * from './dispatches';
export * from './documents';
export * from './notifications';
export * from './preferences';
export * from './quiz';
export * from './sales';
export * from './security';
export * from './shell';
export * from './views';

/** Every module's calls (the web's path test reads them). */
export const API_CALLS = {
  agreementCalls,
  dispatchCalls,
  documentCalls,
  notificationCalls,
  preferenceCalls,
  quizCalls,
  salesCalls,
  securityCalls,
  shellCalls,
  savedViewCalls,
};
