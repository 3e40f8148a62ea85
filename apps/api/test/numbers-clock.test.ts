// Numbers a manager acts on, recomputed here: workshop productivity over the same dealer-months on
// both sides, and the defaults and "not begun" rules on Lima's clock at 22:00 on 31 December (when
// UTC's year is already the next one) and at 23:30 on any day.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { limaToday, limaYear, pinClock } from '../src/core/lima';
import { api, createTestApp, login, type TestContext, testClockInstant } from './harness';

let t: TestContext;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
}, 300_000);
afterAll(() => t?.close());
// Each test may move the clock; the next one starts from the suite's.
afterEach(() => pinClock(testClockInstant()));

async function dealerWithBranch(code: string): Promise<{ dealer: number; branch: number }> {
  const d = await api(t.app, 'POST', '/api/dealers', {
    token: admin,
    body: { code, name: `Taller ${code}` },
  });
  expect(d.status, JSON.stringify(d.body)).toBe(200);
  const [b] = await t.handle.query<{ id: number }>(
    "insert into dealer_branches (dealer_id, name) values ($1, 'Sede') returning id",
    [d.body.result.id],
  );
  return { dealer: d.body.result.id, branch: b.id };
}

async function workshopMonth(w: { dealer: number; branch: number }, month: number, worked: number) {
  await t.handle.query(
    `insert into workshop_infos (dealer_id, dealer_branch_id, year, month, work_orders_opened,
       work_orders_closed, hours_sold, hours_worked, labour_revenue, parts_revenue)
     values ($1, $2, 2025, $3, 10, 10, $4, $4, 1000, 1000)`,
    [w.dealer, w.branch, month, worked],
  );
}

async function capacity(w: { dealer: number; branch: number }, month: number, available: number) {
  await t.handle.query(
    `insert into capacities (dealer_id, dealer_branch_id, year, month, bays, technicians, hours_per_day,
       working_days, available_hours) values ($1, $2, 2025, $3, 1, 1, 1, 1, $4)`,
    [w.dealer, w.branch, month, available],
  );
}

describe('workshop productivity', () => {
  it('covers the same dealer-months on both sides: a dealer without capacities does not raise it', async () => {
    const a = await dealerWithBranch('TALA');
    const b = await dealerWithBranch('TALB');
    // A: 80 h worked of 100 available in March; B worked 500 h but loaded no capacity.
    await workshopMonth(a, 3, 80);
    await capacity(a, 3, 100);
    await workshopMonth(b, 3, 500);
    const res = await api(t.app, 'GET', '/api/dashboard/summary?schema=taller&year=2025&month=3', {
      token: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const taller = res.body.result.result;
    expect(taller.productivity.value).toBe(80);
    // The card and its own monthly chart say the same.
    expect(taller.by_month[2].value).toBe(80);
    // All the hours worked are still reported as such.
    expect(taller.hours_worked).toBe(580);
  });
});

describe("Lima's clock at the year's end", () => {
  it('at 22:00 on 31 December in Lima the defaults are this year and January is not open yet', async () => {
    const year = limaYear();
    pinClock(`${year}-12-31T22:00:00-05:00`);
    expect(limaToday()).toBe(`${year}-12-31`);
    // UTC's date is already 1 January of next year; every default stays in Lima's year.
    const resumen = await api(t.app, 'GET', '/api/resumen-comparativo', { token: admin });
    expect(resumen.status, JSON.stringify(resumen.body)).toBe(200);
    expect(resumen.body.result).toMatchObject({ year, month: 12 });
    const figures = await api(t.app, 'GET', '/api/figures', { token: admin });
    expect(figures.status, JSON.stringify(figures.body)).toBe(200);
    expect(figures.body.result.figures.year).toBe(year);
    const report = await api(t.app, 'GET', '/api/reports/report-info', { token: admin });
    expect(report.status).toBe(200);
    const dashboard = await api(t.app, 'GET', '/api/dash-widgets', { token: admin });
    expect(dashboard.body.result.filter.year).toBe(year);
    expect(dashboard.body.result.period.to).toBe(`${year}-12-31`);
    // Next year is not a report's year yet…
    const ahead = await api(t.app, 'GET', `/api/resumen-comparativo?year=${year + 1}&month=1`, {
      token: admin,
    });
    expect(ahead.status).toBe(422);
    expect(ahead.body.error.validationErrors).toEqual([{ field: 'year', message: 'Año no es válido' }]);
    // …and its January cannot be opened for figures.
    const enable = await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year: year + 1, month: 1, all: true },
    });
    expect(enable.status).toBe(422);
    expect(enable.body.error.validationErrors[0].field).toBe('month');
    // December, this month in Lima, can.
    const december = await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year, month: 12, all: true },
    });
    expect(december.status, JSON.stringify(december.body)).toBe(200);
  });

  it('at 23:30 in Lima a sale dated tomorrow in Lima is still in the future', async () => {
    const year = limaYear();
    pinClock(`${year}-06-15T23:30:00-05:00`);
    // UTC's day is already the 16th; Lima's is the 15th.
    const [{ id: dealer }] = await t.handle.query<{ id: number }>(
      'select id from dealers order by id limit 1',
    );
    const res = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: { dealer_id: dealer, sale_date: `${year}-06-16` },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toContainEqual({
      field: 'sale_date',
      message: 'Fecha Venta no puede ser una fecha futura',
    });
  });
});
