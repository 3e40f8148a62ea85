// The `test` every spec uses: Playwright's, plus a guard that fails the test when any page it
// opened (its own page, or pages of contexts it created) reported a Content-Security-Policy
// violation. The server sends the policy on every answer (apps/api/src/core/security-headers.ts);
// a screen that needs something outside it would be broken for users, so it fails here.
import { type BrowserContext, test as base, expect } from '@playwright/test';

export { expect };
export type { Page } from '@playwright/test';

/** Chromium's console text of a refused load, inline style/script, eval, frame... */
const CSP_TEXT = /Content Security Policy|securitypolicyviolation/i;

/** Reports `securitypolicyviolation` events on the console (and so to the guard) too. */
function reportViolations() {
  document.addEventListener('securitypolicyviolation', (e) => {
    console.error(
      `securitypolicyviolation: ${e.effectiveDirective} bloqueo ${e.blockedURI || '(inline)'} en ${e.sourceFile || e.documentURI}:${e.lineNumber}`,
    );
  });
}

export const test = base.extend<{ cspGuard: string[] }>({
  cspGuard: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      const watch = async (ctx: BrowserContext) => {
        await ctx.addInitScript(reportViolations);
        ctx.on('console', (m) => {
          if (CSP_TEXT.test(m.text())) violations.push(`${m.location().url || m.page()?.url()}: ${m.text()}`);
        });
      };
      await watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const ctx = await newContext(...args);
        await watch(ctx);
        return ctx;
      };
      try {
        await use(violations);
      } finally {
        browser.newContext = newContext;
      }
      expect(violations, 'violaciones de la política de seguridad de contenido (CSP)').toEqual([]);
    },
    { auto: true },
  ],
});
