// The second factor: enrolment from the profile (QR + secret, confirmed by a code), the login in
// two steps (code or recovery code, each accepted once), the lockout of wrong codes, the
// administrators' requirement (enrol at first sign-in) and an administrator's reset (audited).
// Codes are computed here from the secret the enrolment showed, with the library's TOTP.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THROTTLE_MESSAGE } from '../src/modules/security/security.actions';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';

let t: TestContext;
let admin: string;
let adminRoleId: number;
beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: admin });
  adminRoleId = roles.body.result.find((r: { name: string }) => r.name === 'Administrador').id;
});
afterAll(() => t?.close());

const PASSWORD = 'Segundo-Paso-1';

/** The code of a secret at an instant (now, or the next 30-second step: a code not used yet). */
const totp = (secret: string, at = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });
const nextStep = (n = 1) => Date.now() + n * 30_000;

async function newAdmin(): Promise<{ id: number; username: string; token: string }> {
  const username = uniq('jefa').toLowerCase();
  const res = await api(t.app, 'POST', '/api/users', {
    token: admin,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: 'Jefa de sistemas',
      password: PASSWORD,
      roles: [adminRoleId],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.result.id, username, token: await login(t.app, username, PASSWORD) };
}

/** Enrols from the profile: answers the secret and the recovery codes. */
async function enrol(token: string): Promise<{ secret: string; codes: string[] }> {
  const started = await api(t.app, 'POST', '/api/user/two-factor/enable', { token });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { secret } = started.body.result;
  const confirmed = await api(t.app, 'POST', '/api/user/two-factor/confirm', {
    token,
    body: { code: totp(secret) },
  });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { secret, codes: confirmed.body.result.recovery_codes };
}

const password = (username: string) =>
  api(t.app, 'POST', '/api/auth/login', { body: { username, password: PASSWORD } });
const second = (body: Record<string, unknown>) => api(t.app, 'POST', '/api/auth/two-factor', { body });

describe('enrolment from the profile', () => {
  it('shows a QR code and the secret until a code confirms it, then answers 8 recovery codes', async () => {
    const me = await newAdmin();
    const before = await api(t.app, 'GET', '/api/user/two-factor', { token: me.token });
    expect(before.body.result).toEqual({
      enabled: false,
      confirmed_at: null,
      required: false,
      recovery_codes_left: 0,
    });
    const started = await api(t.app, 'POST', '/api/user/two-factor/enable', { token: me.token });
    expect(started.status).toBe(200);
    const { secret, otpauth_url, qr } = started.body.result;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toContain(`otpauth://totp/`);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(Buffer.from(qr.replace('data:image/svg+xml;base64,', ''), 'base64').toString()).toContain('<svg');

    const wrong = await api(t.app, 'POST', '/api/user/two-factor/confirm', {
      token: me.token,
      body: { code: totp(secret, nextStep(10)) },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.validationErrors[0].field).toBe('code');
    const letters = await api(t.app, 'POST', '/api/user/two-factor/confirm', {
      token: me.token,
      body: { code: 'abc' },
    });
    expect(letters.status).toBe(422);
    expect(letters.body.error.message).toBe('Código debe tener 6 dígitos');

    const ok = await api(t.app, 'POST', '/api/user/two-factor/confirm', {
      token: me.token,
      body: { code: totp(secret) },
    });
    expect(ok.status).toBe(200);
    const codes: string[] = ok.body.result.recovery_codes;
    expect(codes).toHaveLength(8);
    expect(new Set(codes).size).toBe(8);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);

    const after = await api(t.app, 'GET', '/api/user/two-factor', { token: me.token });
    expect(after.body.result).toMatchObject({ enabled: true, recovery_codes_left: 8 });
    // Never shown again: no second enrolment over it, no secret in any answer or audit row.
    const again = await api(t.app, 'POST', '/api/user/two-factor/enable', { token: me.token });
    expect(again.status).toBe(409);
    const row = await api(t.app, 'GET', `/api/users/get/${me.id}`, { token: admin });
    const list = await api(t.app, 'GET', `/api/users?search=${me.username}`, { token: admin });
    const audit = await api(
      t.app,
      'GET',
      `/api/audit-logs?filter[resource]=users&filter[record_id]=${me.id}`,
      {
        token: admin,
      },
    );
    for (const answer of [row, list, audit]) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(secret);
      expect(JSON.stringify(answer.body)).not.toContain('two_factor_secret');
    }
    expect(
      audit.body.result.data.some(
        (a: { action: string; record_id: number }) => a.action === 'two-factor-on' && a.record_id === me.id,
      ),
    ).toBe(true);
  });
});

