// Seguimiento: an agreement's defaults, levels and statuses, the history (created, comments,
// status changes, notices: who and when), the dealer scope (another dealer's agreement is not
// found on every call), the notice to the dealer's contacts (outbox without SMTP, delivered by a
// real SMTP peer with it), overdue age, the list filters and the export with the same filters.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveScope } from '../src/core/scope';
import { agreementsByAge } from '../src/modules/agreements/agreements.summary';
import {
  api,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
  testDay,
  testToday,
  uniq,
} from './harness';
import { setSetting } from './sales-fixtures';
import { type SmtpStub, startSmtpStub } from './smtp-stub';

let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createDealerUser>>;
let b: Awaited<ReturnType<typeof createDealerUser>>;
let zoneNorte: number;
let smtp: SmtpStub;
let smtpUrl: string;
let received: SmtpStub['received'];

// Dates on the suite's clock (Lima's day, pinned: see harness testClockInstant).
const day = testDay;
const today = testToday;
/** Days from `date` to today, computed here independently of the server. */
const daysSince = (date: string) => Math.round((Date.parse(today()) - Date.parse(date)) / 86_400_000);

async function agreement(body: Record<string, unknown>, token = admin) {
  const r = await api(t.app, 'POST', '/api/agreements', { token, body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.result as Record<string, any>;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  // Zone 1 and dealer 1 of SPEC §3 (the defaults of a new agreement).
  await t.handle.query("insert into zones (id, name) values (1, 'Zona Uno') on conflict do nothing");
  await t.handle.query(
    "insert into dealers (id, code, name, zone_id) values (1, 'UNO', 'Concesionario Uno', 1) on conflict do nothing",
  );
  await t.handle.query("select setval('zones_id_seq', greatest((select max(id) from zones), 1))");
  await t.handle.query("select setval('dealers_id_seq', greatest((select max(id) from dealers), 1))");
  zoneNorte = (await api(t.app, 'POST', '/api/zones', { token: admin, body: { name: uniq('Zona Norte ') } }))
    .body.result.id;
  a = await createDealerUser(t.app, admin, uniq('AGA'));
  b = await createDealerUser(t.app, admin, uniq('AGB'));
  await api(t.app, 'PUT', `/api/dealers/${b.dealerId}`, { token: admin, body: { zone_id: zoneNorte } });
  // Dealer A's contacts: two with an email, one without, one inactive.
  for (const c of [
    { name: 'Ana Gerente', email: 'ana.gerente@a.example.com' },
    { name: 'Bruno Postventa', email: 'bruno.pv@a.example.com' },
    { name: 'Carlos Sin Correo' },
    { name: 'Diana Inactiva', email: 'diana@a.example.com', active: false },
  ])
    expect(
      (
        await api(t.app, 'POST', '/api/dealer-contacts', {
          token: admin,
          body: { dealer_id: a.dealerId, ...c },
        })
      ).status,
    ).toBe(200);
  smtp = await startSmtpStub();
  smtpUrl = smtp.url;
  received = smtp.received;
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});

describe('levels, statuses and defaults', () => {
  it('answers the levels and the four statuses to any signed-in user', async () => {
    const levels = await api(t.app, 'GET', '/api/agreements-levels', { token: a.token });
    expect(levels.body.result.map((l: { id: string }) => l.id)).toEqual(['high', 'medium', 'low']);
    const statuses = await api(t.app, 'GET', '/api/agreements-statuses', { token: a.token });
    expect(statuses.body.result).toEqual([
      { id: 'pending', name: 'Pendiente' },
      { id: 'in_progress', name: 'En proceso' },
      { id: 'done', name: 'Cumplido' },
      { id: 'cancelled', name: 'Anulado' },
    ]);
  });

  it('a new agreement defaults to zone 1 and dealer 1, status pending, and its history starts', async () => {
    const r = await agreement({ title: 'Mejorar tiempos de entrega', level: 'high', due_date: day(10) });
    expect(r).toMatchObject({ zone_id: 1, dealer_id: 1, status: 'pending', zone_name: 'Zona Uno' });
    const h = await api(t.app, 'GET', `/api/agreements/${r.id}/history`, { token: admin });
    expect(h.body.result).toHaveLength(1);
    expect(h.body.result[0]).toMatchObject({ kind: 'created', to_status: 'pending' });
    expect(h.body.result[0].user_name).toBeTruthy();
  });

  it('names the missing and wrong fields in Spanish', async () => {
    const r = await api(t.app, 'POST', '/api/agreements', {
      token: admin,
      body: { dealer_id: a.dealerId, level: 'urgente', due_date: '2026-13-45' },
    });
    expect(r.status).toBe(422);
    const msgs = Object.fromEntries(r.body.error.validationErrors.map((e: any) => [e.field, e.message]));
    expect(msgs.title).toBe('Título es obligatorio');
    expect(msgs.level).toBe('Nivel no es válido');
    expect(msgs.due_date).toBe('Fecha límite no es una fecha válida');
  });

  it("files an agreement under its dealer's zone whatever zone is sent, and the zone follows a change of dealer", async () => {
    const r = await agreement({
      zone_id: 1,
      dealer_id: b.dealerId,
      title: 'Zona del concesionario',
      level: 'low',
      due_date: day(30),
    });
    expect(r).toMatchObject({ zone_id: zoneNorte, dealer_id: b.dealerId });
    const get = async () =>
      (await api(t.app, 'GET', `/api/agreements/get/${r.id}`, { token: admin })).body.result;
    const put = async (body: Record<string, unknown>) => {
      const res = await api(t.app, 'PUT', `/api/agreements/${r.id}`, { token: admin, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await put({ zone_id: 1 });
    expect((await get()).zone_id).toBe(zoneNorte);
    await put({ dealer_id: 1 });
    expect(await get()).toMatchObject({ dealer_id: 1, zone_id: 1, zone_name: 'Zona Uno' });
    await put({ dealer_id: b.dealerId, zone_id: 1 });
    expect((await get()).zone_id).toBe(zoneNorte);
    const listed = await api(t.app, 'GET', `/api/agreements?perPage=100&filter[zone_id]=${zoneNorte}`, {
      token: admin,
    });
    expect(listed.body.result.data.map((x: { id: number }) => x.id)).toContain(r.id);
    await api(t.app, 'DELETE', `/api/agreements/${r.id}`, { token: admin });
  });

  it('takes the zone of the dealer when only the dealer is given, and refuses a contact of another dealer', async () => {
    const r = await agreement({
      dealer_id: b.dealerId,
      title: 'Capacitar asesores',
      level: 'low',
      due_date: day(30),
    });
    expect(r.zone_id).toBe(zoneNorte);
    const [contactA] = await t.handle.query<{ id: number }>(
      'select id from dealer_contacts where dealer_id = $1 limit 1',
      [a.dealerId],
    );
    const bad = await api(t.app, 'POST', '/api/agreements', {
      token: admin,
      body: {
        dealer_id: b.dealerId,
        title: 'X',
        level: 'low',
        due_date: day(3),
        dealer_contact_id: contactA.id,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors).toContainEqual({
      field: 'dealer_contact_id',
      message: 'El contacto no pertenece al concesionario',
    });
  });
});

describe('dealer scope and history', () => {
  let ofA: Record<string, any>;
  let ofB: Record<string, any>;
  beforeAll(async () => {
    ofA = await agreement({
      dealer_id: a.dealerId,
      title: 'Renovar bahías',
      level: 'medium',
      due_date: day(15),
      detail: 'Dos bahías nuevas',
    });
    ofB = await agreement({ dealer_id: b.dealerId, title: 'Acuerdo de B', level: 'high', due_date: day(5) });
  });

  it("a dealer lists only its own agreements; every call on another dealer's answers 404", async () => {
    const list = await api(t.app, 'GET', '/api/agreements?perPage=100', { token: a.token });
    expect(list.status).toBe(200);
    expect(list.body.result.data.length).toBeGreaterThan(0);
    for (const r of list.body.result.data) expect(r.dealer_id).toBe(a.dealerId);
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/agreements/get/${ofB.id}`],
      ['PUT', `/api/agreements/${ofB.id}`, { status: 'done' }],
      ['GET', `/api/agreements/${ofB.id}/history`],
      ['POST', `/api/agreements/${ofB.id}/comments`, { comment: 'Metiche' }],
    ];
    for (const [method, url, body] of calls) {
      const r = await api(t.app, method as any, url, { token: a.token, body });
      expect(r.status, `${method} ${url}`).toBe(404);
      expect(r.body.error.message).toBe('El registro solicitado no existe');
    }
    const [row] = await t.handle.query<{ status: string; n: number }>(
      'select status, (select count(*)::int from agreement_events where agreement_id = $1) as n from agreements where id = $1',
      [ofB.id],
    );
    expect(row).toEqual({ status: 'pending', n: 1 });
  });

  it('a dealer changes the status of its own agreement (not what was agreed), recorded with who and when', async () => {
    const r = await api(t.app, 'PUT', `/api/agreements/${ofA.id}`, {
      token: a.token,
      body: { status: 'in_progress', title: 'Otro título', due_date: '2030-01-01', dealer_id: b.dealerId },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({
      status: 'in_progress',
      title: 'Renovar bahías',
      due_date: ofA.due_date,
      dealer_id: a.dealerId,
    });
    const c = await api(t.app, 'POST', `/api/agreements/${ofA.id}/comments`, {
      token: a.token,
      body: { comment: 'Bahías instaladas', status: 'done' },
    });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.result.agreement.status).toBe('done');
    const kinds = c.body.result.history.map((e: any) => [e.kind, e.from_status, e.to_status, e.comment]);
    expect(kinds).toEqual([
      ['created', null, 'pending', null],
      ['status', 'pending', 'in_progress', null],
      ['comment', null, null, 'Bahías instaladas'],
      ['status', 'in_progress', 'done', null],
    ]);
    const last = c.body.result.history.at(-1);
    expect(last.user_id).toBe(a.userId);
    expect(last.user_name).toContain('Usuario');
    expect(Math.abs(Date.parse(last.created_at) - Date.now())).toBeLessThan(60_000);
    // An empty comment is refused in Spanish.
    const empty = await api(t.app, 'POST', `/api/agreements/${ofA.id}/comments`, {
      token: a.token,
      body: { comment: ' ' },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.error.validationErrors[0].message).toBe('Comentario es obligatorio');
  });

  it('a dealer user cannot create or notify (manufacturer calls)', async () => {
    const r = await api(t.app, 'POST', '/api/agreements', {
      token: a.token,
      body: { title: 'x', level: 'low', due_date: day(1) },
    });
    expect(r.status).toBe(403);
    const n = await api(t.app, 'POST', '/api/agreements-noty', {
      token: a.token,
      body: { agreement_id: ofA.id },
    });
    expect(n.status).toBe(403);
  });
});

describe('POST /api/agreements-noty', () => {
  it('without SMTP keeps one mail per active contact with email in the outbox; the history says to whom', async () => {
    const ag = await agreement({
      dealer_id: a.dealerId,
      title: 'Plan de citas',
      level: 'high',
      due_date: day(-4),
      responsible: 'Ana Gerente',
    });
    const r = await api(t.app, 'POST', '/api/agreements-noty', {
      token: admin,
      body: { agreement_id: ag.id, message: 'Favor revisar antes del comite' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({ sent: 0, pending: 2, failed: 0 });
    const mails = await t.handle.query<{ to: string; subject: string; text: string; status: string }>(
      'select "to", subject, text, status from mail_outbox where subject = $1 order by "to"',
      ['Acuerdo de seguimiento: Plan de citas'],
    );
    expect(mails.map((m) => m.to)).toEqual(['ana.gerente@a.example.com', 'bruno.pv@a.example.com']);
    expect(mails[0].status).toBe('pending');
    expect(mails[0].text).toContain('Favor revisar antes del comite');
    expect(mails[0].text).toContain('Días vencido: 4');
    expect(mails[0].text).toContain(`/agreement?record=${ag.id}`);
    const h = await api(t.app, 'GET', `/api/agreements/${ag.id}/history`, { token: a.token });
    const notice = h.body.result.find((e: any) => e.kind === 'notify');
    expect(notice.recipients.map((x: any) => x.email)).toEqual([
      'ana.gerente@a.example.com',
      'bruno.pv@a.example.com',
    ]);
    expect(notice.comment).toBe('Favor revisar antes del comite');
    const got = await api(t.app, 'GET', `/api/agreements/get/${ag.id}`, { token: admin });
    expect(got.body.result.notified_at).toBeTruthy();
    const [audit] = await t.handle.query<{ n: number }>(
      "select count(*)::int as n from audit_logs where resource = 'agreements' and action = 'notify' and record_id = $1",
      [ag.id],
    );
    expect(audit.n).toBe(1);
  });

  it('with SMTP set delivers to the chosen contacts through the SMTP server', async () => {
    await setSetting(t.app, 'SMTP_URL', smtpUrl);
    try {
      const ag = await agreement({
        dealer_id: a.dealerId,
        title: 'Auditoria de taller',
        level: 'medium',
        due_date: day(20),
      });
      const [bruno] = await t.handle.query<{ id: number }>(
        "select id from dealer_contacts where email = 'bruno.pv@a.example.com'",
      );
      const r = await api(t.app, 'POST', '/api/agreements-noty', {
        token: admin,
        body: { agreement_id: ag.id, contact_ids: [bruno.id] },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.result).toMatchObject({ sent: 1, pending: 0 });
      const mail = received.find((m) => m.data.includes('Auditoria de taller'));
      expect(mail?.to).toEqual(['bruno.pv@a.example.com']);
    } finally {
      await setSetting(t.app, 'SMTP_URL', '');
    }
  });

  it('refuses a dealer without contacts, a contact of another dealer, and an unknown agreement', async () => {
    const ofB = await agreement({
      dealer_id: b.dealerId,
      title: 'Sin contactos',
      level: 'low',
      due_date: day(2),
    });
    const none = await api(t.app, 'POST', '/api/agreements-noty', {
      token: admin,
      body: { agreement_id: ofB.id },
    });
    expect(none.status).toBe(422);
    expect(none.body.error.validationErrors[0].message).toMatch(/no tiene contactos activos con email/);
    const [contactA] = await t.handle.query<{ id: number }>(
      'select id from dealer_contacts where dealer_id = $1 limit 1',
      [a.dealerId],
    );
    const cross = await api(t.app, 'POST', '/api/agreements-noty', {
      token: admin,
      body: { agreement_id: ofB.id, contact_ids: [contactA.id] },
    });
    expect(cross.status).toBe(422);
    const unknown = await api(t.app, 'POST', '/api/agreements-noty', {
      token: admin,
      body: { agreement_id: 999999 },
    });
    expect(unknown.status).toBe(404);
    const missing = await api(t.app, 'POST', '/api/agreements-noty', { token: admin, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.error.validationErrors[0]).toEqual({
      field: 'agreement_id',
      message: 'Acuerdo es obligatorio',
    });
  });
});

describe('overdue age, filters and export', () => {
  const tag = uniq('F');
  const made: Record<string, any>[] = [];
  beforeAll(async () => {
    const specs = [
      { level: 'high', due: -40, status: 'pending' },
      { level: 'high', due: -95, status: 'in_progress' },
      { level: 'low', due: -10, status: 'done' },
      { level: 'medium', due: -3, status: 'cancelled' },
      { level: 'medium', due: 12, status: 'pending' },
      { level: 'low', due: -1, status: 'pending' },
    ];
    for (const [i, s] of specs.entries()) {
      const r = await agreement({
        dealer_id: b.dealerId,
        title: `${tag} acuerdo ${i}`,
        level: s.level,
        due_date: day(s.due),
      });
      if (s.status !== 'pending')
        await api(t.app, 'PUT', `/api/agreements/${r.id}`, { token: admin, body: { status: s.status } });
      made.push({ ...r, status: s.status, due: day(s.due) });
    }
  });

  const list = async (q: string) => {
    const r = await api(t.app, 'GET', `/api/agreements?perPage=100&query=${tag}&${q}`, { token: admin });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.result.data as Record<string, any>[];
  };

  it('marks open agreements past their due date with their age in days, and only those', async () => {
    const rows = await list('');
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      const m = made.find((x) => x.id === r.id)!;
      const open = m.status === 'pending' || m.status === 'in_progress';
      const expected = open && daysSince(m.due) > 0 ? daysSince(m.due) : null;
      expect(r.age_days, r.title).toBe(expected);
    }
    const overdue = await list('filter[overdue]=1&sort=age_days&order=desc');
    expect(overdue.map((r) => r.age_days)).toEqual([95, 40, 1]);
  });

  it('filters by zone, dealer, level, status and due date (also as plain parameters)', async () => {
    expect((await list(`filter[zone_id]=${zoneNorte}`)).length).toBe(6);
    expect((await list('filter[zone_id]=1')).length).toBe(0);
    expect((await list(`filter[dealer_id]=${a.dealerId}`)).length).toBe(0);
    expect((await list('filter[level]=high')).map((r) => r.id).sort()).toEqual(
      [made[0].id, made[1].id].sort(),
    );
    expect((await list('status=pending,in_progress')).length).toBe(4);
    expect(
      (await list(`filter[due_from]=${day(-41)}&filter[due_to]=${day(-2)}`)).map((r) => r.id).sort(),
    ).toEqual([made[0].id, made[2].id, made[3].id].sort());
    const bad = await api(t.app, 'GET', '/api/agreements?filter[due_from]=ayer', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors[0].message).toBe('Vence desde: formato de fecha YYYY-MM-DD');
  });

  it('exports the same filtered rows as .xlsx, with Spanish status names and the age', async () => {
    const r = await api(
      t.app,
      'GET',
      `/api/agreements/export?query=${tag}&filter[overdue]=1&sort=age_days&order=desc`,
      { token: admin },
    );
    expect(r.status).toBe(200);
    expect(String(r.headers['content-type'])).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw as any);
    const ws = wb.worksheets[0];
    const header = (ws.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(
      expect.arrayContaining(['Título', 'Estado', 'Nivel', 'Fecha límite', 'Días vencido']),
    );
    const col = (name: string) => header.indexOf(name) + 1;
    const rows = [2, 3, 4].map((n) => ws.getRow(n));
    expect(ws.rowCount).toBe(4);
    expect(rows.map((row) => Number(row.getCell(col('Días vencido')).value))).toEqual([95, 40, 1]);
    expect(rows.map((row) => row.getCell(col('Estado')).value)).toEqual([
      'En proceso',
      'Pendiente',
      'Pendiente',
    ]);
    expect(rows[0].getCell(col('Nivel')).value).toBe('Alto');
  });

  it('agreementsByAge counts the open ones by age bucket (for the dashboard)', async () => {
    const [me] = await t.handle.query<{ id: number }>("select id from users where username = 'admin'");
    const user = { id: me.id, dealerId: null, isDealer: false, permissions: new Set<string>() } as any;
    const s = await agreementsByAge(t.handle.db, resolveScope(user, b.dealerId));
    // Dealer B: the six above plus two (due in 5 and 30 days, pending) and 'Sin contactos' (2 days).
    const bucket = Object.fromEntries(s.buckets.map((x) => [x.key, x.count]));
    expect(bucket).toEqual({ on_time: 4, '1_30': 1, '31_60': 1, '61_90': 0, over_90: 1 });
    expect(s.open).toBe(7);
    expect(s.overdue).toBe(3);
    expect(s.by_status.find((x) => x.status === 'done')?.count).toBe(1);
    // A dealer user's summary is its own, whatever it names.
    const dealerUser = {
      id: b.userId,
      dealerId: a.dealerId,
      isDealer: true,
      permissions: new Set<string>(),
    } as any;
    const named = await agreementsByAge(t.handle.db, resolveScope(dealerUser, b.dealerId));
    expect(named).toEqual(await agreementsByAge(t.handle.db, resolveScope(user, a.dealerId)));
    expect(named).not.toEqual(s);
    const viaApi = await api(t.app, 'GET', `/api/agreements-summary?dealer_id=${b.dealerId}`, {
      token: b.token,
    });
    expect(viaApi.body.result.buckets).toEqual(s.buckets);
  });
});
