// The start-up's and login's calls (contracts/calls/startup.ts) are plain data: the login bundle
// calls them without building a zod schema (scripts/bundle-size.mjs, 200 kB). They must stay the
// same calls as the contracts the server declares its actions from, typed with their schemas.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CallInput,
  type CallResult,
  type LoginInformation,
  preferenceCalls,
  securityCalls,
  startupCalls,
} from '@app/contracts';
import { describe, expect, expectTypeOf, it } from 'vitest';

const contracts = { ...preferenceCalls, ...securityCalls };
const CALLS_DIR = join(__dirname, '..', '..', '..', 'packages', 'contracts', 'src', 'calls');

describe('startupCalls', () => {
  it.each(
    Object.keys(startupCalls) as (keyof typeof startupCalls)[],
  )('%s: the method and path of its contract, no schema', (name) => {
    const route = startupCalls[name];
    const full = contracts[name];
    expect(route).toEqual({ method: full.method, path: full.path });
    expect('result' in full).toBe(true);
  });

  it('the modules the login bundle loads import no value of a schema-building module', () => {
    for (const file of ['startup.ts', 'startup-routes.ts', 'call.ts']) {
      const text = readFileSync(join(CALLS_DIR, file), 'utf8');
      const valueImports = [...text.matchAll(/^import (?!type )[^;]*;/gm)]
        .map((m) => m[0])
        .filter((i) => !i.endsWith("from './startup-routes';"));
      expect(valueImports, file).toEqual([]);
    }
  });

  it('is typed with its contracts’ schemas', () => {
    expectTypeOf<CallResult<typeof startupCalls.login>>().toEqualTypeOf<
      CallResult<typeof securityCalls.login>
    >();
    expectTypeOf<CallResult<typeof startupCalls.loginInformation>>().toEqualTypeOf<LoginInformation>();
    expectTypeOf<CallInput<typeof startupCalls.login>>().toEqualTypeOf<
      CallInput<typeof securityCalls.login>
    >();
    expectTypeOf<CallResult<typeof startupCalls.menu>>().toEqualTypeOf<
      CallResult<typeof securityCalls.menu>
    >();
    expectTypeOf<CallResult<typeof startupCalls.settings>>().toEqualTypeOf<
      CallResult<typeof preferenceCalls.settings>
    >();
    expectTypeOf<CallResult<typeof startupCalls.generalTypeValues>>().not.toBeUnknown();
  });
});
