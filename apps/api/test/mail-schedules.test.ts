// Scheduled reports by mail (issue 29, item 5): the schedules edited in Preferencias (permission,
// Spanish validation, audit), the monthly Resumen Comparativo queued to the dealer's contacts
// when its month is confirmed (once, even confirmed again after a reopen), the weekly dashboard
// summary on its day and hour in Lima (once per week, even run twice at the same moment), both
// in the outbox without SMTP and received, .xlsx attached, by an SMTP server once it is set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinClock } from '../src/core/lima';
import { runDueSchedules } from '../src/modules/schedules/schedules.service';
import { api, createDealerUser, createTestApp, login, type TestContext, testClockInstant } from './harness';
import { type SmtpStub, startSmtpStub } from './smtp-stub';

let t: TestContext;
let admin: string;
let smtp: SmtpStub;
let dealer: { dealerId: number; token: string };
const Y = 2025;

interface Schedule {
  id: number;
  kind: string;
  enabled: boolean;
  weekday: number | null;
  hour: number | null;
  recipients: string | null;
  runs: { key: string; mails: number; period: string }[];
}

const schedules = async (token = admin) =>
  (await api<Schedule[]>(t.app, 'GET', '/api/mail-schedules', { token })).body.result;
const scheduleId = async (kind: string) => (await schedules()).find((s) => s.kind === kind)!.id;
const saveSchedule = async (kind: string, body: object, token = admin) =>
  api(t.app, 'PUT', `/api/mail-schedules/${await scheduleId(kind)}`, { token, body });

async function outbox(subject: string) {
  return t.handle.query<{ to: string; subject: string; status: string; html: string; names: string }>(
    `select "to", subject, status, html,
       (select string_agg(a->>'filename', ', ') from jsonb_array_elements(attachments) a) as names
     from mail_outbox where subject like $1 order by "to"`,
    [`${subject}%`],
  );
}

const received = (subject: string) => smtp.received.filter((m) => m.data.includes(subject));

