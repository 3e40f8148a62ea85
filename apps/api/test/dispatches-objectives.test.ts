// Objectives (JSON, Formato_Objetivos.xlsx upload and template), objectives-summary with the
// month-to-date pace, transaction-summary and dealer-models, in the dealer scope; figures are
// compared with sums the test computes from the rows it wrote.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { multipart, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let dealerToken: string;
let aId: number;
let bId: number;
let codeA: string;
let codeB: string;
let brandV: number;
let brandN: number;
let polo: number;
const vin = vinFactory();
/** Units dispatched per `${dealer}|${brand}|${date}` as the test wrote them. */
const written: { dealer: number; brand: number; date: string; units: number; model: number | null }[] = [];

async function dispatch(
  dealer: number,
  brand: number,
  date: string,
  units: number,
  model: number | null = null,
) {
  written.push({ dealer, brand, date, units, model });
  await t.handle.query(
    `insert into dispatches (dealer_id, manufacturer_id, manufacturer_model_id, model_name, vin, dispatch_date, units, source)
     values ($1, $2, $3, 'Modelo', $4, $5, $6, 'Manual')`,
    [dealer, brand, model, vin(), date, units],
  );
}

/** Formato_Objetivos.xlsx's header row, as SPEC names the columns (the month names are short). */
const OBJECTIVES_HEADER = [
  'Concesionario',
  'Marca',
  'Año',
  'Ene',
  'Feb',
  'Mar',
  'Abr',
  'May',
  'Jun',
  'Jul',
  'Ago',
  'Set',
  'Oct',
  'Nov',
  'Dic',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  codeA = uniq('OA');
  const a = await createDealerUser(t.app, admin, codeA);
  aId = a.dealerId;
  dealerToken = a.token;
  codeB = uniq('OB');
  bId = (
    await api(t.app, 'POST', '/api/dealers', { token: admin, body: { code: codeB, name: 'Beta Objetivos' } })
  ).body.result.id;
  const brands = await t.handle.query<{ id: number; code: string }>('select id, code from manufacturers');
  brandV = brands.find((b) => b.code === 'V')!.id;
  brandN = brands.find((b) => b.code === 'N')!.id;
  polo = (
    await api(t.app, 'POST', '/api/manufacturer-models', {
      token: admin,
      body: { manufacturer_id: brandV, name: 'Polo' },
    })
  ).body.result.id;
  // March 2025: A dispatches V on the 3rd, 10th, 14th and 20th; B on the 5th; N for A on the 12th.
  await dispatch(aId, brandV, '2025-03-03', 2, polo);
  await dispatch(aId, brandV, '2025-03-10', 3, polo);
  await dispatch(aId, brandV, '2025-03-14', 1);
  await dispatch(aId, brandV, '2025-03-20', 4, polo);
  await dispatch(bId, brandV, '2025-03-05', 1);
  await dispatch(aId, brandN, '2025-03-12', 5);
  await dispatch(aId, brandV, '2025-01-20', 6);
  await dispatch(bId, brandV, '2025-02-02', 2);
});
afterAll(() => t?.close());

const objectiveCount = async () =>
  (await t.handle.query<{ n: number }>('select count(*)::int as n from dispatch_objectives'))[0].n;

