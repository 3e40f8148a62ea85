// TRUST_PROXY: the proxies' addresses/ranges or a hop count; `true` (trust every hop, so anyone
// picks the address the limits count by) is refused when the configuration is read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig, TRUST_PROXY_TRUE_MESSAGE } from '../src/config';
import { createTestApp, JWT_SECRET, type TestContext, uniq } from './harness';

describe('TRUST_PROXY when the configuration is read', () => {
  it('refuses true (and yes, *) with a Spanish message naming what to set instead', () => {
    for (const v of ['true', 'TRUE', 'yes', '*'])
      expect(() => loadConfig({ TRUST_PROXY: v }), v).toThrow(TRUST_PROXY_TRUE_MESSAGE);
    expect(TRUST_PROXY_TRUE_MESSAGE).toMatch(/no se admite.*10\.0\.0\.0\/8.*1\)/);
  });

  it('takes addresses, CIDR ranges, proxy-addr names or a hop count; off when unset, false or 0', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 127.0.0.1 ,fd00::/8,loopback' }).trustProxy).toBe(
      '10.0.0.0/8,127.0.0.1,fd00::/8,loopback',
    );
  });

  it('refuses anything else with a Spanish message', () => {
    for (const v of ['proxy.local', '10.0.0.0/33', '10.0.0.1/8/2', '1.2.3', '50'])
      expect(() => loadConfig({ TRUST_PROXY: v }), v).toThrow(/TRUST_PROXY inválido/);
  });
});

describe('the client address behind trusted proxies', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** The address a failed login is recorded with, under a given TRUST_PROXY. */
  async function recordedIp(trust: string, remote: string, forwarded: string): Promise<string> {
    const config = {
      ...loadConfig({ TRUST_PROXY: trust }),
      rateLimits: { login: 1000, survey: 1000, upload: 1000 },
    };
    const app = await buildApp({ handle: t.handle, config, jwtSecret: JWT_SECRET, logger: false });
    await app.ready();
    try {
      const username = uniq('proxy').toLowerCase();
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'x' },
        headers: { 'x-forwarded-for': forwarded },
        remoteAddress: remote,
      });
      const rows = await t.handle.query<{ ip: string }>('select ip from login_attempts where username = $1', [
        username,
      ]);
      return rows[0]!.ip;
    } finally {
      await app.close();
    }
  }

  it('a hop count or the proxy range: the address the proxy saw; a forged leftmost entry changes nothing', async () => {
    for (const trust of ['1', '10.0.0.0/8']) {
      expect(await recordedIp(trust, '10.0.0.2', '203.0.113.50, 198.51.100.7')).toBe('198.51.100.7');
      expect(await recordedIp(trust, '10.0.0.2', '203.0.113.99, 198.51.100.7')).toBe('198.51.100.7');
    }
    // A client outside the trusted range is its own address, whatever it forwards.
    expect(await recordedIp('10.0.0.0/8', '198.51.100.8', '203.0.113.50')).toBe('198.51.100.8');
  });
});
