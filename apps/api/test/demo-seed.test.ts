// The demo network: what it adds, that a second run changes nothing, and that its users work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEMO_PASSWORD, describeDemo, seedDemo } from '../src/seed/demo';
import { api, createTestApp, login, type TestContext } from './harness';

const TABLES = [
  'zones',
  'companies',
  'dealers',
  'dealer_branches',
  'employees',
  'dealer_contacts',
  'manufacturer_models',
  'sales',
  'dispatches',
  'dispatch_objectives',
  'daily_sales',
  'users',
  'user_roles',
];

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function snapshot() {
  const out: Record<string, string> = {};
  for (const table of TABLES) {
    const [row] = await t.handle.query<{ n: number; h: string | null }>(
      `select count(*)::int as n, md5(string_agg(x::text, '|' order by x::text)) as h from ${table} x`,
    );
    out[table] = `${row.n}:${row.h}`;
  }
  return out;
}

describe('demo network', () => {
  it('adds 3 zones, at least 12 dealers across several departments, and a user per dealer', async () => {
    const result = await seedDemo(t.handle);
    expect(result.created.zones).toBe(3);
    expect(result.created.dealers).toBeGreaterThanOrEqual(12);
    expect(result.created.branches).toBeGreaterThanOrEqual(result.created.dealers);
    expect(result.created.employees).toBeGreaterThan(0);
    expect(result.created.contacts).toBeGreaterThan(0);
    expect(result.created.users).toBe(result.created.dealers + 1);
    const [{ n }] = await t.handle.query<{ n: number }>(
      'select count(distinct department_id)::int as n from dealers where department_id is not null',
    );
    expect(n).toBeGreaterThanOrEqual(5);
    const lines = describeDemo(result);
    expect(lines.join('\n')).toContain(`gerente.red  ${DEFAULT_DEMO_PASSWORD}  Administrador`);
    expect(result.logins).toHaveLength(result.created.dealers + 1);
  });

  it('changes nothing when run again, and keeps a password a user changed', async () => {
    const token = await login(t.app, 'lim01', DEFAULT_DEMO_PASSWORD);
    const me = await api(t.app, 'GET', '/api/auth/getCurrentLoginInformations', { token });
    const changed = await api(t.app, 'PUT', `/api/user/${me.body.result.user.id}`, {
      token,
      body: { password: 'Cambiada-123', current_password: DEFAULT_DEMO_PASSWORD },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const before = await snapshot();
    const again = await seedDemo(t.handle);
    expect(Object.values(again.created).every((n) => n === 0)).toBe(true);
    expect(describeDemo(again)[0]).toBe('Datos de demostracion: ya estaban cargados, no se cambio nada.');
    expect(await snapshot()).toEqual(before);
    await expect(login(t.app, 'lim01', 'Cambiada-123')).resolves.toBeTruthy();
  });

  it('gives each dealer user its own dealer only, and the administrator everything', async () => {
    const dealer = await login(t.app, 'tru01', DEFAULT_DEMO_PASSWORD);
    // The dealer selector's list (perPage=-1): only its own dealer.
    const own = await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: dealer });
    expect(own.body.result.map((d: { code: string }) => d.code)).toEqual(['TRU01']);
    const branches = await api(t.app, 'GET', '/api/dealer-branches?perPage=50', { token: dealer });
    expect(branches.body.result.data.length).toBeGreaterThan(0);
    for (const b of branches.body.result.data) expect(b.dealer_name).toBe(own.body.result[0].name);
    const manager = await login(t.app, 'gerente.red', DEFAULT_DEMO_PASSWORD);
    const all = await api(t.app, 'GET', '/api/dealers?perPage=50', { token: manager });
    expect(all.body.result.total).toBeGreaterThanOrEqual(12);
  });
});