describe('POST /api/dispatches-objectives (JSON)', () => {
  it('saves every row (by id or by code) and replaces an objective sent again', async () => {
    const res = await api(t.app, 'POST', '/api/dispatches-objectives', {
      token: admin,
      body: {
        rows: [
          { dealer_code: codeA, brand: 'V', year: 2025, month: 3, units: 31 },
          { dealer_id: bId, manufacturer_id: brandV, year: 2025, month: 3, units: 10 },
          { dealer_code: codeA, brand: 'Nissan', year: 2025, month: 3, units: 4 },
          { dealer_code: codeA, brand: 'V', year: 2025, month: 1, units: 5 },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 4, total: 4, failed: 0 });
    const again = await api(t.app, 'POST', '/api/dispatches-objectives', {
      token: admin,
      body: { rows: [{ dealer_code: codeA, brand: 'V', year: 2025, month: 1, units: 8 }] },
    });
    expect(again.body.result.saved).toBe(1);
    const [row] = await t.handle.query<{ units: number }>(
      'select units from dispatch_objectives where dealer_id = $1 and manufacturer_id = $2 and year = 2025 and month = 1',
      [aId, brandV],
    );
    expect(row.units).toBe(8);
  });

  it('saves nothing when a row is wrong, with a report per row', async () => {
    const before = await objectiveCount();
    const res = await api(t.app, 'POST', '/api/dispatches-objectives', {
      token: admin,
      body: {
        rows: [
          { dealer_code: codeA, brand: 'V', year: 2025, month: 6, units: 12 },
          { dealer_code: 'NOEXISTE', brand: 'V', year: 2025, month: 13, units: -1 },
          { dealer_code: codeA, brand: 'V', year: 2025, month: 6, units: 3 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 0, total: 3, failed: 2 });
    expect(res.body.result.report[1].errors).toEqual([
      'Concesionario "NOEXISTE" no existe',
      'Mes "13" no es válido (1 a 12)',
      'Objetivo "-1" no es válido (entero de 0 a 100000)',
    ]);
    expect(res.body.result.report[2].errors).toEqual(['Objetivo repetido: ya figura en la fila 1']);
    expect(await objectiveCount()).toBe(before);
  });

  it('is for the manufacturer: a dealer user cannot set objectives', async () => {
    const res = await api(t.app, 'POST', '/api/dispatches-objectives', {
      token: dealerToken,
      body: { rows: [{ dealer_code: codeA, brand: 'V', year: 2025, month: 3, units: 99 }] },
    });
    expect(res.status).toBe(403);
  });
});

describe('Formato_Objetivos.xlsx', () => {
  it('downloads the empty template with its header row', async () => {
    const res = await api(t.app, 'GET', '/api/dispatches-objectives/template', { token: admin });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('filename="Formato_Objetivos.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const header = (wb.worksheets[0].getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(OBJECTIVES_HEADER);
    expect(wb.worksheets[0].rowCount).toBe(1);
  });

  const upload = async (rows: unknown[][], token = admin) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Objetivos');
    ws.addRow(OBJECTIVES_HEADER);
    for (const r of rows) ws.addRow(r);
    const mp = multipart(Buffer.from(await wb.xlsx.writeBuffer()), 'Formato_Objetivos.xlsx');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dispatches-objectives/import',
      headers: { ...mp.headers, authorization: `Bearer ${token}` },
      payload: mp.payload,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('imports a row per dealer, brand and year with a column per month (blank months untouched)', async () => {
    const res = await upload([
      [codeB, 'V', 2025, 4, 4, null, 6, 6, 6, 7, 7, 7, 8, 8, 9],
      [codeB, 'N', 2025, 1, null, 2],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 13, total: 2, failed: 0 });
    const [{ n }] = await t.handle.query<{ n: number }>(
      'select sum(units)::int as n from dispatch_objectives where dealer_id = $1 and year = 2025',
      [bId],
    );
    // B's March V objective (10) was left as it was: 4+4+6+6+6+7+7+7+8+8+9 + 10 + 1+2.
    expect(n).toBe(4 + 4 + 6 + 6 + 6 + 7 + 7 + 7 + 8 + 8 + 9 + 10 + 1 + 2);
  });

  it('saves nothing from a file with a wrong cell, naming its row and month', async () => {
    const before = await objectiveCount();
    const res = await upload([
      [codeB, 'V', 2026, 1, 2, 3],
      [codeB, 'V', 2026, null, 'muchos'],
      [codeB, 'X', 2026],
    ]);
    expect(res.body.result).toMatchObject({ saved: 0, total: 3, failed: 2 });
    expect(res.body.result.report).toEqual([
      { row: 2, ok: true, errors: [] },
      { row: 3, ok: false, errors: ['Feb: Objetivo "muchos" no es válido (entero de 0 a 100000)'] },
      { row: 4, ok: false, errors: ['Marca "X" no existe', 'Objetivo es obligatorio'] },
    ]);
    expect(await objectiveCount()).toBe(before);
  });

  it('refuses a file that is not the template', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dispatches-objectives/import',
      headers: { ...multipart(Buffer.from('no es excel')).headers, authorization: `Bearer ${admin}` },
      payload: multipart(Buffer.from('no es excel')).payload,
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /api/objectives-summary', () => {
  it('on the 15th shows the objective prorated to the day and who is behind', async () => {
    const res = await api(
      t.app,
      'GET',
      `/api/objectives-summary?year=2025&month=3&as_of=2025-03-15&manufacturer=V`,
      {
        token: admin,
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.result;
    expect(s).toMatchObject({ year: 2025, month: 3, days_elapsed: 15, days_total: 31 });
    const expectedUnits = (dealer: number) =>
      written
        .filter(
          (w) =>
            w.dealer === dealer && w.brand === brandV && w.date >= '2025-03-01' && w.date <= '2025-03-15',
        )
        .reduce((a, w) => a + w.units, 0);
    const a = s.rows.find((r: { dealer_id: number }) => r.dealer_id === aId);
    const b = s.rows.find((r: { dealer_id: number }) => r.dealer_id === bId);
    // A: objective 31, 15 of 31 days → 15 to date; 6 units dispatched by the 15th.
    expect(a).toMatchObject({
      objective: 31,
      objective_to_date: 15,
      units: expectedUnits(aId),
      status: 'atrasado',
    });
    expect(a.units).toBe(6);
    expect(a.pacing).toBe(Math.round((6 / 15) * 1000) / 10);
    expect(a.compliance).toBe(Math.round((6 / 31) * 1000) / 10);
    // B: objective 10 → 150/31 ≈ 4.84 to date, exact (screens round it to show it); 1 unit, and
    // the pace from the exact value: 1 ÷ (150/31) = 20.7 %, not 1 ÷ 4.8 = 20.8 %.
    expect(b).toMatchObject({ objective: 10, units: 1, status: 'atrasado' });
    expect(b.objective_to_date).toBeCloseTo(150 / 31, 9);
    expect(b.pacing).toBe(Math.round((1 / (150 / 31)) * 1000) / 10);
    expect(s.totals.objective).toBe(41);
    // The totals add the exact rows (15 + 4.84 = 19.84), and their pace divides by that sum.
    expect(s.totals.objective_to_date).toBeCloseTo(15 + 150 / 31, 9);
    expect(s.pacing).toBe(Math.round((s.totals.units / (15 + 150 / 31)) * 1000) / 10);
    // At the end of the month the whole objective counts.
    const end = await api(
      t.app,
      'GET',
      `/api/objectives-summary?year=2025&month=3&as_of=2025-04-02&manufacturer=V`,
      {
        token: admin,
      },
    );
    const aEnd = end.body.result.rows.find((r: { dealer_id: number }) => r.dealer_id === aId);
    expect(aEnd).toMatchObject({ objective_to_date: 31, units: 10 });
  });

  it("the year's objective to date sums its months: complete months in full, the current one prorated", async () => {
    const months = await t.handle.query<{ month: number; units: number }>(
      'select month, units from dispatch_objectives where dealer_id = $1 and manufacturer_id = $2 and year = 2025',
      [aId, brandV],
    );
    const of = (m: number) => months.find((r) => r.month === m)?.units ?? 0;
    const yearTotal = months.reduce((a, r) => a + r.units, 0);
    const res = await api(t.app, 'GET', `/api/objectives-summary?year=2025&as_of=2025-03-15&manufacturer=V`, {
      token: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const a = res.body.result.rows.find((r: { dealer_id: number }) => r.dealer_id === aId);
    expect(a.objective).toBe(yearTotal);
    // Not the annual total × 74/365: January and February as loaded, March × 15/31.
    expect(a.objective_to_date).toBeCloseTo(of(1) + of(2) + (of(3) * 15) / 31, 9);
  });

  it('gives a dealer user its own dealer only', async () => {
    const res = await api(t.app, 'GET', '/api/objectives-summary?year=2025&month=3&as_of=2025-03-31', {
      token: dealerToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.rows.length).toBeGreaterThan(0);
    for (const r of res.body.result.rows) expect(r.dealer_id).toBe(aId);
    // Another dealer's id is not found, as any record of another dealer (the engine's dealer scope).
    const asked = await api(t.app, 'GET', `/api/objectives-summary?year=2025&month=3&dealer=${bId}`, {
      token: dealerToken,
    });
    expect(asked.status).toBe(404);
    expect(asked.body.error.message).toBe('El concesionario no existe');
  });

  it('answers 422 for an odd period or brand', async () => {
    for (const q of ['month=13', 'year=abc', 'as_of=ayer', 'manufacturer=ZZ']) {
      const res = await api(t.app, 'GET', `/api/objectives-summary?${q}`, { token: admin });
      expect(res.status, q).toBe(422);
    }
  });
});

describe('GET /api/transaction-summary and dealer-models', () => {
  it('answers units per dealer × month with totals, as summed from the rows', async () => {
    const res = await api(t.app, 'GET', '/api/transaction-summary?year=2025&months=1,2,3', { token: admin });
    expect(res.status).toBe(200);
    const s = res.body.result;
    expect(s.months).toEqual([1, 2, 3]);
    for (const dealer of [aId, bId]) {
      const row = s.rows.find((r: { dealer_id: number }) => r.dealer_id === dealer);
      for (const m of [1, 2, 3]) {
        const want = written
          .filter((w) => w.dealer === dealer && Number(w.date.slice(5, 7)) === m)
          .reduce((a, w) => a + w.units, 0);
        expect(row.months[m], `${dealer} ${m}`).toBe(want);
      }
      expect(row.total).toBe(written.filter((w) => w.dealer === dealer).reduce((a, w) => a + w.units, 0));
    }
    const grand = s.rows.reduce((a: number, r: { total: number }) => a + r.total, 0);
    expect(s.totals.total).toBe(grand);
    // A brand filter, and a dealer user's own row only.
    const v = await api(t.app, 'GET', '/api/transaction-summary?year=2025&months=3&manufacturer=N', {
      token: admin,
    });
    expect(v.body.result.rows.find((r: { dealer_id: number }) => r.dealer_id === aId).months[3]).toBe(5);
    const own = await api(t.app, 'GET', '/api/transaction-summary?year=2025', { token: dealerToken });
    expect(own.body.result.rows.map((r: { dealer_id: number }) => r.dealer_id)).toEqual([aId]);
  });

  it('lists the catalogue models dispatched to a dealer', async () => {
    const res = await api(t.app, 'GET', `/api/transaction/dealer-models?dealer=${aId}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.result.data).toEqual([
      {
        manufacturer_model_id: polo,
        model_name: 'Polo',
        manufacturer_id: brandV,
        manufacturer_name: 'Volkswagen',
        units: 9,
      },
    ]);
    const other = await api(t.app, 'GET', `/api/transaction/dealer-models?dealer=${aId}`, {
      token: (await createDealerUser(t.app, admin)).token,
    });
    expect(other.status).toBe(404);
  });
});