describe('the login in two steps', () => {
  it('asks for a code after the password; the step token opens no session; a code is accepted once', async () => {
    const me = await newAdmin();
    const { secret } = await enrol(me.token);
    const first = await password(me.username);
    expect(first.status).toBe(200);
    expect(first.body.result.access_token).toBeUndefined();
    expect(first.body.result).toMatchObject({ two_factor: 'code', expire_in_seconds: 300 });
    const stepToken = first.body.result.two_factor_token;
    const asSession = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token: stepToken });
    expect(asSession.status).toBe(401);

    const code = totp(secret, nextStep());
    const done = await second({ two_factor_token: stepToken, code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const info = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', {
      token: done.body.result.access_token,
    });
    expect(info.body.result.user.username).toBe(me.username);
    // The same code again (a second login within its 30 seconds) is refused.
    const replay = await second({
      two_factor_token: (await password(me.username)).body.result.two_factor_token,
      code,
    });
    expect(replay.status).toBe(422);
    expect(replay.body.error.validationErrors[0].field).toBe('code');
    // A forged or expired step token.
    const forged = await second({ two_factor_token: `${stepToken}x`, code: totp(secret, nextStep()) });
    expect(forged.status).toBe(401);
  });

  it('takes a recovery code once', async () => {
    const me = await newAdmin();
    const { codes } = await enrol(me.token);
    const step = (await password(me.username)).body.result.two_factor_token;
    const used = await second({ two_factor_token: step, recovery_code: codes[0].toLowerCase() });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    expect(used.body.result.access_token).toBeTruthy();
    const again = await second({
      two_factor_token: (await password(me.username)).body.result.two_factor_token,
      recovery_code: codes[0],
    });
    expect(again.status).toBe(422);
    expect(again.body.error.message).toBe('El código de recuperación no es válido o ya fue usado');
    const status = await api(t.app, 'GET', '/api/user/two-factor', { token: used.body.result.access_token });
    expect(status.body.result.recovery_codes_left).toBe(7);
  });

  it('locks the account after 5 wrong codes: the right code and the password are refused too', async () => {
    const me = await newAdmin();
    const { secret } = await enrol(me.token);
    const step = (await password(me.username)).body.result.two_factor_token;
    const right = totp(secret, nextStep());
    const wrong = right === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++)
      expect((await second({ two_factor_token: step, code: wrong })).status).toBe(422);
    const locked = await second({ two_factor_token: step, code: right });
    expect(locked.status).toBe(429);
    expect(locked.body.error.message).toBe(THROTTLE_MESSAGE);
    const byPassword = await password(me.username);
    expect(byPassword.status).toBe(429);
  });

  it('a right password does not reset the count of wrong codes', async () => {
    const me = await newAdmin();
    await enrol(me.token);
    for (let i = 0; i < 5; i++) {
      const step = (await password(me.username)).body.result.two_factor_token;
      expect(step, `login ${i}`).toBeTruthy();
      expect((await second({ two_factor_token: step, code: '000001' })).status).toBe(422);
    }
    expect((await password(me.username)).status).toBe(429);
  });
});

describe('required for administrators (TWO_FACTOR_REQUIRED)', () => {
  it('asks an administrator without a second factor to enrol at sign-in; not a dealer user', async () => {
    const me = await newAdmin();
    const dealer = await createDealerUser(t.app, admin);
    const on = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: { TWO_FACTOR_REQUIRED: 'true' },
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    try {
      const first = await password(me.username);
      expect(first.body.result).toMatchObject({ two_factor: 'setup' });
      const token = first.body.result.two_factor_token;
      // A 'setup' token cannot skip the enrolment.
      expect((await second({ two_factor_token: token, recovery_code: 'AAAA-AAAA-AAAA-AAAA' })).status).toBe(
        422,
      );
      const setup = await api(t.app, 'POST', '/api/auth/two-factor/setup', {
        body: { two_factor_token: token },
      });
      expect(setup.status).toBe(200);
      const done = await second({ two_factor_token: token, code: totp(setup.body.result.secret) });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.result.access_token).toBeTruthy();
      expect(done.body.result.recovery_codes).toHaveLength(8);
      const session = done.body.result.access_token;
      const status = await api(t.app, 'GET', '/api/user/two-factor', { token: session });
      expect(status.body.result).toMatchObject({ enabled: true, required: true });
      // Required: it cannot be turned off by its owner.
      const off = await api(t.app, 'POST', '/api/user/two-factor/disable', {
        token: session,
        body: { code: totp(setup.body.result.secret, nextStep()) },
      });
      expect(off.status).toBe(409);
      // A dealer user is not an administrator: the password is enough.
      const plain = await api(t.app, 'POST', '/api/auth/login', {
        body: { username: dealer.username, password: 'Dealer-Pass-1' },
      });
      expect(plain.body.result.access_token).toBeTruthy();
    } finally {
      await api(t.app, 'PUT', '/api/configurations/save', {
        token: admin,
        body: { TWO_FACTOR_REQUIRED: 'false' },
      });
    }
  });
});

describe("an administrator's reset", () => {
  it('removes a user second factor (audited); a dealer user may not', async () => {
    const me = await newAdmin();
    await enrol(me.token);
    const dealer = await createDealerUser(t.app, admin);
    const refused = await api(t.app, 'POST', `/api/users/${me.id}/two-factor/reset`, { token: dealer.token });
    expect(refused.status).toBe(403);
    expect((await password(me.username)).body.result.two_factor).toBe('code');

    const done = await api(t.app, 'POST', `/api/users/${me.id}/two-factor/reset`, { token: admin });
    expect(done.status).toBe(200);
    const plain = await password(me.username);
    expect(plain.body.result.access_token).toBeTruthy();
    const audit = await api(
      t.app,
      'GET',
      `/api/audit-logs?filter[record_id]=${me.id}&filter[resource]=users`,
      {
        token: admin,
      },
    );
    const row = audit.body.result.data.find(
      (a: { action: string; record_id: number }) => a.action === 'two-factor-reset' && a.record_id === me.id,
    );
    expect(row).toMatchObject({ resource: 'users', username: 'admin' });
    expect(row.after).toEqual({ two_factor: false });
    const missing = await api(t.app, 'POST', '/api/users/999999/two-factor/reset', { token: admin });
    expect(missing.status).toBe(404);
  });
});
