// "Sent once even with several servers" (issue 29, item 5): two app instances on one database
// (on PostgreSQL two pools on the same database, on PGlite the same database instance), both past
// the weekly schedule's day and hour with the clock pinned, run the schedule at the same moment,
// several times: exactly one mailing of that week and one mail per recipient in the outbox. The
// same week run again on either server adds nothing; the next week is one more mailing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinClock } from '../src/core/lima';
import { runDueSchedules } from '../src/modules/schedules/schedules.service';
import { api, createPeerApp, createTestApp, login, type TestContext, testClockInstant } from './harness';

let t: TestContext;
let peer: Awaited<ReturnType<typeof createPeerApp>>;
let admin: string;

// A Monday in Lima; the schedule is saved at 07:30 for Mondays at 08:00.
const at = (time: string, days = 0) => Date.parse(`2026-11-23T${time}:00-05:00`) + days * 86_400_000;
const RECIPIENTS = ['compras@red.pe', 'finanzas@red.pe', 'gerente@red.pe'];

beforeAll(async () => {
  t = await createTestApp();
  peer = await createPeerApp(t);
  admin = await login(t.app);
}, 120_000);
afterAll(async () => {
  pinClock(testClockInstant());
  await peer?.close();
  await t?.close();
});

/** The mailings of a week, and how many mails each address got in the outbox for it. */
async function mailed(week: string) {
  const runs = await t.handle.query<{ key: string; mails: number }>(
    'select key, mails from mail_schedule_runs where key = $1',
    [`tablero:${week}`],
  );
  const outbox = await t.handle.query<{ to: string; n: number }>(
    `select "to", count(*)::int as n from mail_outbox where subject like $1 group by "to" order by "to"`,
    [`Resumen semanal del tablero (${week})%`],
  );
  return { runs, outbox };
}

describe('the weekly summary with two servers on one database', () => {
  it('makes one mailing and one mail per recipient when both run it past its time', async () => {
    pinClock(at('07:30'));
    const list = await api(t.app, 'GET', '/api/mail-schedules', { token: admin });
    const weekly = list.body.result.find((s: { kind: string }) => s.kind === 'tablero_semanal');
    // Saved on one server, read by the other.
    const save = await api(peer.app, 'PUT', `/api/mail-schedules/${weekly.id}`, {
      token: admin,
      body: { enabled: true, weekday: 1, hour: 8, recipients: RECIPIENTS.join(', ') },
    });
    expect(save.status, JSON.stringify(save.body)).toBe(200);

    // Both servers past the slot, each running the schedule twice at the same moment (the
    // minute's pg-boss run and the start-up run of each).
    pinClock(at('08:05'));
    const runs = await Promise.all([
      runDueSchedules(t.app),
      runDueSchedules(peer.app),
      runDueSchedules(t.app),
      runDueSchedules(peer.app),
    ]);
    expect(runs.reduce((n, r) => n + r.mails, 0)).toBe(RECIPIENTS.length);
    expect(runs.filter((r) => r.mails > 0)).toHaveLength(1);
    const week = await mailed('2026-W48');
    expect(week.runs).toEqual([{ key: 'tablero:2026-W48', mails: RECIPIENTS.length }]);
    expect(week.outbox).toEqual(RECIPIENTS.map((to) => ({ to, n: 1 })));

    // Later that week, on either server: nothing more.
    pinClock(at('16:00', 2));
    const later = await Promise.all([runDueSchedules(t.app), runDueSchedules(peer.app)]);
    expect(later.map((r) => r.mails)).toEqual([0, 0]);
    expect(await mailed('2026-W48')).toEqual(week);

    // The next Monday past 08:00 is the next week's one mailing.
    pinClock(at('08:30', 7));
    const next = await Promise.all([runDueSchedules(peer.app), runDueSchedules(t.app)]);
    expect(next.reduce((n, r) => n + r.mails, 0)).toBe(RECIPIENTS.length);
    const w49 = await mailed('2026-W49');
    expect(w49.runs).toHaveLength(1);
    expect(w49.outbox).toEqual(RECIPIENTS.map((to) => ({ to, n: 1 })));
  });
});
