// The external systems' and SMTP settings may not point inside the server's network: loopback,
// private, link-local (cloud metadata) addresses, and names that resolve to them, are refused when
// saved and when called; EXTERNAL_HOSTS_ALLOW names the internal hosts an operator trusts (the
// suite's stubs listen on 127.0.0.1, so every other suite allows it).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { allowExternalHosts, checkedLookup, parseHostsAllow } from '../src/lib/outbound-host';
import { api, createTestApp, login, type TestContext } from './harness';
import { setSetting } from './sales-fixtures';
import { type SmtpStub, startSmtpStub } from './smtp-stub';

let t: TestContext;
let admin: string;
let stub: Server;
let stubUrl: string;
let stubHits = 0;
let smtp: SmtpStub;

beforeAll(async () => {
  // No internal host allowed (the default of a server).
  t = await createTestApp({ externalHostsAllow: [] });
  admin = await login(t.app);
  stub = createServer((_req, res) => {
    stubHits++;
    res.setHeader('content-type', 'application/json');
    res.end('[]');
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/ventas`;
  smtp = await startSmtpStub();
});
afterAll(async () => {
  allowExternalHosts(['127.0.0.1']);
  await new Promise((r) => stub?.close(r));
  await smtp?.close();
  await t?.close();
});

const internalText = (key: string, where: string) =>
  `${key} apunta a una dirección interna (${where}): no se permiten direcciones locales, privadas ni de metadatos. Registre la dirección pública del sistema o pida al operador que la autorice en EXTERNAL_HOSTS_ALLOW.`;

const saved = async (key: string) =>
  (
    await t.handle.query<{ value: string | null }>('select value from configurations where key = $1', [key])
  )[0]?.value;

describe('saving an internal address is refused', () => {
  it.each([
    ['SALES_API_URL', 'http://127.0.0.1:8080/ventas', '127.0.0.1'],
    ['CASIS_API_URL', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['SIMA_API_URL', 'http://10.20.30.40/sima', '10.20.30.40'],
    ['SIMA_API_URL', 'http://192.168.1.5/', '192.168.1.5'],
    ['SALES_API_URL', 'http://[::1]:3000/', '::1'],
    ['SALES_API_URL', 'http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['CASIS_API_URL', 'http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    // Written another way, the same loopback: the URL parser reads it as 127.0.0.1.
    ['SALES_API_URL', 'http://2130706433/', '127.0.0.1'],
    // A name is resolved and its addresses checked.
    ['SIMA_API_URL', 'http://localhost:8080/', 'localhost (127.0.0.1)'],
    ['SMTP_URL', 'smtp://usuario:clave@127.0.0.1:25', '127.0.0.1'],
    ['SMTP_URL', 'smtp://localhost:25', 'localhost (127.0.0.1)'],
  ])('%s = %s', async (key, url, where) => {
    const before = await saved(key);
    const res = await api(t.app, 'PUT', '/api/configurations/save', { token: admin, body: { [key]: url } });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toEqual([{ field: key, message: internalText(key, where) }]);
    expect(JSON.stringify(res.body)).not.toContain('clave@');
    expect(await saved(key)).toBe(before);
  });

  it('on the generic configurations call too (field value)', async () => {
    const list = await api(t.app, 'GET', '/api/configurations?perPage=100', { token: admin });
    const row = list.body.result.data.find((r: { key: string }) => r.key === 'CASIS_API_URL');
    const res = await api(t.app, 'PUT', `/api/configurations/${row.id}`, {
      token: admin,
      body: { value: 'http://172.16.0.9/cifras' },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toEqual([
      { field: 'value', message: internalText('CASIS_API_URL', '172.16.0.9') },
    ]);
  });

  it('a public address and an empty value are saved', async () => {
    const res = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: {
        SALES_API_URL: 'http://8.8.8.8/ventas',
        SIMA_API_URL: '',
        CASIS_API_URL: 'https://casis.example.com/api',
      },
    });
    expect(res.status).toBe(200);
    expect(await saved('SALES_API_URL')).toBe('http://8.8.8.8/ventas');
  });
});

describe('calling an internal address is refused (a value saved before the rule, or by hand)', () => {
  it('the sales API: 400 in Spanish, and the stub is never reached', async () => {
    await setSetting(t.app, 'SALES_API_URL', stubUrl);
    const hits = stubHits;
    const res = await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      'SALES_API_URL apunta a una dirección interna: no se permiten direcciones locales, privadas ni de metadatos. Registre la dirección pública del sistema o pida al operador que la autorice en EXTERNAL_HOSTS_ALLOW.',
    );
    expect(stubHits).toBe(hits);
  });

  it('SMTP: the message fails with the reason, nothing reaches the server', async () => {
    await setSetting(t.app, 'SMTP_URL', smtp.url);
    await t.handle.query(
      "insert into mail_outbox (\"to\", subject, text, status) values ('a@example.com', 'Prueba interna', 'x', 'pending')",
    );
    const res = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.result.sent).toBe(0);
    const row = await t.handle.query<{ status: string; error: string }>(
      "select status, error from mail_outbox where subject = 'Prueba interna'",
    );
    expect(row[0]).toEqual({
      status: 'failed',
      error: expect.stringMatching(/^SMTP_URL apunta a una dirección interna: /),
    });
    expect(smtp.received).toHaveLength(0);
  });

  it("the socket's own lookup refuses a name that resolves inside (no DNS rebinding between check and call)", async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      checkedLookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EINTERNALHOST');
  });
});

describe('EXTERNAL_HOSTS_ALLOW', () => {
  it('reads names, addresses and ranges, and refuses anything else in Spanish', () => {
    expect(
      loadConfig({ EXTERNAL_HOSTS_ALLOW: ' 127.0.0.1, 10.0.0.0/8 ,SIMA.interno' }).externalHostsAllow,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', 'sima.interno']);
    expect(loadConfig({}).externalHostsAllow).toEqual([]);
    expect(() => parseHostsAllow('10.0.0.0/99')).toThrow(/^EXTERNAL_HOSTS_ALLOW inválido: "10.0.0.0\/99"/);
    expect(() => parseHostsAllow('http://x')).toThrow(/EXTERNAL_HOSTS_ALLOW inválido/);
  });

  it('lets the operator name an internal host: saved, called and mailed', async () => {
    allowExternalHosts(parseHostsAllow('127.0.0.1'));
    try {
      const save = await api(t.app, 'PUT', '/api/configurations/save', {
        token: admin,
        body: { SALES_API_URL: stubUrl, SMTP_URL: smtp.url },
      });
      expect(save.status).toBe(200);
      const hits = stubHits;
      const res = await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} });
      expect(res.status).toBe(200);
      expect(stubHits).toBe(hits + 1);
      const flush = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
      expect(flush.body.result.sent).toBeGreaterThanOrEqual(1);
      expect(smtp.received.length).toBeGreaterThanOrEqual(1);
      // Another internal address stays refused.
      const other = await api(t.app, 'PUT', '/api/configurations/save', {
        token: admin,
        body: { SIMA_API_URL: 'http://169.254.169.254/' },
      });
      expect(other.status).toBe(422);
    } finally {
      allowExternalHosts([]);
    }
  });
});
