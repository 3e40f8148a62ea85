// The demo network: what it adds, that a second run changes nothing, and that its users work.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { limaMonth, limaToday, limaYear, nowMs } from '../src/core/lima';
import { openDatabase } from '../src/db/client';
import { DEFAULT_DEMO_PASSWORD, type DemoResult, describeDemo, seedDemo } from '../src/seed/demo';
import { api, createTestApp, login, type TestContext } from './harness';
import { createDatabase, pgUrl, type TestDatabase } from './process/servers';

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
  'figure_periods',
  'figures',
  'fees',
  'capacities',
  'users',
  'user_roles',
  'quiz_invitations',
  'quiz_responses',
  'quiz_answers',
  'quiz_alerts',
  'agreements',
  'agreement_events',
  'workshop_infos',
  'categories',
  'documents',
  'document_dealers',
  'document_files',
  'document_reads',
  'notifications',
  'saved_views',
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

  it('invites most demo sales to the survey; most answer, with a spread of scores and a few alerts', async () => {
    const [n] = await t.handle.query<Record<string, number>>(
      `select (select count(*) from sales where sale_date < '${limaToday()}'::date - 3)::int as sales,
        (select count(distinct sale_id) from quiz_invitations)::int as invited,
        (select count(*) from quiz_invitations)::int as invitations,
        (select count(*) from quiz_responses)::int as responses,
        (select count(*) from quiz_alerts)::int as alerts,
        (select count(*) from quiz_alerts where closed_at is not null)::int as closed,
        (select count(*) from sales where survey_status = 'contacto_invalido')::int as invalid`,
    );
    expect(n.sales).toBeGreaterThan(300);
    expect(n.invited / n.sales).toBeGreaterThan(0.85);
    expect(n.responses / n.invitations).toBeGreaterThan(0.6);
    expect(n.responses / n.invitations).toBeLessThan(0.95);
    expect(n.alerts).toBeGreaterThanOrEqual(2);
    expect(n.alerts / n.responses).toBeLessThan(0.05);
    expect(n.closed).toBeGreaterThanOrEqual(1);
    expect(n.closed).toBeLessThan(n.alerts);
    expect(n.invalid).toBeGreaterThan(0);
    // Nothing is answered or alerted after the moment the demo was made.
    const [future] = await t.handle.query<Record<string, number>>(
      `select (select count(*) from quiz_responses where answered_at > now())::int as responses,
        (select count(*) from quiz_alerts where opened_at > now())::int as alerts`,
    );
    expect(future).toEqual({ responses: 0, alerts: 0 });
    // The ranking a manager reads: dealers clearly apart.
    const manager = await login(t.app, 'gerente.red', DEFAULT_DEMO_PASSWORD);
    // The year holding most of the demo's twelve months (the current one, but in January).
    const [{ year }] = await t.handle.query<{ year: number }>(
      'select extract(year from sale_date)::int as year from sales group by 1 order by count(*) desc limit 1',
    );
    const stats = await api(t.app, 'GET', `/api/table-stats?year=${year}`, { token: manager });
    const topBoxes = stats.body.result.ranking.ranked.map((r: { top_box: number }) => r.top_box);
    expect(topBoxes.length).toBeGreaterThanOrEqual(10);
    expect(Math.max(...topBoxes) - Math.min(...topBoxes)).toBeGreaterThan(0.2);
  });

  it('fills a year and more of dispatches, objectives, figures, fees and capacities, with dealers ahead and behind', async () => {
    const [n] = await t.handle.query<Record<string, number | string>>(
      `select (select min(dispatch_date)::text from dispatches) as first_dispatch,
        (select count(distinct (year, month)) from dispatch_objectives)::int as objective_months,
        (select count(distinct dealer_id) from dispatch_objectives)::int as objective_dealers,
        (select count(distinct (year, month)) from figures)::int as figure_months,
        (select count(*) from fees)::int as fees,
        (select count(distinct dealer_id) from capacities)::int as capacity_dealers,
        (select count(distinct status) from figure_periods)::int as period_states`,
    );
    const year = limaYear();
    // From January of last year: the year to date compares with the same months a year before.
    expect(String(n.first_dispatch).slice(0, 7)).toBe(`${year - 1}-01`);
    expect(n.objective_months).toBeGreaterThanOrEqual(13);
    expect(n.objective_dealers).toBeGreaterThanOrEqual(12);
    expect(n.figure_months).toBeGreaterThanOrEqual(12);
    expect(n.fees).toBeGreaterThan(0);
    expect(n.capacity_dealers).toBeGreaterThanOrEqual(12);
    expect(n.period_states).toBeGreaterThanOrEqual(2);
    // Dealers ahead of their objectives and dealers behind, as the Objetivos tab shows them.
    const manager = await login(t.app, 'gerente.red', DEFAULT_DEMO_PASSWORD);
    const summary = await api(t.app, 'GET', `/api/objectives-summary?year=${year}`, { token: manager });
    const statuses = new Set(summary.body.result.rows.map((r: { status: string }) => r.status));
    expect(statuses.has('atrasado')).toBe(true);
    expect(statuses.has('adelantado')).toBe(true);
  });

  it('makes the notifications centre real: each side sees its own (issue 29)', async () => {
    const manager = await login(t.app, 'gerente.red', DEFAULT_DEMO_PASSWORD);
    const kinds = async (token: string) => {
      const r = await api(t.app, 'GET', '/api/notifications?perPage=100', { token });
      expect(r.status).toBe(200);
      const data = r.body.result.data as { kind: string; dealer_id: number | null }[];
      return {
        kinds: new Set(data.map((n) => n.kind)),
        dealers: new Set(data.map((n) => n.dealer_id)),
        unread: r.body.result.unread,
      };
    };
    const staff = await kinds(manager);
    for (const k of ['agreement_overdue', 'quiz_alert']) expect(staff.kinds.has(k), k).toBe(true);
    expect(staff.unread).toBeGreaterThan(0);
    // A dealer user: its dealer's overdue agreements, a month to confirm and the new documents.
    const [dealerUser] = await t.handle.query<{ username: string; dealer_id: number }>(
      `select u.username, u.dealer_id from users u where u.dealer_id in (
         select a.dealer_id from agreements a where a.status in ('pending','in_progress') and a.due_date < '${limaToday()}'::date - 1
         intersect select p.dealer_id from figure_periods p where p.status = 'enabled')
       order by u.id limit 1`,
    );
    expect(dealerUser).toBeTruthy();
    const own = await kinds(await login(t.app, dealerUser.username, DEFAULT_DEMO_PASSWORD));
    for (const k of ['agreement_overdue', 'figures_pending', 'document'])
      expect(own.kinds.has(k), k).toBe(true);
    // The view the manager shared with the Concesionario role.
    const shared = await api(t.app, 'GET', '/api/saved-views?screen=%2Fagreement', {
      token: await login(t.app, dealerUser.username, DEFAULT_DEMO_PASSWORD),
    });
    expect(shared.body.result.map((v: { name: string; own: boolean }) => [v.name, v.own])).toEqual([
      ['Pendientes por fecha límite', false],
    ]);
    // Only its dealer's (or every dealer's: a document for all), though others' exist.
    expect([...own.dealers].every((d) => d === null || d === dealerUser.dealer_id)).toBe(true);
    expect(staff.dealers.size).toBeGreaterThan(2);
  });

  it('follows up a year of agreements: most done, some open past due (a few long overdue), each with its history', async () => {
    const [n] = await t.handle.query<Record<string, number>>(
      `select count(*)::int as total,
        count(distinct dealer_id)::int as dealers,
        count(*) filter (where status = 'done')::int as done,
        count(*) filter (where status = 'cancelled')::int as cancelled,
        count(*) filter (where status in ('pending', 'in_progress') and due_date < '${limaToday()}'::date)::int as overdue,
        count(*) filter (where status in ('pending', 'in_progress') and due_date < '${limaToday()}'::date - 60)::int as long_overdue,
        count(*) filter (where status in ('pending', 'in_progress') and due_date >= '${limaToday()}'::date)::int as on_time,
        count(*) filter (where notified_at is not null)::int as notified,
        (select count(*)::int from agreement_events) as events
       from agreements`,
    );
    expect(n.dealers).toBe(16);
    expect(n.total).toBeGreaterThanOrEqual(16 * 7);
    expect(n.done / n.total).toBeGreaterThan(0.3);
    expect(n.cancelled).toBeGreaterThan(0);
    expect(n.overdue).toBeGreaterThan(10);
    expect(n.long_overdue).toBeGreaterThan(0);
    expect(n.on_time).toBeGreaterThan(10);
    expect(n.notified).toBeGreaterThan(n.total / 3);
    expect(n.events).toBeGreaterThan(n.total * 2);
    // Dealers apart: the share of overdue agreements differs clearly between them.
    const shares = await t.handle.query<{ share: number }>(
      `select (count(*) filter (where status in ('pending', 'in_progress') and due_date < '${limaToday()}'::date))::float / count(*) as share
       from agreements group by dealer_id`,
    );
    const s = shares.map((x) => x.share);
    expect(Math.max(...s) - Math.min(...s)).toBeGreaterThan(0.2);
  });

  it('loads workshop info for every demo dealer, consistent with capacities: productivity 60-95 %, a few months missing', async () => {
    const rows = await t.handle.query<{ dealer_id: number; year: number; month: number; p: number }>(
      `select w.dealer_id, w.year, w.month, sum(w.hours_worked)::float / sum(c.available_hours)::float as p
       from workshop_infos w join capacities c
         on c.dealer_branch_id = w.dealer_branch_id and c.year = w.year and c.month = w.month
       group by w.dealer_id, w.year, w.month`,
    );
    expect(new Set(rows.map((r) => r.dealer_id)).size).toBe(16);
    expect(rows.length).toBeGreaterThan(16 * 11);
    for (const r of rows) {
      expect(r.p).toBeGreaterThanOrEqual(0.595);
      expect(r.p).toBeLessThanOrEqual(0.955);
    }
    // Dealers ahead and behind: their yearly averages spread over at least 15 points.
    const avg = new Map<number, number[]>();
    for (const r of rows) avg.set(r.dealer_id, [...(avg.get(r.dealer_id) ?? []), r.p]);
    const means = [...avg.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
    expect(Math.max(...means) - Math.min(...means)).toBeGreaterThan(0.15);
    // Some dealer-months with capacity have no workshop info (late or skipped).
    const [missing] = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from (
         select distinct c.dealer_id, c.year, c.month from capacities c
         where (c.year * 100 + c.month) < (extract(year from '${limaToday()}'::date) * 100 + extract(month from '${limaToday()}'::date))
           and not exists (select 1 from workshop_infos w where w.dealer_id = c.dealer_id and w.year = c.year and w.month = c.month)
       ) x`,
    );
    expect(missing.n).toBeGreaterThanOrEqual(2);
    // The report a manager opens: this year's rows with the year before beside them.
    const manager = await login(t.app, 'gerente.red', DEFAULT_DEMO_PASSWORD);
    const year = limaMonth() === 1 ? limaYear() - 1 : limaYear();
    const report = await api(t.app, 'GET', `/api/reports/report-info?year=${year}`, { token: manager });
    expect(report.body.result.length).toBeGreaterThan(16);
    expect(report.body.result.filter((r: any) => r.previous?.productivity).length).toBeGreaterThan(16);
  });

  it('fills the extranet: a category tree, ~28 documents over the year with real files, some for chosen dealers, expired, scheduled, read', async () => {
    const [n] = await t.handle.query<Record<string, number>>(
      `select (select count(*) from categories where name in ('Comercial','Posventa','Marketing','Garantías','Capacitación'))::int as top,
        (select count(*) from categories where parent_id is not null)::int as sub,
        (select count(*) from documents)::int as docs,
        (select count(*) from documents where not all_dealers)::int as chosen,
        (select count(*) from documents where expires_at < '${limaToday()}'::date)::int as expired,
        (select count(*) from documents where published_at > '${limaToday()}'::date)::int as scheduled,
        (select count(*) from document_files)::int as files,
        (select count(*) from document_files where mime like '%spreadsheetml%')::int as xlsx,
        (select count(*) from document_reads)::int as reads,
        (select count(distinct extract(month from published_at)) from documents)::int as months`,
    );
    expect(n).toMatchObject({ top: 5, sub: 4, docs: 28, chosen: 4, expired: 3, scheduled: 2 });
    expect(n.files).toBe(31);
    expect(n.xlsx).toBe(10);
    expect(n.months).toBeGreaterThanOrEqual(10);
    expect(n.reads).toBeGreaterThan(100);
    // What two dealers see: the one ahead has read almost everything, the one behind little.
    const unread = async (user: string) => {
      const token = await login(t.app, user, DEFAULT_DEMO_PASSWORD);
      const r = await api(t.app, 'GET', '/api/documents?perPage=50', { token });
      expect(r.status).toBe(200);
      return {
        total: r.body.result.total as number,
        unread: r.body.result.unread as number,
        data: r.body.result.data,
      };
    };
    const ahead = await unread('lim01');
    const behind = await unread('caj01');
    // 28 minus 2 scheduled, 1 disabled, 3 expired and the 3 for the north or the south only.
    expect(ahead.total).toBe(19);
    expect(ahead.unread).toBeLessThan(ahead.total / 3);
    expect(behind.unread).toBeGreaterThan(behind.total * 0.7);
    // The files download as the real thing.
    const doc = ahead.data.find((d: { files: { mime: string }[] }) => d.files[0]?.mime === 'application/pdf');
    const token = await login(t.app, 'lim01', DEFAULT_DEMO_PASSWORD);
    const file = await api(t.app, 'GET', `/api/documents/${doc.id}/files/${doc.files[0].id}`, { token });
    expect(file.status).toBe(200);
    expect(file.raw.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('dates nothing people did after now: only due dates, expiries and scheduled publications lie ahead', async () => {
    // Every date and timestamp column of the schema, but those that are ahead by nature.
    const ahead = new Set(['due_date', 'expires_at', 'documents.published_at']);
    const columns = await t.handle.query<{ table_name: string; column_name: string; data_type: string }>(
      `select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'public' and data_type in ('date', 'timestamp with time zone')`,
    );
    // The suite's clock, or the machine's when that is later (a column's default now()).
    const at = new Date(Math.max(nowMs(), Date.now()));
    const day = limaToday(at.getTime());
    const future: string[] = [];
    for (const c of columns) {
      if (ahead.has(c.column_name) || ahead.has(`${c.table_name}.${c.column_name}`)) continue;
      const [row] = await t.handle.query<{ n: number; last: string | null }>(
        c.data_type === 'date'
          ? `select count(*)::int as n, max("${c.column_name}")::text as last from "${c.table_name}" where "${c.column_name}" > $1::date`
          : `select count(*)::int as n, max("${c.column_name}")::text as last from "${c.table_name}" where "${c.column_name}" > $1::timestamptz`,
        [c.data_type === 'date' ? day : at.toISOString()],
      );
      if (row.n) future.push(`${c.table_name}.${c.column_name}: ${row.n} (${row.last})`);
    }
    expect(future).toEqual([]);
    // Last month is confirmed by most dealers already, on this month's days gone by.
    const [last] = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from figure_periods
        where status = 'confirmed' and confirmed_at >= date_trunc('month', $1::date)`,
      [day],
    );
    expect(last.n).toBeGreaterThan(0);
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
    expect(describeDemo(again)[0]).toBe('Datos de demostración: ya estaban cargados, no se cambió nada.');
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

describe.skipIf(!pgUrl())('two instances loading the demo at once on one PostgreSQL', () => {
  let db: TestDatabase | undefined;
  afterAll(() => db?.drop());

  it('both succeed; the network is loaded once (as two DEMO=1 starts on a new database)', async () => {
    db = await createDatabase('demo', inject('templateDb'));
    const handles = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: db!.url, poolSize: 4 })));
    try {
      const results = await Promise.allSettled(handles.map((h) => seedDemo(h)));
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const created = results.map((r) => (r as PromiseFulfilledResult<DemoResult>).value.created);
      // One of them loaded everything, the other found it loaded.
      expect(created.map((c) => c.dealers).sort()).toEqual([0, expect.any(Number)].sort());
      expect(Math.max(...created.map((c) => c.dealers))).toBeGreaterThanOrEqual(12);
      const [{ n }] = await db.query(
        'select count(*)::int as n from (select sale_id, quiz_id from quiz_invitations group by 1, 2 having count(*) > 1) d',
      );
      expect(n).toBe(0);
      const [{ invitations }] = await db.query('select count(*)::int as invitations from quiz_invitations');
      expect(invitations).toBe(Math.max(...created.map((c) => c.invitations)));
    } finally {
      await Promise.all(handles.map((h) => h.close()));
    }
  }, 180_000);
});
