// Imported first by main.tsx, before any schema exists. The pages run under a
// Content-Security-Policy without 'unsafe-eval' (apps/api/src/core/security-headers.ts): zod must
// not probe `new Function` to compile its object parsers (the browser would refuse it and report
// a violation). Parsing is the same, only not compiled.
import { z } from 'zod';

z.config({ jitless: true });
