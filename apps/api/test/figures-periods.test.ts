// Figures: the period state machine (enable, confirm, reopen) allowed and refused by role and by
// state, the grid calls' dealer scope, all-or-nothing batches, the manufacturer's per-concept load,
// the dealers' state for a month and the reminder mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limaMonth, limaYear } from '../src/core/lima';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let concepts: { id: number; code: string }[];
const Y = 2025;

const cid = (code: string) => concepts.find((c) => c.code === code)!.id;
const enable = (body: object, token = admin) => api(t.app, 'POST', '/api/figures/enable', { token, body });
const batch = (token: string, body: object) => api(t.app, 'PUT', '/api/figure-batch', { token, body });

async function valuesOf(dealerId: number, month: number): Promise<Record<string, number>> {
  const rows = await t.handle.query<{ code: string; value: string }>(
    `select c.code, f.value from figures f join concepts c on c.id = f.concept_id
     where f.dealer_id = $1 and f.year = $2 and f.month = $3`,
    [dealerId, Y, month],
  );
  return Object.fromEntries(rows.map((r) => [r.code, Number(r.value)]));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  const res = await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin });
  concepts = res.body.result;
  expect(concepts.length).toBeGreaterThanOrEqual(15);
});
afterAll(() => t?.close());

describe('period transitions', () => {
  it('the manufacturer enables one dealer; again is a 409; a dealer user may not enable', async () => {
    const ok = await enable({ year: Y, month: 3, dealer_ids: [a.dealerId] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result).toEqual({ enabled: 1, skipped: [] });
    const again = await enable({ year: Y, month: 3, dealer_ids: [a.dealerId] });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/^El periodo Marzo 2025 de .+ ya está habilitado$/);
    const byDealer = await enable({ year: Y, month: 3, dealer_ids: [a.dealerId] }, a.token);
    expect(byDealer.status).toBe(403);
    // Next month in Lima has not begun (at 22:00 on 31 December in Lima, January of next year).
    const next =
      limaMonth() === 12 ? { year: limaYear() + 1, month: 1 } : { year: limaYear(), month: limaMonth() + 1 };
    const future = await enable({ ...next, all: true });
    expect(future.status).toBe(422);
    expect(future.body.error.validationErrors[0]).toEqual({
      field: 'month',
      message: 'No se puede habilitar un mes que aún no empieza',
    });
    const none = await enable({ year: Y, month: 3 });
    expect(none.status).toBe(422);
    expect(none.body.error.validationErrors[0].message).toBe('Elija los concesionarios o marque todos');
  });

  it('a dealer saves its grid only in the enabled month, all cells or none', async () => {
    const ok = await batch(a.token, {
      year: Y,
      values: [
        { concept_id: cid('VN_UND'), month: 3, value: 41 },
        { concept_id: cid('CSI_VTA'), month: 3, value: 87.5 },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await valuesOf(a.dealerId, 3)).toEqual({ VN_UND: 41, CSI_VTA: 87.5 });
    // One cell in April (closed) refuses the whole batch: March keeps its value.
    const mixed = await batch(a.token, {
      year: Y,
      values: [
        { concept_id: cid('VN_UND'), month: 3, value: 99 },
        { concept_id: cid('VN_UND'), month: 4, value: 12 },
      ],
    });
    expect(mixed.status).toBe(409);
    expect(mixed.body.error.message).toMatch(/^El periodo Abril 2025 de .+ no está habilitado/);
    expect(await valuesOf(a.dealerId, 3)).toEqual({ VN_UND: 41, CSI_VTA: 87.5 });
    expect(await valuesOf(a.dealerId, 4)).toEqual({});
    // An empty cell (null) removes the value.
    const cleared = await batch(a.token, {
      year: Y,
      values: [{ concept_id: cid('CSI_VTA'), month: 3, value: null }],
    });
    expect(cleared.status).toBe(200);
    expect(await valuesOf(a.dealerId, 3)).toEqual({ VN_UND: 41 });
    const bad = await batch(a.token, {
      year: Y,
      values: [{ concept_id: cid('VN_UND'), month: 13, value: 'x' }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors.map((v: { field: string }) => v.field)).toEqual([
      'values.0.month',
      'values.0.value',
    ]);
  });

  it('a dealer user reads and writes only its own dealer', async () => {
    await enable({ year: Y, month: 3, dealer_ids: [b.dealerId] });
    await batch(admin, {
      year: Y,
      dealer_id: b.dealerId,
      values: [{ concept_id: cid('VN_UND'), month: 3, value: 7 }],
    });
    const other = await batch(a.token, {
      year: Y,
      values: [{ dealer_id: b.dealerId, concept_id: cid('VN_UND'), month: 3, value: 1000 }],
    });
    expect(other.status).toBe(404);
    expect(await valuesOf(b.dealerId, 3)).toEqual({ VN_UND: 7 });
    const read = await api(t.app, 'GET', `/api/figures?year=${Y}&month=3&dealer_id=${b.dealerId}`, {
      token: a.token,
    });
    expect(read.status).toBe(404);
    const own = await api(t.app, 'GET', `/api/figures?year=${Y}&month=3`, { token: a.token });
    expect(own.status).toBe(200);
    expect(own.body.result.figures.dealers.map((d: { id: number }) => d.id)).toEqual([a.dealerId]);
    expect(own.body.result.figures.values).toEqual([
      { dealer_id: a.dealerId, concept_id: cid('VN_UND'), month: 3, value: 41 },
    ]);
    expect(own.body.result.figures.periods).toMatchObject([
      { dealer_id: a.dealerId, month: 3, status: 'enabled' },
    ]);
    expect(own.body.result.list[0]).toMatchObject({ code: 'VN_UND', unit: 'UND', higher_is_better: true });
    // The manufacturer sees both dealers' months, all twelve without month.
    const all = await api(t.app, 'GET', `/api/figures?year=${Y}`, { token: admin });
    const ids = new Set(all.body.result.figures.dealers.map((d: { id: number }) => d.id));
    expect(ids.has(a.dealerId) && ids.has(b.dealerId)).toBe(true);
    expect(
      all.body.result.figures.periods.filter((p: { dealer_id: number }) => p.dealer_id === a.dealerId),
    ).toHaveLength(12);
  });

  it('the dealer confirms: values locked, a second confirm and a closed month are 409', async () => {
    const confirm = await api(t.app, 'POST', '/api/figures/confirm', {
      token: a.token,
      body: { year: Y, month: 3 },
    });
    expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
    expect(confirm.body.result.status).toBe('confirmed');
    const twice = await api(t.app, 'POST', '/api/figures/confirm', {
      token: a.token,
      body: { year: Y, month: 3 },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toMatch(/ya está confirmado$/);
    const closed = await api(t.app, 'POST', '/api/figures/confirm', {
      token: a.token,
      body: { year: Y, month: 5 },
    });
    expect(closed.status).toBe(409);
    expect(closed.body.error.message).toMatch(/^El periodo Mayo 2025 de .+ no está habilitado/);
    const locked = await batch(a.token, {
      year: Y,
      values: [{ concept_id: cid('VN_UND'), month: 3, value: 50 }],
    });
    expect(locked.status).toBe(409);
    expect(locked.body.error.message).toMatch(/ya está confirmado: sus cifras no se pueden modificar/);
    expect(await valuesOf(a.dealerId, 3)).toEqual({ VN_UND: 41 });
    // Even the manufacturer's grid cannot change a confirmed month.
    const byAdmin = await batch(admin, {
      year: Y,
      dealer_id: a.dealerId,
      values: [{ concept_id: cid('VN_UND'), month: 3, value: 50 }],
    });
    expect(byAdmin.status).toBe(409);
    // A manufacturer confirming must name the dealer.
    const noDealer = await api(t.app, 'POST', '/api/figures/confirm', {
      token: admin,
      body: { year: Y, month: 3 },
    });
    expect(noDealer.status).toBe(422);
  });

  it('the manufacturer reopens with a reason; a dealer may not; reopening an open month is 409', async () => {
    const list = await api(
      t.app,
      'GET',
      `/api/figure-periods?filter[dealer_id]=${a.dealerId}&filter[month]=3`,
      {
        token: admin,
      },
    );
    const period = list.body.result.data[0];
    expect(period).toMatchObject({ status: 'confirmed', year: Y, month: 3 });
    expect(period.confirmed_by_name).toMatch(/^Usuario /);
    const url = `/api/figure-periods/${period.id}/reopen`;
    expect((await api(t.app, 'POST', url, { token: a.token, body: { reason: 'x' } })).status).toBe(403);
    const noReason = await api(t.app, 'POST', url, { token: admin, body: {} });
    expect(noReason.status).toBe(422);
    expect(noReason.body.error.validationErrors).toEqual([
      { field: 'reason', message: 'Motivo es obligatorio' },
    ]);
    const ok = await api(t.app, 'POST', url, { token: admin, body: { reason: 'Corregir ventas a flotas' } });
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({
      status: 'enabled',
      reopen_reason: 'Corregir ventas a flotas',
      confirmed_at: null,
    });
    const again = await api(t.app, 'POST', url, { token: admin, body: { reason: 'otra vez' } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/no está confirmado: no hay nada que reabrir$/);
    // Dealer B's user cannot even see the period of A.
    expect((await api(t.app, 'GET', `/api/figure-periods/get/${period.id}`, { token: b.token })).status).toBe(
      404,
    );
    // Open again: the dealer corrects and confirms.
    expect(
      (await batch(a.token, { year: Y, values: [{ concept_id: cid('VN_FLOTA'), month: 3, value: 5 }] }))
        .status,
    ).toBe(200);
  });

  it('audits every transition with who and when', async () => {
    const res = await api(t.app, 'GET', '/api/audit-logs?perPage=50&filter[resource]=figure-periods', {
      token: admin,
    });
    const rows = res.body.result.data as { action: string; username: string; at: string }[];
    const actions = rows.map((r) => `${r.action}:${r.username}`);
    expect(actions).toContain('enable:admin');
    expect(actions).toContain('reopen:admin');
    expect(actions.some((x) => x.startsWith('confirm:u'))).toBe(true);
    for (const r of rows) expect(r.at).toBeTruthy();
  });

  it('enabling all opens the closed months and reports the others unchanged', async () => {
    const res = await enable({ year: Y, month: 3, all: true });
    expect(res.status).toBe(200);
    const skipped = res.body.result.skipped.map((s: { dealer_id: number; status: string }) => [
      s.dealer_id,
      s.status,
    ]);
    expect(skipped).toContainEqual([a.dealerId, 'enabled']);
    expect(skipped).toContainEqual([b.dealerId, 'enabled']);
  });
});

describe('one concept across dealers (manufacturer)', () => {
  it('loads a concept in closed and enabled months, refuses a confirmed one, and is refused to dealers', async () => {
    await api(t.app, 'POST', '/api/figures/confirm', { token: b.token, body: { year: Y, month: 3 } });
    const body = (month: number) => ({
      year: Y,
      month,
      concept_id: cid('CSI_PV'),
      values: [
        { dealer_id: a.dealerId, value: 83.4 },
        { dealer_id: b.dealerId, value: 79.9 },
      ],
    });
    const ok = await api(t.app, 'PUT', '/api/figure-concept', { token: admin, body: body(6) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await valuesOf(a.dealerId, 6)).CSI_PV).toBe(83.4);
    expect((await valuesOf(b.dealerId, 6)).CSI_PV).toBe(79.9);
    const confirmed = await api(t.app, 'PUT', '/api/figure-concept', { token: admin, body: body(3) });
    expect(confirmed.status).toBe(409);
    expect((await valuesOf(a.dealerId, 3)).CSI_PV).toBeUndefined();
    expect((await api(t.app, 'PUT', '/api/figure-concept', { token: a.token, body: body(6) })).status).toBe(
      403,
    );
  });
});

describe('dealers of a month and the reminder', () => {
  it('lists each dealer with its state and filled concepts; a dealer sees itself only', async () => {
    const res = await api(t.app, 'GET', `/api/figure-dealers?year=${Y}&month=3`, { token: admin });
    expect(res.status).toBe(200);
    const rowA = res.body.result.find((r: { dealer_id: number }) => r.dealer_id === a.dealerId);
    const rowB = res.body.result.find((r: { dealer_id: number }) => r.dealer_id === b.dealerId);
    expect(rowA).toMatchObject({ status: 'enabled', filled: 2, concepts: concepts.length });
    expect(rowB).toMatchObject({ status: 'confirmed', filled: 1 });
    const mine = await api(t.app, 'GET', `/api/figure-dealers?year=${Y}&month=3`, { token: a.token });
    expect(mine.body.result.map((r: { dealer_id: number }) => r.dealer_id)).toEqual([a.dealerId]);
    const noMonth = await api(t.app, 'GET', `/api/figure-dealers?year=${Y}`, { token: admin });
    expect(noMonth.status).toBe(422);
  });

  it('mails the users of the dealers still to confirm, through the outbox', async () => {
    const res = await api(t.app, 'POST', '/api/figure-dealers/remind', {
      token: admin,
      body: { year: Y, month: 3, dealer_ids: [a.dealerId, b.dealerId] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({ reminded: 1, mails: 1, without_recipients: [], not_late: 1 });
    const mails = await t.handle.query<{ to: string; subject: string; text: string }>(
      `select "to", subject, text from mail_outbox where subject like 'Recordatorio: cifras%'`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Recordatorio: cifras de Marzo 2025 pendientes de confirmar');
    expect(mails[0].text).toContain('/main/figure');
    const states = await api(t.app, 'GET', `/api/figure-dealers?year=${Y}&month=3`, { token: admin });
    expect(
      states.body.result.find((r: { dealer_id: number }) => r.dealer_id === a.dealerId).reminded_at,
    ).toBeTruthy();
    expect(
      (
        await api(t.app, 'POST', '/api/figure-dealers/remind', {
          token: a.token,
          body: { year: Y, month: 3 },
        })
      ).status,
    ).toBe(403);
  });
});
