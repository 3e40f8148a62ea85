// Daily sales (the month grid, its save, template and upload, in the dealer scope) and the named
// reports of SPEC §7, each read back with exceljs: file name, header block, frozen header, typed
// cells, formulas neutralised, and totals equal to sums the test computes from its own rows.
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
let polo: number;
let gol: number;
const vin = vinFactory();
const dispatched: { dealer: number; month: number; units: number }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  codeA = uniq('DA');
  const a = await createDealerUser(t.app, admin, codeA);
  aId = a.dealerId;
  dealerToken = a.token;
  codeB = uniq('DB');
  // A dealer name that looks like a formula: every report must show it as text.
  bId = (
    await api(t.app, 'POST', '/api/dealers', { token: admin, body: { code: codeB, name: '=HYPERLINK("x")' } })
  ).body.result.id;
  brandV = (await t.handle.query<{ id: number }>("select id from manufacturers where code = 'V'"))[0].id;
  const model = async (name: string) =>
    (
      await api(t.app, 'POST', '/api/manufacturer-models', {
        token: admin,
        body: { manufacturer_id: brandV, name },
      })
    ).body.result.id as number;
  polo = await model('Polo');
  gol = await model('Gol');
  // 2024: dispatches of V for both dealers, a few per month (seasonal: more in December).
  for (const [dealer, base] of [
    [aId, 3],
    [bId, 1],
  ] as const) {
    for (let m = 1; m <= 12; m++) {
      const units = base + (m % 4) + (m === 12 ? 5 : 0);
      dispatched.push({ dealer, month: m, units });
      await t.handle.query(
        `insert into dispatches (dealer_id, manufacturer_id, manufacturer_model_id, model_name, vin, dispatch_date, units, source)
         values ($1, $2, $3, 'Polo', $4, $5, $6, 'SIMA')`,
        [dealer, brandV, polo, vin(), `2024-${String(m).padStart(2, '0')}-15`, units],
      );
    }
  }
  await api(t.app, 'POST', '/api/dispatches-objectives', {
    token: admin,
    body: {
      rows: [
        { dealer_id: aId, manufacturer_id: brandV, year: 2024, month: 5, units: 8 },
        { dealer_id: bId, manufacturer_id: brandV, year: 2024, month: 5, units: 4 },
        { dealer_id: aId, manufacturer_id: brandV, year: 2024, month: 4, units: 6 },
      ],
    },
  });
});
afterAll(() => t?.close());

const entry = (dealer: number, model: number, day: number, units: number) => ({
  dealer_id: dealer,
  manufacturer_model_id: model,
  sale_date: `2024-05-${String(day).padStart(2, '0')}`,
  units,
});
const save = (entries: unknown[], token = admin) =>
  api(t.app, 'POST', '/api/daily-sales', { token, body: { entries } });
const grid = (token = admin, q = '') =>
  api(t.app, 'GET', `/api/daily-sales?year=2024&month=5${q}`, { token });

/** Formato_Daily of May 2024 for dealer A (brand V), as a workbook. */
async function mayTemplate() {
  const res = await api(
    t.app,
    'GET',
    `/api/daily-sales/template?year=2024&month=5&manufacturer=V&dealer=${aId}`,
    {
      token: admin,
    },
  );
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.raw as never);
  return { res, wb, ws: wb.worksheets[0] };
}

/** A model's row of the template. */
const modelRow = (ws: ExcelJS.Worksheet, model: string) =>
  (ws.getRows(2, ws.rowCount - 1) ?? []).find((r) => r.getCell(3).value === model)!;

/** Uploads a workbook as Formato_Daily of the month given. */
async function uploadDaily(wb: ExcelJS.Workbook, month = 5) {
  const mp = multipart(Buffer.from(await wb.xlsx.writeBuffer()), 'Formato_Daily_2024_5.xlsx');
  return t.app.inject({
    method: 'POST',
    url: `/api/daily-sales/import?year=2024&month=${month}`,
    headers: { ...mp.headers, authorization: `Bearer ${admin}` },
    payload: mp.payload,
  });
}

