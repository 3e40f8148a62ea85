// The dashboard over the demo network: every number is computed again here, independently (plain
// SQL over the tables, or the module screen's own call), for the administrator, for a brand, for a
// month and for a dealer user, whose dealer the server imposes whatever the client asks.
import {
  type DashboardAnswer,
  dashboardCalls,
  dashboardGroupSchemas,
  dashboardResults,
} from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { limaEndOfDay } from '../src/core/lima';
import { resolveScope } from '../src/core/scope';
import { surveyTrend, tableStats } from '../src/modules/quiz/quiz.stats';
import { DEFAULT_DEMO_PASSWORD, seedDemo } from '../src/seed/demo';
import { api, createTestApp, login, type TestContext, testToday } from './harness';
import { summaryDifferences } from './survey-summary';

let t: TestContext;
let admin: string;
let dealerToken: string;
let dealerId: number;
let otherDealerId: number;
let year: number;
let today: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.handle);
  admin = await login(t.app);
  dealerToken = await login(t.app, 'lim01', DEFAULT_DEMO_PASSWORD);
  const [own] = await t.handle.query<{ id: number }>("select id from dealers where code = 'LIM01'");
  const [other] = await t.handle.query<{ id: number }>("select id from dealers where code = 'TRU01'");
  dealerId = own.id;
  otherDealerId = other.id;
  today = testToday();
  year = Number(today.slice(0, 4));
}, 180_000);
afterAll(() => t?.close());

