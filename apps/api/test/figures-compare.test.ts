// resumen-comparativo and compliance against values computed here, independently: a month
// against the same month a year before, the year to date of both years and their variation,
// for one dealer and for all; fees and compliance (inverted for lower-is-better concepts). Also
// the fees grid: its batch is the manufacturer's, all cells or none, and a dealer reads its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let concepts: { id: number; code: string }[];
const Y = 2025;
const M = 5;

const cid = (code: string) => concepts.find((c) => c.code === code)!.id;

/** figures[dealer][year][month] for three concepts; some months left empty on purpose. */
type Series = Record<string, Record<number, (number | null)[]>>;
const series = (seed: number, base: number, spread: number, gaps: number[] = []) => {
  const out: (number | null)[] = [];
  for (let m = 1; m <= 12; m++)
    out.push(gaps.includes(m) ? null : Math.round((base + ((seed * m * 37) % spread)) * 10) / 10);
  return out;
};
const data: Record<number, Series> = {};
const feeData: Record<number, Record<string, (number | null)[]>> = {};

async function load(dealer: { dealerId: number; token: string }, k: number) {
  data[dealer.dealerId] = {
    VN_UND: { 2024: series(k, 30, 20), 2025: series(k + 1, 35, 20) },
    // Dealer b also misses April: the network averages its dealers, not their dealer-months.
    CSI_VTA: { 2024: series(k, 80, 15), 2025: series(k + 2, 82, 15, k === 7 ? [2, 4] : [2]) },
    PERM_DIAS: { 2024: series(k, 3, 2), 2025: series(k + 3, 2.5, 2) },
  };
  feeData[dealer.dealerId] = {
    // Dealer a has no April fee: its April figure stays out of the accumulated compliance.
    VN_UND: series(k, 40, 10, k === 3 ? [4] : []),
    CSI_VTA: series(k, 85, 5),
    PERM_DIAS: series(k, 3, 1),
  };
  for (const year of [2024, 2025]) {
    for (let m = 1; m <= 12; m++) {
      const res = await api(t.app, 'POST', '/api/figures/enable', {
        token: admin,
        body: { year, month: m, dealer_ids: [dealer.dealerId] },
      });
      expect(res.status).toBe(200);
    }
    const values = Object.entries(data[dealer.dealerId]).flatMap(([code, years]) =>
      years[year].map((value, i) => ({ concept_id: cid(code), month: i + 1, value })),
    );
    const res = await api(t.app, 'PUT', '/api/figure-batch', { token: dealer.token, body: { year, values } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const fees = Object.entries(feeData[dealer.dealerId]).flatMap(([code, months]) =>
    months.map((value, i) => ({ concept_id: cid(code), month: i + 1, value })),
  );
  const res = await api(t.app, 'PUT', '/api/fees-batch', {
    token: admin,
    body: { year: Y, dealer_id: dealer.dealerId, values: fees },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  concepts = (await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin })).body.result;
  await load(a, 3);
  await load(b, 7);
}, 300_000);
afterAll(() => t?.close());

// ---- the expected values, computed here from the series ----
// The definitions (docs/decisions.md): a dealer's months add up by the concept's aggregation
// ('%' and days in the workshop average, units add up); the network is the average of its
// dealers for an average, their sum otherwise; compliance compares the figures and the fees of
// the same dealer-months (those with both).
const present = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
const sum = (xs: (number | null)[]) => (present(xs).length ? present(xs).reduce((p, q) => p + q, 0) : null);
const avg = (xs: (number | null)[]) => (present(xs).length ? sum(xs)! / present(xs).length : null);
const averaged = (code: string) => code === 'CSI_VTA' || code === 'PERM_DIAS';
const agg = (code: string, xs: (number | null)[]) => (averaged(code) ? avg(xs) : sum(xs));
/** Each dealer's months first, then the dealers. */
const network = (code: string, dealers: number[], months: (d: number) => (number | null)[]) =>
  agg(
    code,
    dealers.map((d) => agg(code, months(d))),
  );

function expected(code: string, dealers: number[]) {
  const upToM = (xs: (number | null)[]) => xs.slice(0, M);
  const fig = (d: number, year: number) => data[d][code][year];
  const fees = (d: number) => feeData[d][code];
  /** Months 1..M of dealer d with a figure and a fee: the other side's value left out too. */
  const paired = (d: number, side: 'fig' | 'fee') =>
    upToM(fig(d, Y)).map((f, i) => {
      const q = fees(d)[i];
      return f === null || q === null ? null : side === 'fig' ? f : q;
    });
  const month = network(code, dealers, (d) => [fig(d, Y)[M - 1]]);
  const prev = network(code, dealers, (d) => [fig(d, Y - 1)[M - 1]]);
  const ytd = network(code, dealers, (d) => upToM(fig(d, Y)));
  const ytdPrev = network(code, dealers, (d) => upToM(fig(d, Y - 1)));
  const fee = network(code, dealers, (d) => [fees(d)[M - 1]]);
  const ytdFee = network(code, dealers, (d) => upToM(fees(d)));
  const lowerBetter = code === 'PERM_DIAS';
  const comp = (f: number | null, q: number | null) =>
    f === null || q === null ? null : lowerBetter ? q / f : f / q;
  return {
    month,
    month_prev: prev,
    month_var: month! - prev!,
    month_var_pct: (month! - prev!) / Math.abs(prev!),
    ytd,
    ytd_prev: ytdPrev,
    ytd_var: ytd! - ytdPrev!,
    ytd_var_pct: (ytd! - ytdPrev!) / Math.abs(ytdPrev!),
    fee,
    compliance: comp(month, fee),
    ytd_fee: ytdFee,
    ytd_compliance: comp(
      network(code, dealers, (d) => paired(d, 'fig')),
      network(code, dealers, (d) => paired(d, 'fee')),
    ),
  };
}

function expectClose(actual: Record<string, number | null>, want: Record<string, number | null>) {
  for (const [k, v] of Object.entries(want)) {
    if (v === null) expect(actual[k], k).toBeNull();
    else expect(actual[k], k).toBeCloseTo(v, 6);
  }
}

describe('resumen-comparativo', () => {
  it('compares one dealer: month, same month last year, year to date and variation, with compliance', async () => {
    const res = await api(
      t.app,
      'GET',
      `/api/resumen-comparativo?year=${Y}&month=${M}&dealer_id=${a.dealerId}`,
      {
        token: admin,
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ year: Y, month: M, dealer_id: a.dealerId });
    for (const code of ['VN_UND', 'CSI_VTA', 'PERM_DIAS']) {
      const row = res.body.result.rows.find((r: { code: string }) => r.code === code);
      expectClose(row, expected(code, [a.dealerId]));
    }
    // A concept without figures answers nulls, not zeros.
    const empty = res.body.result.rows.find((r: { code: string }) => r.code === 'ACC_PEN');
    expect(empty).toMatchObject({ month: null, ytd: null, month_var: null, compliance: null });
  });

  it('compares every dealer: units add up, percentages average', async () => {
    const res = await api(t.app, 'GET', `/api/resumen-comparativo?year=${Y}&month=${M}`, { token: admin });
    for (const code of ['VN_UND', 'CSI_VTA', 'PERM_DIAS']) {
      const row = res.body.result.rows.find((r: { code: string }) => r.code === code);
      expectClose(row, expected(code, [a.dealerId, b.dealerId]));
    }
  });

  it("a month-end stock ('last'): each dealer's latest month with a value, added over the dealers", async () => {
    await t.handle.query(`update concepts set aggregation = 'last' where id = $1`, [cid('VN_UND')]);
    try {
      const res = await api(t.app, 'GET', `/api/resumen-comparativo?year=${Y}&month=${M}`, { token: admin });
      const row = res.body.result.rows.find((r: { code: string }) => r.code === 'VN_UND');
      const latest = (xs: (number | null)[]) => present(xs).at(-1) ?? null;
      const dealers = [a.dealerId, b.dealerId];
      const ytd = sum(dealers.map((d) => latest(data[d].VN_UND[Y].slice(0, M))));
      const ytdPrev = sum(dealers.map((d) => latest(data[d].VN_UND[Y - 1].slice(0, M))));
      expect(row.ytd).toBeCloseTo(ytd!, 6);
      expect(row.ytd_prev).toBeCloseTo(ytdPrev!, 6);
      expect(row.ytd_fee).toBeCloseTo(sum(dealers.map((d) => latest(feeData[d].VN_UND.slice(0, M))))!, 6);
    } finally {
      await t.handle.query(`update concepts set aggregation = 'sum' where id = $1`, [cid('VN_UND')]);
    }
  });

  it('answers a dealer user its own dealer whatever it asks, and 404 for another', async () => {
    const own = await api(t.app, 'GET', `/api/resumen-comparativo?year=${Y}&month=${M}`, { token: a.token });
    expect(own.body.result.dealer_id).toBe(a.dealerId);
    const row = own.body.result.rows.find((r: { code: string }) => r.code === 'VN_UND');
    expectClose(row, expected('VN_UND', [a.dealerId]));
    const other = await api(
      t.app,
      'GET',
      `/api/resumen-comparativo?year=${Y}&month=${M}&dealer_id=${b.dealerId}`,
      {
        token: a.token,
      },
    );
    expect(other.status).toBe(404);
  });
});

describe('fees grid', () => {
  it('reads the year per dealer; a dealer user reads only its own', async () => {
    const res = await api(t.app, 'GET', `/api/fees?year=${Y}&dealer_id=${a.dealerId}`, { token: admin });
    expect(res.status).toBe(200);
    const vn = res.body.result.fees.values.filter(
      (v: { concept_id: number }) => v.concept_id === cid('VN_UND'),
    );
    expect(
      vn
        .sort((x: { month: number }, y: { month: number }) => x.month - y.month)
        .map((v: { value: number }) => v.value),
    ).toEqual(feeData[a.dealerId].VN_UND.filter((v) => v !== null));
    const mine = await api(t.app, 'GET', `/api/fees?year=${Y}`, { token: a.token });
    expect(mine.body.result.fees.dealers.map((d: { id: number }) => d.id)).toEqual([a.dealerId]);
    expect(
      (await api(t.app, 'GET', `/api/fees?year=${Y}&dealer_id=${b.dealerId}`, { token: a.token })).status,
    ).toBe(404);
  });

  it('is written by the manufacturer only, all cells or none', async () => {
    const cell = { concept_id: cid('VN_UND'), month: 1, value: 1 };
    const byDealer = await api(t.app, 'PUT', '/api/fees-batch', {
      token: a.token,
      body: { year: Y, values: [cell] },
    });
    expect(byDealer.status).toBe(403);
    const bad = await api(t.app, 'PUT', '/api/fees-batch', {
      token: admin,
      body: {
        year: Y,
        dealer_id: a.dealerId,
        values: [
          { ...cell, value: 555 },
          { concept_id: 999999, month: 2, value: 3 },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors).toEqual([
      { field: 'values.1.concept_id', message: 'El concepto no existe o no está habilitado' },
    ]);
    const [row] = await t.handle.query<{ value: string }>(
      'select value from fees where dealer_id = $1 and year = $2 and month = 1 and concept_id = $3',
      [a.dealerId, Y, cid('VN_UND')],
    );
    expect(Number(row.value)).toBe(feeData[a.dealerId].VN_UND[0]);
  });
});