/** Dealer A's days of a model in the May 2024 grid. */
async function daysOf(model: number) {
  const g = (await grid()).body.result;
  return g.rows.find(
    (r: { dealer_id: number; manufacturer_model_id: number }) =>
      r.dealer_id === aId && r.manufacturer_model_id === model,
  )?.days;
}

describe('daily sales', () => {
  it('saves the cells of the grid and answers the month grid with its totals', async () => {
    const res = await save([
      entry(aId, polo, 2, 3),
      entry(aId, gol, 2, 1),
      entry(aId, polo, 15, 2),
      entry(bId, polo, 31, 4),
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 4, failed: 0 });
    const g = (await grid()).body.result;
    expect(g.days).toBe(31);
    const a = g.rows.find(
      (r: { dealer_id: number; manufacturer_model_id: number }) =>
        r.dealer_id === aId && r.manufacturer_model_id === polo,
    );
    expect(a).toMatchObject({ model_name: 'Polo', days: { 2: 3, 15: 2 }, total: 5 });
    expect(g.totals.days[2]).toBe(4);
    expect(g.totals.total).toBe(10);
    // Changing a cell replaces it; 0 clears it.
    await save([entry(aId, polo, 2, 5), entry(aId, gol, 2, 0)]);
    const after = (await grid()).body.result;
    expect(after.totals.total).toBe(5 + 2 + 4);
    expect(after.rows.some((r: { manufacturer_model_id: number }) => r.manufacturer_model_id === gol)).toBe(
      false,
    );
  });

  it('lets a dealer user write and read its own dealer only: nothing is saved for another dealer', async () => {
    const before = (await grid()).body.result.totals.total;
    const res = await save([entry(aId, gol, 3, 1), entry(bId, gol, 3, 9)], dealerToken);
    expect(res.body.result).toMatchObject({ saved: 0, failed: 1 });
    expect(res.body.result.report[1].errors[0]).toMatch(/no es su concesionario/);
    expect((await grid()).body.result.totals.total).toBe(before);
    const own = await save([entry(aId, gol, 3, 1)], dealerToken);
    expect(own.body.result.saved).toBe(1);
    const mine = (await grid(dealerToken)).body.result;
    expect(new Set(mine.rows.map((r: { dealer_id: number }) => r.dealer_id))).toEqual(new Set([aId]));
  });

  it('refuses odd cells with the field rules and a future day', async () => {
    const res = await save([
      { dealer_id: aId, manufacturer_model_id: polo, sale_date: '2024-05-40', units: -1 },
      entry(aId, polo, 1, 1),
      { ...entry(aId, polo, 1, 1), sale_date: '2999-01-01' },
    ]);
    expect(res.body.result.saved).toBe(0);
    expect(res.body.result.report[0].errors).toEqual(['Unidades el valor mínimo es 0']);
    expect(res.body.result.report[2].errors).toEqual([
      'Fecha 2999-01-01: no se puede registrar una venta futura',
    ]);
    const bad = await api(t.app, 'POST', '/api/daily-sales', { token: admin, body: { entries: [] } });
    expect(bad.status).toBe(422);
    expect((await api(t.app, 'GET', '/api/daily-sales?year=2024', { token: admin })).status).toBe(422);
  });

  it('downloads Formato_Daily_{year}_{month}.xlsx with what was entered, and takes it back', async () => {
    const { res, wb, ws } = await mayTemplate();
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('filename="Formato_Daily_2024_5.xlsx"');
    expect((ws.getRow(1).values as unknown[]).slice(1, 6)).toEqual([
      'Concesionario',
      'Marca',
      'Modelo',
      '1',
      '2',
    ]);
    expect(ws.getRow(1).cellCount).toBe(3 + 31);
    const poloRow = modelRow(ws, 'Polo');
    expect(poloRow.getCell(1).value).toBe(codeA);
    expect(poloRow.getCell(3 + 2).value).toBe(5);
    // Fill day 20 and upload: saved; the day-2 value stays.
    poloRow.getCell(3 + 20).value = 7;
    const up = await uploadDaily(wb);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().result.failed).toBe(0);
    expect(await daysOf(polo)).toMatchObject({ 2: 5, 15: 2, 20: 7 });
    // What changed is counted, not every value the file repeats: day 20 only.
    expect(up.json().result.changed).toBe(1);
    expect(up.json().result.saved).toBeGreaterThan(1);
    const again = await uploadDaily(wb);
    expect(again.json().result.changed).toBe(0);
    poloRow.getCell(3 + 20).value = 8;
    poloRow.getCell(3 + 15).value = 0;
    expect((await uploadDaily(wb)).json().result.changed).toBe(2);
    expect(await daysOf(polo)).toMatchObject({ 2: 5, 20: 8 });
    // The same file said to be another month is refused.
    expect((await uploadDaily(wb, 6)).statusCode).toBe(422);
  });
});

