// The `z` every schema of the contracts is built with. The pages run under a Content-Security-Policy
// without 'unsafe-eval', where zod must not probe `new Function` when it builds an object schema
// (the browser refuses it and reports a violation); a bundle may evaluate the contracts' schemas
// before the app's own zod-config.ts runs, so the browser's setting is made here, before any
// contract schema exists. The server keeps zod's compiled parsers.
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
