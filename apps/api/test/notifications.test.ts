// The notifications centre (issue 29): what needs a user is written once (agreements due in 7
// days or overdue, a month enabled, a document published, a job that ended), in the event's
// transaction or by the daily sweep that one server claims; each user sees its own side's and,
// a dealer user, only its dealer's; unread counts, filters, mark read (one, all), audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../src/modules/documents/documents.samples';
import { notifyJobFinished } from '../src/modules/notifications';
import { sweepNotifications } from '../src/modules/notifications/notifications.service';
import { api, createDealerUser, createTestApp, login, type TestContext, testDay, uniq } from './harness';
import { multipart } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createDealerUser>>;
let b: Awaited<ReturnType<typeof createDealerUser>>;
let zoneId: number;

interface Item {
  id: number;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  dealer_id: number | null;
  read_at: string | null;
}
const list = async (token: string, q = '') => {
  const r = await api(t.app, 'GET', `/api/notifications?perPage=100${q}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as { data: Item[]; total: number; unread: number };
};
const titles = async (token: string, q = '') => (await list(token, q)).data.map((n) => n.title);

async function agreement(dealerId: number, title: string, due: string) {
  const r = await api(t.app, 'POST', '/api/agreements', {
    token: admin,
    body: { zone_id: zoneId, dealer_id: dealerId, title, level: 'high', due_date: due },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result.id as number;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  zoneId = (await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: uniq('Zona ') } })).body
    .result.id;
  a = await createDealerUser(t.app, admin, uniq('NTA'));
  b = await createDealerUser(t.app, admin, uniq('NTB'));
  for (const d of [a, b])
    await api(t.app, 'PUT', `/api/dealers/${d.dealerId}`, { token: admin, body: { zone_id: zoneId } });
});
afterAll(() => t?.close());

describe('agreements due or overdue', () => {
  it('an agreement saved due within 7 days is told at once, to its dealer and the staff only', async () => {
    await agreement(a.dealerId, 'Capacitar asesores de A', testDay(3));
    await agreement(b.dealerId, 'Pintar el local de B', testDay(20)); // not yet: 20 days away
    expect(await titles(a.token)).toContain('Acuerdo por vencer: Capacitar asesores de A');
    expect(await titles(admin)).toContain('Acuerdo por vencer: Capacitar asesores de A');
    expect(await titles(b.token)).not.toContain('Acuerdo por vencer: Capacitar asesores de A');
    expect((await titles(admin)).some((x) => x.includes('Pintar el local'))).toBe(false);
  });

  it('the daily sweep tells what became due or overdue, once even when two servers sweep the same day', async () => {
    const id = await agreement(b.dealerId, 'Renovar letreros de B', testDay(6));
    // It was due in 6 days when saved; nine days later it is overdue.
    const later = testDay(9);
    const [one, two] = await Promise.all([
      sweepNotifications(t.handle.db, later),
      sweepNotifications(t.handle.db, later),
    ]);
    expect([one, two].sort()).toEqual([false, true]);
    expect(await sweepNotifications(t.handle.db, later)).toBe(false);
    const bItems = (await list(b.token)).data.filter((n) => n.title.includes('Renovar letreros de B'));
    expect(bItems.map((n) => n.kind).sort()).toEqual(['agreement_due', 'agreement_overdue']);
    expect(bItems.find((n) => n.kind === 'agreement_overdue')?.body).toContain('venció el');
    const [{ n }] = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from notifications where key like $1`,
      [`agreement_overdue:${id}:%`],
    );
    expect(n).toBe(1);
    // A done agreement is not told.
    const done = await agreement(b.dealerId, 'Ya cumplido', testDay(1));
    await api(t.app, 'PUT', `/api/agreements/${done}`, { token: admin, body: { status: 'done' } });
    await sweepNotifications(t.handle.db, testDay(10));
    expect((await titles(b.token)).filter((x) => x.includes('Ya cumplido'))).toEqual([
      'Acuerdo por vencer: Ya cumplido',
    ]);
    expect(await titles(a.token)).not.toContain('Acuerdo vencido: Renovar letreros de B');
  });
});