beforeAll(async () => {
  smtp = await startSmtpStub();
  t = await createTestApp();
  admin = await login(t.app);
  dealer = await createDealerUser(t.app, admin);
  for (const [name, email, active] of [
    ['Ana Gerente', 'ana@concesionario.pe', true],
    ['Beto Ventas', 'beto@concesionario.pe', true],
    ['Carla Antigua', 'carla@concesionario.pe', false],
  ] as const) {
    const res = await api(t.app, 'POST', '/api/dealer-contacts', {
      token: admin,
      body: { dealer_id: dealer.dealerId, name, email, active },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
});
afterAll(async () => {
  pinClock(testClockInstant());
  await t?.close();
  await smtp?.close();
});

describe('the schedules in Preferencias', () => {
  it('lists both kinds, off in a new installation, to administrators only', async () => {
    const list = await schedules();
    expect(list.map((s) => [s.kind, s.enabled])).toEqual([
      ['resumen_mensual', false],
      ['tablero_semanal', false],
    ]);
    expect((await api(t.app, 'GET', '/api/mail-schedules', { token: dealer.token })).status).toBe(403);
    const put = await saveSchedule('tablero_semanal', { enabled: true, weekday: 1, hour: 8 }, dealer.token);
    expect(put.status).toBe(403);
  });

  it('refuses a wrong day, hour or address with the Spanish message of its field', async () => {
    const day = await saveSchedule('tablero_semanal', { enabled: true, weekday: 9, hour: 8 });
    expect(day.status).toBe(422);
    expect(day.body.error.validationErrors).toEqual([
      { field: 'weekday', message: 'Día de la semana el valor máximo es 7' },
    ]);
    const hour = await saveSchedule('tablero_semanal', { enabled: true, weekday: 1, hour: 24 });
    expect(hour.body.error.validationErrors).toEqual([
      { field: 'hour', message: 'Hora (Lima) el valor máximo es 23' },
    ]);
    const noHour = await saveSchedule('tablero_semanal', { enabled: true, weekday: 1, hour: null });
    expect(noHour.status).toBe(422);
    expect(noHour.body.error.validationErrors).toEqual([
      { field: 'hour', message: 'Hora (Lima) es obligatorio' },
    ]);
    const address = await saveSchedule('tablero_semanal', {
      enabled: true,
      weekday: 1,
      hour: 8,
      recipients: 'gerente@red.pe, no-es-correo',
    });
    expect(address.body.error.validationErrors).toEqual([
      { field: 'recipients', message: 'Destinatarios: "no-es-correo" no es un Email válido.' },
    ]);
    expect((await schedules()).find((s) => s.kind === 'tablero_semanal')!.enabled).toBe(false);
  });
});

describe('the monthly Resumen Comparativo when a dealer confirms its month', () => {
  it('queues nothing while the schedule is off', async () => {
    await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year: Y, month: 2, dealer_ids: [dealer.dealerId] },
    });
    const ok = await api(t.app, 'POST', '/api/figures/confirm', {
      token: dealer.token,
      body: { year: Y, month: 2 },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await outbox('Resumen Comparativo de Febrero 2025')).toEqual([]);
  });

  it('on: one mail per active contact with the .xlsx, in the outbox without SMTP, once even after a reopen', async () => {
    const on = await saveSchedule('resumen_mensual', { enabled: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    const audit = await t.handle.query<{ action: string }>(
      `select action from audit_logs where resource = 'mail-schedules' order by id desc limit 1`,
    );
    expect(audit[0]?.action).toBe('update');

    await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year: Y, month: 3, dealer_ids: [dealer.dealerId] },
    });
    const ok = await api(t.app, 'POST', '/api/figures/confirm', {
      token: dealer.token,
      body: { year: Y, month: 3 },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const mails = await outbox('Resumen Comparativo de Marzo 2025');
    expect(mails.map((m) => [m.to, m.status])).toEqual([
      ['ana@concesionario.pe', 'pending'],
      ['beto@concesionario.pe', 'pending'],
    ]);
    expect(mails[0].names).toMatch(/^Resumen_Comparativo_2025_03_D\w+\.xlsx$/);
    expect(mails[0].html).toContain('Se confirmaron las cifras de <b>Marzo 2025</b>');

    // Reopened and confirmed again: the month was already mailed.
    const [period] = await t.handle.query<{ id: number }>(
      'select id from figure_periods where dealer_id = $1 and year = $2 and month = 3',
      [dealer.dealerId, Y],
    );
    const reopen = await api(t.app, 'POST', `/api/figure-periods/${period.id}/reopen`, {
      token: admin,
      body: { reason: 'Corregir unidades' },
    });
    expect(reopen.status, JSON.stringify(reopen.body)).toBe(200);
    await api(t.app, 'POST', '/api/figures/confirm', { token: dealer.token, body: { year: Y, month: 3 } });
    expect(await outbox('Resumen Comparativo de Marzo 2025')).toHaveLength(2);
    const runs = (await schedules()).find((s) => s.kind === 'resumen_mensual')!.runs;
    expect(runs.map((r) => [r.period, r.mails])).toEqual([['Marzo 2025', 2]]);
  });

  it('goes out with its .xlsx once SMTP is set (the outbox is flushed)', async () => {
    const set = await api(t.app, 'PUT', '/api/configurations/save', {
      token: admin,
      body: { SMTP_URL: smtp.url },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const flush = await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });
    expect(flush.status, JSON.stringify(flush.body)).toBe(200);
    const got = received('Resumen Comparativo de Marzo 2025');
    expect(got.map((m) => m.to).sort()).toEqual([['ana@concesionario.pe'], ['beto@concesionario.pe']]);
    expect(got[0].data).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(got[0].data).toMatch(/filename="?Resumen_Comparativo_2025_03_/);
  });
});

describe('the weekly dashboard summary', () => {
  // A Monday in Lima; the schedule is saved at 07:30 for Mondays at 08:00.
  const at = (time: string) => Date.parse(`2026-11-23T${time}:00-05:00`);

  it('is sent on its day and hour in Lima, once per week even when two runs meet', async () => {
    pinClock(at('07:30'));
    const save = await saveSchedule('tablero_semanal', {
      enabled: true,
      weekday: 1,
      hour: 8,
      recipients: 'gerente@red.pe; Finanzas@Red.pe',
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.result.recipients).toBe('gerente@red.pe, finanzas@red.pe');
    expect((await runDueSchedules(t.app, at('07:59'))).mails).toBe(0);

    pinClock(at('08:05'));
    const [one, two] = await Promise.all([runDueSchedules(t.app), runDueSchedules(t.app)]);
    expect(one.mails + two.mails).toBe(2);
    expect((await runDueSchedules(t.app, at('15:00'))).mails).toBe(0);
    const got = received('Resumen semanal del tablero (2026-W48)');
    expect(got.map((m) => m.to[0]).sort()).toEqual(['finanzas@red.pe', 'gerente@red.pe']);
    expect(got[0].data).toContain('Ventas CEM');
    expect(got[0].data).toMatch(/filename="?Tablero_2026-01-01_2026-11-23\.xlsx/);
    const mails = await outbox('Resumen semanal del tablero (2026-W48)');
    expect(mails.map((m) => m.status)).toEqual(['sent', 'sent']);
    const built = (
      await t.handle.query<{ build_ms: number }>(
        `select build_ms from mail_schedule_runs where key = 'tablero:2026-W48'`,
      )
    )[0].build_ms;
    console.log(`Resumen semanal del tablero: construido en ${built} ms`);

    // The next Monday is another week.
    expect((await runDueSchedules(t.app, at('08:05') + 7 * 86_400_000)).mails).toBe(2);
  });

  it('without a list goes to the manufacturer users with the Tablero', async () => {
    pinClock(Date.parse('2026-12-08T08:30:00-05:00'));
    const save = await saveSchedule('tablero_semanal', {
      enabled: true,
      weekday: 2,
      hour: 9,
      recipients: '',
    });
    expect(save.status).toBe(200);
    pinClock(Date.parse('2026-12-08T09:10:00-05:00'));
    const res = await runDueSchedules(t.app);
    expect(res.mails).toBe(1);
    const mails = await outbox('Resumen semanal del tablero (2026-W50)');
    // The administrator; the dealer's user has no Tablero.
    expect(mails.map((m) => m.to)).toEqual(['admin@example.com']);
  });
});
