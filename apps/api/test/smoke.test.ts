import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('smoke', () => {
  it('logs in and lists zones', async () => {
    const token = await login(t.app);
    const res = await api(t.app, 'GET', '/api/departments?perPage=5', { token });
    expect(res.status).toBe(200);
    expect(res.body.result.total).toBe(25);
    const d = await api(t.app, 'GET', '/api/dealers', { token });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
  });
});