describe('events', () => {
  it('a month enabled is told to the dealer users of that dealer (not to the other dealer, not to the staff)', async () => {
    const year = Number(testDay(0).slice(0, 4)) - 1;
    const r = await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year, month: 4, dealer_ids: [a.dealerId] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await titles(a.token, '&kind=figures_pending')).toEqual([`Cifras por confirmar: 04/${year}`]);
    expect(await titles(b.token, '&kind=figures_pending')).toEqual([]);
    expect(await titles(admin, '&kind=figures_pending')).toEqual([]);
  });

  it('a document published today to chosen dealers is told to their users only', async () => {
    const mp = multipart(samplePdf('Circular', ['Línea']), 'circular.pdf');
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/documents/upload',
      headers: { ...mp.headers, authorization: `Bearer ${admin}` },
      payload: mp.payload,
    });
    expect(up.statusCode).toBe(200);
    const cats = await api(t.app, 'POST', '/api/categories', { token: admin, body: { name: uniq('Cat ') } });
    const doc = await api(t.app, 'POST', '/api/documents', {
      token: admin,
      body: {
        title: 'Lista de precios diciembre',
        category_id: cats.body.result.id,
        published_at: testDay(0),
        all_dealers: false,
        dealer_ids: [a.dealerId],
        file_ids: [up.json().result.id],
      },
    });
    expect(doc.status, JSON.stringify(doc.body)).toBe(200);
    expect(await titles(a.token, '&kind=document')).toEqual([
      'Documento publicado: Lista de precios diciembre',
    ]);
    expect(await titles(b.token, '&kind=document')).toEqual([]);
  });

  it('a finished job is told to the user who started it, and only to that user', async () => {
    await notifyJobFinished(t.handle.db, {
      jobId: 'imp-1',
      userId: a.userId,
      type: 'import',
      name: 'Ventas (CEM)',
      ok: true,
      detail: '120 filas cargadas',
    });
    await notifyJobFinished(t.handle.db, {
      jobId: 'imp-1',
      userId: a.userId,
      type: 'import',
      name: 'Ventas (CEM)',
      ok: true,
    });
    expect(await titles(a.token, '&kind=job')).toEqual(['La importación de Ventas (CEM) terminó']);
    expect(await titles(admin, '&kind=job')).toEqual([]);
    expect(await titles(b.token, '&kind=job')).toEqual([]);
  });
});

describe('reading', () => {
  it('unread counts, mark one read (audited), the read and unread filters, mark all; another user’s is not found', async () => {
    const before = await list(a.token);
    expect(before.unread).toBe(before.total);
    expect(before.total).toBeGreaterThanOrEqual(4);
    const count = await api(t.app, 'GET', '/api/notifications/unread-count', { token: a.token });
    expect(count.body.result).toEqual({ unread: before.unread });
    const first = before.data[0];
    const read = await api(t.app, 'POST', `/api/notifications/${first.id}/read`, { token: a.token });
    expect(read.status).toBe(200);
    expect(read.body.result.unread).toBe(before.unread - 1);
    const audit = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from audit_logs where resource = 'notifications' and action = 'read' and record_id = $1 and user_id = $2`,
      [first.id, a.userId],
    );
    expect(audit[0].n).toBe(1);
    expect((await list(a.token, '&status=read')).data.map((n) => n.id)).toEqual([first.id]);
    expect((await list(a.token, '&status=unread')).data.map((n) => n.id)).not.toContain(first.id);
    // Read marks are per user: the administrator still has it unread.
    const shared = (await list(admin)).data.find((n) => n.id === first.id);
    if (shared) expect(shared.read_at).toBeNull();
    // Dealer B cannot mark dealer A's notification: 404, nothing written.
    const foreign = await api(t.app, 'POST', `/api/notifications/${first.id}/read`, { token: b.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toBe('La notificación no existe o no es suya');
    const all = await api(t.app, 'POST', '/api/notifications/read-all', { token: a.token, body: {} });
    expect(all.status).toBe(200);
    expect(all.body.result).toEqual({ marked: before.unread - 1, unread: 0 });
    expect((await list(a.token)).unread).toBe(0);
    expect((await list(b.token)).unread).toBeGreaterThan(0);
  });

  it('a wrong filter is a 422 in Spanish', async () => {
    const r = await api(t.app, 'GET', '/api/notifications?kind=nada', { token: a.token });
    expect(r.status).toBe(422);
    expect(r.body.error.validationErrors[0]).toEqual({ field: 'kind', message: 'Tipo no es válido' });
    expect((await api(t.app, 'GET', '/api/notifications')).status).toBe(401);
  });
});