describe('Formato_Daily: a blank never writes', () => {
  it('a row with every day blank changes nothing (it used to clear day 1)', async () => {
    expect((await save([entry(aId, gol, 1, 3)])).body.result.saved).toBe(1);
    const { wb, ws } = await mayTemplate();
    const golRow = modelRow(ws, 'Gol');
    expect(golRow.getCell(3 + 1).value).toBe(3);
    for (let d = 1; d <= 31; d++) golRow.getCell(3 + d).value = null;
    const up = await uploadDaily(wb);
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().result.failed).toBe(0);
    expect((await daysOf(gol))?.[1]).toBe(3);
  });
});

/** Reads a report: its cells by row, the header row index (first row whose first cell is 'Codigo'). */
async function readReport(raw: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as never);
  const ws = wb.worksheets[0];
  const rows: ExcelJS.Row[] = [];
  ws.eachRow((r) => rows.push(r));
  const headerAt = rows.findIndex((r) => r.getCell(1).value === 'Código');
  const header = (rows[headerAt].values as unknown[]).slice(1) as string[];
  const body = rows.slice(headerAt + 1);
  const totals = body[body.length - 1];
  const data = body.slice(0, -1);
  const col = (name: string) => header.indexOf(name) + 1;
  return { ws, rows, header, data, totals, col };
}

function expectHeaderBlock(r: Awaited<ReturnType<typeof readReport>>, title: string, brand: string) {
  expect(r.rows[0].getCell(1).value).toBe(title);
  expect(r.rows[1].getCell(1).value).toBe('Marca:');
  expect(r.rows[1].getCell(2).value).toBe(brand);
  const generated = r.rows.find((row) => row.getCell(1).value === 'Generado:')!;
  expect(generated.getCell(2).value).toBeInstanceOf(Date);
  const view = r.ws.views[0] as { state: string; ySplit: number };
  expect(view.state).toBe('frozen');
  expect(view.ySplit).toBe(r.rows.find((row) => row.getCell(1).value === 'Código')!.number);
  expect(r.totals.getCell(1).value).toBe('Total');
}