async function dashboard(query: string, token = admin): Promise<DashboardAnswer> {
  const res = await api<DashboardAnswer>(t.app, 'GET', `/api/dash-widgets?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

async function one<T = number>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await t.handle.query<{ v: T }>(sql, params);
  return row.v;
}

const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 1000) / 10 : null);

/** Conditions on sales for a dealer (or all) and a brand (or all), as $3, $4. */
const salesWhere = `sale_date between $1 and $2 and ($3::int is null or dealer_id = $3) and ($4::int is null or manufacturer_id = $4)`;

describe('dashboard numbers (demo network)', () => {
  it('the year for every dealer: sales, surveys, dispatches, figures and alerts as the modules count them', async () => {
    const d = await dashboard(`year=${year}`);
    const { from, to } = d.period;
    expect(from).toBe(`${year}-01-01`);
    expect(to).toBe(today);
    const g = d.groups;

    // Ventas: the CEM sales of the period, per month and per brand.
    const sales = await one(`select count(*)::int as v from sales where ${salesWhere}`, [
      from,
      to,
      null,
      null,
    ]);
    expect(sales).toBeGreaterThan(100);
    expect(g.ventas?.sales.value).toBe(sales);
    const byMonth = await t.handle.query<{ m: number; n: number }>(
      `select extract(month from sale_date)::int as m, count(*)::int as n from sales where ${salesWhere} group by 1`,
      [from, to, null, null],
    );
    for (const r of byMonth) expect(g.ventas?.by_month[r.m - 1].value).toBe(r.n);
    expect(g.ventas?.by_brand.reduce((s, b) => s + b.value, 0)).toBe(sales);
    const daily = await one(
      'select coalesce(sum(units), 0)::int as v from daily_sales where sale_date between $1 and $2',
      [from, to],
    );
    expect(g.ventas?.daily.value).toBe(daily);

    // Encuestas: the same sales, invitations and answers as Satisfaccion de Cliente's Cobertura.
    const stats = await api(t.app, 'GET', `/api/table-stats?year=${year}`, { token: admin });
    const cobertura = stats.body.result.cobertura as {
      sales: number;
      invitations: number;
      responses: number;
    }[];
    const total = (k: 'sales' | 'invitations' | 'responses') => cobertura.reduce((s, r) => s + r[k], 0);
    expect(g.encuestas?.sales).toBe(total('sales'));
    expect(g.encuestas?.invitations).toBe(total('invitations'));
    expect(g.encuestas?.responses).toBe(total('responses'));
    expect(g.encuestas?.coverage.value).toBe(pct(total('responses'), total('sales')));
    const ratings = await t.handle.query<{ top: number; all: number }>(
      `select count(*) filter (where a.rating = 4)::int as top, count(a.rating)::int as all
         from quiz_answers a join quiz_responses r on r.id = a.response_id
         join quizzes q on q.id = r.quiz_id and q.kind = 'sales'
         join sales s on s.id = r.sale_id where s.sale_date between $1 and $2`,
      [from, to],
    );
    expect(ratings[0].all).toBeGreaterThan(0);
    expect(g.encuestas?.top_box.value).toBe(pct(ratings[0].top, ratings[0].all));
    // The year before: the same days (as coverage beside it), not the whole year.
    const ratingsPrev = await t.handle.query<{ top: number; all: number }>(
      `select count(*) filter (where a.rating = 4)::int as top, count(a.rating)::int as all
         from quiz_answers a join quiz_responses r on r.id = a.response_id
         join quizzes q on q.id = r.quiz_id and q.kind = 'sales'
         join sales s on s.id = r.sale_id where s.sale_date between $1 and $2`,
      [d.period.prev_from, d.period.prev_to],
    );
    expect(ratingsPrev[0].all).toBeGreaterThan(0);
    expect(g.encuestas?.top_box.previous).toBe(pct(ratingsPrev[0].top, ratingsPrev[0].all));

    // Despachos: the Objetivos screen's totals for the same year, to date.
    const objectives = await api(t.app, 'GET', `/api/objectives-summary?year=${year}`, { token: admin });
    const totals = objectives.body.result.totals;
    expect(g.despachos?.dispatched.value).toBe(totals.units);
    expect(g.despachos?.objective).toBe(totals.objective);
    expect(g.despachos?.pacing).toBe(pct(totals.units, totals.objective_to_date));
    const dispatched = await one(
      'select coalesce(sum(units), 0)::int as v from dispatches where dispatch_date between $1 and $2',
      [from, to],
    );
    expect(g.despachos?.dispatched.value).toBe(dispatched);

    // Cifras: the compliance of each concept is the Resumen comparativo's for the month shown.
    const cifras = g.cifras;
    if (!cifras) throw new Error('sin cifras');
    const month = cifras.month;
    const resumen = await api(t.app, 'GET', `/api/resumen-comparativo?year=${year}&month=${month}`, {
      token: admin,
    });
    const rows = resumen.body.result.rows as { code: string; ytd: number; ytd_compliance: number | null }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const c = cifras.concepts.find((x) => x.code === r.code);
      if (!c) throw new Error(`falta ${r.code}`);
      expect(c.ytd).toBe(r.ytd);
      expect(c.ytd_compliance).toBe(
        r.ytd_compliance === null ? null : Math.round(r.ytd_compliance * 1000) / 10,
      );
    }

    // Seguimiento: survey alerts open today (the Alertas tab's "abiertas").
    const openAlerts = await one('select count(*)::int as v from quiz_alerts where closed_at is null');
    expect(openAlerts).toBeGreaterThan(0);
    expect(g.seguimiento?.open_alerts.value).toBe(openAlerts);
    expect(g.seguimiento?.alerts_by_age.reduce((s, b) => s + b.count, 0)).toBe(openAlerts);

    // Agreements: every agreement open at the end of the period (today: this year is under way),
    // whatever its due date — what the agreements screen's summary says above its list.
    const agreements = await api(t.app, 'GET', '/api/agreements-summary', { token: admin });
    expect(g.seguimiento?.open_agreements.value).toBe(agreements.body.result.open);
    expect(g.seguimiento?.overdue_agreements).toBe(agreements.body.result.overdue);
    expect(g.seguimiento?.agreements_by_age).toEqual(agreements.body.result.buckets);
    const open = await one(
      `select count(*)::int as v from agreements where status in ('pending', 'in_progress')`,
    );
    expect(open).toBeGreaterThan(0);
    expect(g.seguimiento?.open_agreements.value).toBe(open);

    // Workshop: productivity = hours worked ÷ available hours of the dealer-months that reported.
    const w = await workshopSums(year);
    expect(w.available).toBeGreaterThan(0);
    const hours = await one('select sum(hours_worked)::float8 as v from workshop_infos where year = $1', [
      year,
    ]);
    expect(g.taller?.hours_worked).toBeCloseTo(hours, 2);
    // Every demo dealer-month has its capacities, so the ratio is over all the hours worked.
    expect(w.worked).toBeCloseTo(hours, 2);
    expect(g.taller?.productivity.value).toBe(Math.round((hours / w.available) * 1000) / 10);
    // The year before, over its own dealer-months with capacities (the whole year is the period).
    const wp = await workshopSums(year - 1);
    expect(g.taller?.productivity.previous).toBe(Math.round((wp.worked / wp.available) * 1000) / 10);
    const report = await api(t.app, 'GET', `/api/reports/report-info?year=${year}`, { token: admin });
    const reported = report.body.result as {
      month: number;
      hours_worked: number;
      available_hours: number | null;
    }[];
    const first = reported[0].month;
    const inMonth = reported.filter((r) => r.month === first && r.available_hours !== null);
    const ratio =
      inMonth.reduce((a, r) => a + r.hours_worked, 0) /
      inMonth.reduce((a, r) => a + (r.available_hours ?? 0), 0);
    expect(g.taller?.by_month[first - 1].value).toBe(Math.round(ratio * 1000) / 10);
  });

  it('a month and a brand: only their sales and dispatches, compared with the same month a year before', async () => {
    const month = Number(today.slice(5, 7)) > 1 ? Number(today.slice(5, 7)) - 1 : 1;
    const [brand] = await t.handle.query<{ id: number }>(
      'select manufacturer_id as id from sales group by 1 order by count(*) desc limit 1',
    );
    const d = await dashboard(`year=${year}&month=${month}&manufacturer_id=${brand.id}`);
    const { from, to, prev_from, prev_to } = d.period;
    expect(from).toBe(`${year}-${String(month).padStart(2, '0')}-01`);
    expect(prev_from).toBe(`${year - 1}-${String(month).padStart(2, '0')}-01`);
    const sales = await one(`select count(*)::int as v from sales where ${salesWhere}`, [
      from,
      to,
      null,
      brand.id,
    ]);
    const before = await one(`select count(*)::int as v from sales where ${salesWhere}`, [
      prev_from,
      prev_to,
      null,
      brand.id,
    ]);
    expect(d.groups.ventas?.sales).toEqual({ value: sales, previous: before });
    expect(d.groups.ventas?.by_brand.map((b) => b.manufacturer_id)).toEqual(sales ? [brand.id] : []);
    const objectives = await api(
      t.app,
      'GET',
      `/api/objectives-summary?year=${year}&month=${month}&manufacturer_id=${brand.id}`,
      { token: admin },
    );
    expect(d.groups.despachos?.dispatched.value).toBe(objectives.body.result.totals.units);
    expect(d.groups.despachos?.objective).toBe(objectives.body.result.totals.objective);
    // Seguimiento: the survey alerts of the brand's sales open at the end of the period.
    const openAt = `select count(*)::int as v from quiz_alerts a join sales s on s.id = a.sale_id
      where s.manufacturer_id = $1 and a.opened_at <= $2 and (a.closed_at is null or a.closed_at > $2)`;
    const alerts = await one(openAt, [brand.id, limaEndOfDay(to).toISOString()]);
    const alertsBefore = await one(openAt, [brand.id, limaEndOfDay(prev_to).toISOString()]);
    expect(d.groups.seguimiento?.open_alerts).toEqual({ value: alerts, previous: alertsBefore });
    expect(d.groups.seguimiento?.alerts_by_age.reduce((s, b) => s + b.count, 0)).toBe(alerts);
  });

  it("a dealer user sees its own dealer; another dealer's id is not found", async () => {
    const asked = await api(t.app, 'GET', `/api/dash-widgets?year=${year}&dealer_id=${otherDealerId}`, {
      token: dealerToken,
    });
    expect(asked.status).toBe(404);
    const d = await dashboard(`year=${year}`, dealerToken);
    expect(d.filter.dealer_id).toBe(dealerId);
    const { from, to } = d.period;
    const own = await one(`select count(*)::int as v from sales where ${salesWhere}`, [
      from,
      to,
      dealerId,
      null,
    ]);
    expect(own).toBeGreaterThan(0);
    expect(d.groups.ventas?.sales.value).toBe(own);
    const dispatched = await one(
      'select coalesce(sum(units), 0)::int as v from dispatches where dispatch_date between $1 and $2 and dealer_id = $3',
      [from, to, dealerId],
    );
    expect(d.groups.despachos?.dispatched.value).toBe(dispatched);
    const alerts = await one(
      'select count(*)::int as v from quiz_alerts where closed_at is null and dealer_id = $1',
      [dealerId],
    );
    expect(d.groups.seguimiento?.open_alerts.value).toBe(alerts);
    // Open today, whatever the due date (as for the network above): on 31 December one is due tomorrow.
    const agreements = await one(
      `select count(*)::int as v from agreements where status in ('pending', 'in_progress') and dealer_id = $1`,
      [dealerId],
    );
    expect(d.groups.seguimiento?.open_agreements.value).toBe(agreements);
    // The same numbers as its own screens: Satisfaccion de Cliente for its dealer.
    const stats = await api(t.app, 'GET', `/api/table-stats?year=${year}`, { token: dealerToken });
    expect(stats.body.result.cobertura.map((r: { dealer_id: number }) => r.dealer_id)).toEqual([dealerId]);
    expect(d.groups.encuestas?.sales).toBe(stats.body.result.cobertura[0].sales);
  });

  it('each widget call answers its group, the same as the whole dashboard', async () => {
    const whole = await dashboard(`year=${year}`);
    const summary = await api(t.app, 'GET', `/api/dashboard/summary?schema=encuestas&year=${year}`, {
      token: admin,
    });
    expect(summary.body.result.result).toEqual(whole.groups.encuestas);
    const sales = await api(t.app, 'GET', `/api/widget-sales?year=${year}`, { token: admin });
    expect(sales.body.result).toEqual(whole.groups.ventas);
    const figures = await api(t.app, 'GET', `/api/widget-figures?year=${year}`, { token: admin });
    expect(figures.body.result).toEqual(whole.groups.cifras);
    const quizzes = await api(t.app, 'GET', `/api/widget-quizzes?year=${year}`, { token: admin });
    expect(quizzes.body.result).toEqual(whole.groups.encuestas);
    const tickets = await api(t.app, 'GET', `/api/dash-tickets?year=${year}`, { token: admin });
    expect(tickets.body.result).toEqual(whole.groups.seguimiento);
    const chart = await api(t.app, 'GET', `/api/chart-compliance?year=${year}`, { token: admin });
    expect(chart.body.result.length).toBe(
      whole.groups.cifras?.concepts.filter((c) => c.ytd_compliance !== null).length,
    );
    const cards = await api(t.app, 'GET', `/api/dash-figures?year=${year}`, { token: admin });
    expect(cards.body.result.cards.sales).toEqual(whole.groups.ventas?.sales);
    expect(cards.body.result.cards.pacing).toBe(whole.groups.despachos?.pacing);
  });

  it('every widget call answers what /api/docs says (its result schema), for the network, a month and a dealer user', async () => {
    const calls: [string, z.ZodType][] = [
      ['/api/dash-widgets', dashboardResults.widgets],
      ['/api/dash-figures', dashboardResults.figures],
      ['/api/dashboard/indicators', dashboardResults.indicators],
      ['/api/chart-compliance', dashboardResults.compliance],
      ['/api/widget-sales', dashboardGroupSchemas.ventas],
      ['/api/widget-quizzes', dashboardGroupSchemas.encuestas],
      ['/api/widget-figures', dashboardGroupSchemas.cifras],
      ['/api/dash-tickets', dashboardGroupSchemas.seguimiento],
      ...(['despachos', 'taller'] as const).map(
        (s) => [`/api/dashboard/summary?schema=${s}`, dashboardCalls.summary.result] as [string, z.ZodType],
      ),
    ];
    const wrong: string[] = [];
    for (const [query, token] of [
      [`year=${year}`, admin],
      [`year=${year}&month=1`, admin],
      [`year=${year}`, dealerToken],
    ] as const) {
      for (const [path, schema] of calls) {
        const url = `${path}${path.includes('?') ? '&' : '?'}${query}`;
        const res = await api(t.app, 'GET', url, { token });
        expect(res.status, url).toBe(200);
        const parsed = schema.safeParse(res.body.result);
        if (!parsed.success) wrong.push(`${url}: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  // The survey statistics read whole months from the monthly summaries (migration 0023) and the
  // month the period cuts from the raw rows: the same answers as from the raw rows alone.
  it('the survey summaries of the demo network equal a recomputation; the statistics equal the raw ones', async () => {
    const { differing, kept } = await summaryDifferences(t.handle);
    expect(differing).toEqual([]);
    expect(kept.sales).toBeGreaterThan(12);
    expect(kept.answers).toBeGreaterThan(12);
    const all = resolveScope({ isDealer: false, dealerId: null });
    const own = resolveScope({ isDealer: true, dealerId });
    const [brand] = await t.handle.query<{ id: number }>('select min(manufacturer_id)::int as id from sales');
    const yearBefore = (d: string) => `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
    for (const scope of [all, own])
      for (const f of [
        { year, until: today },
        { year: year - 1, until: yearBefore(today) },
        { year: year - 1 },
        { year, month: Number(today.slice(5, 7)), until: today },
        { year: year - 1, month: 6, manufacturerId: brand.id },
      ]) {
        const stats = await tableStats(t.handle.db, { ...f, scope });
        expect(stats, JSON.stringify(f)).toEqual(
          await tableStats(t.handle.db, { ...f, scope }, { raw: true }),
        );
        const trend = await surveyTrend(t.handle.db, { ...f, scope });
        expect(trend, JSON.stringify(f)).toEqual(
          await surveyTrend(t.handle.db, { ...f, scope }, { raw: true }),
        );
      }
    const whole = await tableStats(t.handle.db, { year: year - 1, scope: all });
    expect(whole.cobertura.length).toBeGreaterThan(0);
    expect(whole.ranking.ranked.length + whole.ranking.insufficient.length).toBeGreaterThan(0);
  });

  it('answers bad filters with a Spanish message on the field', async () => {
    const old = await api(t.app, 'GET', '/api/dash-widgets?year=1990', { token: admin });
    expect(old.status).toBe(422);
    expect(old.body.error.validationErrors[0].field).toBe('year');
    const month = await api(t.app, 'GET', `/api/dash-widgets?year=${year}&month=13`, { token: admin });
    expect(month.status).toBe(422);
    const schema = await api(t.app, 'GET', '/api/dashboard/summary?schema=otra', { token: admin });
    expect(schema.status).toBe(422);
    expect(schema.body.error.validationErrors[0].message).toContain('ventas');
    const brand = await api(t.app, 'GET', '/api/dash-widgets?manufacturer_id=999999', { token: admin });
    expect(brand.status).toBe(422);
    expect(brand.body.error.validationErrors[0].message).toBe('Marca no existe');
  });
});

/** Hours worked and available hours of a year's dealer-months that have capacities (productivity's two sides). */
async function workshopSums(year: number) {
  const [sums] = await t.handle.query<{ worked: number; available: number }>(
    `with m as (select dealer_id, month, sum(hours_worked)::float8 as worked from workshop_infos
                    where year = $1 group by 1, 2),
            c as (select dealer_id, month, sum(available_hours)::float8 as available from capacities
                    where year = $1 group by 1, 2)
       select sum(m.worked) filter (where c.available is not null)::float8 as worked,
              sum(c.available)::float8 as available
         from m left join c using (dealer_id, month)`,
    [year],
  );
  return sums;
}