describe('the named reports', () => {
  it('Reporte-Despachos-{brand}-{year}-{months}.xlsx: units per dealer × month, totals as numbers', async () => {
    const res = await api(
      t.app,
      'GET',
      '/api/transaction/report-export?manufacturer=V&year=2024&months=4,5,6',
      { token: admin },
    );
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(
      'filename="Reporte-Despachos-Volkswagen-2024-4-6.xlsx"',
    );
    const r = await readReport(res.raw);
    expectHeaderBlock(r, 'Reporte de Despachos', 'Volkswagen');
    expect(r.header.slice(3)).toEqual(['Abr', 'May', 'Jun', 'Total', 'Objetivo', 'Cumplimiento']);
    const want = (dealer: number | null, m: number) =>
      dispatched
        .filter((d) => (dealer === null || d.dealer === dealer) && d.month === m)
        .reduce((a, d) => a + d.units, 0);
    const rowA = r.data.find((row) => row.getCell(1).value === codeA)!;
    expect(rowA.getCell(r.col('May')).value).toBe(want(aId, 5));
    expect(rowA.getCell(r.col('Objetivo')).value).toBe(14);
    // The totals row: numbers, as the test sums them (other dealers of the database have none).
    for (const [m, name] of [
      [4, 'Abr'],
      [5, 'May'],
      [6, 'Jun'],
    ] as const) {
      expect(r.totals.getCell(r.col(name)).value).toBe(want(null, m));
      expect(r.totals.getCell(r.col(name)).numFmt).toBe('#,##0');
    }
    const total = [4, 5, 6].reduce((a, m) => a + want(null, m), 0);
    expect(r.totals.getCell(r.col('Total')).value).toBe(total);
    expect(r.totals.getCell(r.col('Cumplimiento')).value).toBeCloseTo(total / 18, 10);
    expect(r.totals.getCell(r.col('Cumplimiento')).numFmt).toBe('0.0 %');
    // A formula-like name arrives as text.
    const rowB = r.data.find((row) => row.getCell(1).value === codeB)!;
    expect(rowB.getCell(2).value).toBe(`=HYPERLINK("x")`);
    expect(rowB.getCell(2).type).toBe(ExcelJS.ValueType.String);
    expect(rowB.getCell(2).numFmt).toBe('@');
  });

  it('the dynamic report: the chosen months (across years) as columns, default name Reporte', async () => {
    await t.handle.query(
      `insert into dispatches (dealer_id, manufacturer_id, model_name, vin, dispatch_date, units) values ($1, $2, 'Polo', $3, '2025-01-10', 9)`,
      [aId, brandV, vin()],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/transaction/export-dynamic-report',
      headers: { authorization: `Bearer ${admin}` },
      payload: {
        rangeFrom: { year: 2024, month: 11 },
        rangeDays: { year: 2025, month: 1 },
        manufacturer: brandV,
        marcaSeleccionada: 'VW',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('filename="Reporte.xlsx"');
    const r = await readReport(res.rawPayload);
    expectHeaderBlock(r, 'Reporte de Despachos', 'VW');
    expect(r.header.slice(3)).toEqual(['Nov 2024', 'Dic 2024', 'Ene 2025', 'Total']);
    const want = (m: number) => dispatched.filter((d) => d.month === m).reduce((a, d) => a + d.units, 0);
    expect(r.totals.getCell(4).value).toBe(want(11));
    expect(r.totals.getCell(5).value).toBe(want(12));
    expect(r.totals.getCell(6).value).toBe(9);
    expect(r.totals.getCell(7).value).toBe(want(11) + want(12) + 9);
    // Named columns and a title.
    const named = await t.app.inject({
      method: 'POST',
      url: '/api/transaction/export-dynamic-report',
      headers: { authorization: `Bearer ${admin}` },
      payload: {
        title_download: 'Despachos Q4',
        monthHeaders: ['Octubre', 'Noviembre', 'Diciembre'],
        rangeFrom: { year: 2024, month: 10 },
        rangeDays: { year: 2024, month: 12 },
      },
    });
    expect(String(named.headers['content-disposition'])).toContain('filename="Despachos_Q4.xlsx"');
    const n = await readReport(named.rawPayload);
    expect(n.header).toEqual([
      'Código',
      'Concesionario',
      'Zona',
      'Marca',
      'Octubre',
      'Noviembre',
      'Diciembre',
      'Total',
    ]);
    const mismatch = await api(t.app, 'POST', '/api/transaction/export-dynamic-report', {
      token: admin,
      body: {
        monthHeaders: ['Uno'],
        rangeFrom: { year: 2024, month: 1 },
        rangeDays: { year: 2024, month: 3 },
      },
    });
    expect(mismatch.status).toBe(422);
  });

  it('Reporte_Daily_{brand}_{year}_{month}.xlsx: units per dealer × day, for a dealer user its own row', async () => {
    const g = (await grid()).body.result;
    const res = await api(t.app, 'GET', '/api/daily-sales-report?year=2024&month=5&manufacturer=V', {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(
      'filename="Reporte_Daily_Volkswagen_2024_5.xlsx"',
    );
    const r = await readReport(res.raw);
    expectHeaderBlock(r, 'Reporte de Venta Diaria', 'Volkswagen');
    expect(r.header.length).toBe(3 + 31 + 1);
    const sumDay = (day: number) =>
      g.rows.reduce((a: number, row: { days: Record<number, number> }) => a + (row.days[day] ?? 0), 0);
    for (const day of [2, 3, 15, 20, 31])
      expect(r.totals.getCell(r.col(String(day))).value, `dia ${day}`).toBe(sumDay(day));
    expect(r.totals.getCell(r.col('Total')).value).toBe(g.totals.total);
    const own = await api(t.app, 'GET', '/api/daily-sales-report?year=2024&month=5', { token: dealerToken });
    const o = await readReport(own.raw);
    expect(o.data.map((row) => row.getCell(1).value)).toEqual([codeA]);
    expect(String(own.headers['content-disposition'])).toContain('Reporte_Daily_Todas_2024_5.xlsx');
  });

  it('the internal report: month and year to date against objectives; the internal daily report: the pace', async () => {
    const res = await api(t.app, 'POST', '/api/transaction/export-internal-report', {
      token: admin,
      body: { year: 2024, month: 5, manufacturer: 'V' },
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(
      'filename="Reporte-Interno-Volkswagen-2024-5.xlsx"',
    );
    const r = await readReport(res.raw);
    expectHeaderBlock(r, 'Reporte Interno de Despachos y Objetivos', 'Volkswagen');
    const ytd = (dealer: number | null) =>
      dispatched
        .filter((d) => (dealer === null || d.dealer === dealer) && d.month <= 5)
        .reduce((a, d) => a + d.units, 0);
    const may = dispatched.filter((d) => d.month === 5).reduce((a, d) => a + d.units, 0);
    expect(r.totals.getCell(r.col('Objetivo mes')).value).toBe(12);
    expect(r.totals.getCell(r.col('Despachos mes')).value).toBe(may);
    expect(r.totals.getCell(r.col('Despachos acumulados')).value).toBe(ytd(null));
    expect(r.totals.getCell(r.col('Objetivo acumulado')).value).toBe(18);
    expect(r.totals.getCell(r.col('Cumplimiento mes')).value).toBeCloseTo(may / 12, 10);
    const rowA = r.data.find((row) => row.getCell(1).value === codeA)!;
    expect(rowA.getCell(r.col('Despachos acumulados')).value).toBe(ytd(aId));

    const daily = await api(t.app, 'POST', '/api/transaction/export-internal-daily-report', {
      token: admin,
      body: { year: 2024, month: 5, manufacturer: brandV },
    });
    expect(String(daily.headers['content-disposition'])).toContain(
      'filename="Reporte_Daily_Interno_Volkswagen_2024_5.xlsx"',
    );
    const d = await readReport(daily.raw);
    const g = (await grid(admin, '&manufacturer=V')).body.result;
    const soldA = g.rows
      .filter((x: { dealer_id: number }) => x.dealer_id === aId)
      .reduce((a: number, x: { total: number }) => a + x.total, 0);
    const dA = d.data.find((row) => row.getCell(1).value === codeA)!;
    expect(dA.getCell(d.col('Objetivo mes')).value).toBe(8);
    // A past month: the whole objective is due, and the projection is what was sold.
    expect(dA.getCell(d.col('Objetivo a la fecha')).value).toBe(8);
    expect(dA.getCell(d.col('Venta a la fecha')).value).toBe(soldA);
    expect(dA.getCell(d.col('Proyección al cierre')).value).toBe(soldA);
    expect(d.totals.getCell(d.col('Venta a la fecha')).value).toBe(g.totals.total);
  });
});
