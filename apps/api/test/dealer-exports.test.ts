// Issue 27: a dealer user exports its own Cuotas (fees), Resumen Comparativo and Despachos (the
// dispatches, dynamic and internal reports) — the file holds its dealer's rows only, another
// dealer's never, whatever the query names.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';
import { vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let nameA: string;
let nameB: string;
let codeA: string;
let codeB: string;
let concepts: { id: number; code: string }[];
const Y = 2025;
const vin = vinFactory();
const cid = (code: string) => concepts.find((c) => c.code === code)!.id;

/** Every text of a workbook's first sheet. */
async function textsOf(raw: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as any);
  const out: string[] = [];
  wb.worksheets[0].eachRow((row) => {
    row.eachCell((c) => {
      if (typeof c.value === 'string') out.push(c.value);
    });
  });
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  const dealers = (await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: admin })).body.result;
  const byId = (id: number) => dealers.find((d: { id: number }) => d.id === id);
  [nameA, codeA, nameB, codeB] = [
    byId(a.dealerId).name,
    byId(a.dealerId).code,
    byId(b.dealerId).name,
    byId(b.dealerId).code,
  ];
  concepts = (await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin })).body.result;
  const brandV = (await t.handle.query<{ id: number }>("select id from manufacturers where code = 'V'"))[0]
    .id;
  for (const [dealer, units] of [
    [a, 4],
    [b, 9],
  ] as const) {
    const fees = await api(t.app, 'PUT', '/api/fees-batch', {
      token: admin,
      body: {
        year: Y,
        dealer_id: dealer.dealerId,
        values: [{ concept_id: cid('VN_UND'), month: 3, value: units * 10 }],
      },
    });
    expect(fees.status, JSON.stringify(fees.body)).toBe(200);
    await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year: Y, month: 3, dealer_ids: [dealer.dealerId] },
    });
    const figures = await api(t.app, 'PUT', '/api/figure-batch', {
      token: dealer.token,
      body: { year: Y, values: [{ concept_id: cid('VN_UND'), month: 3, value: units }] },
    });
    expect(figures.status, JSON.stringify(figures.body)).toBe(200);
    await t.handle.query(
      `insert into dispatches (dealer_id, manufacturer_id, model_name, vin, dispatch_date, units, source)
       values ($1, $2, 'Polo', $3, '2025-03-15', $4, 'SIMA')`,
      [dealer.dealerId, brandV, vin(), units],
    );
  }
});
afterAll(() => t?.close());

describe('a dealer user exports its own dealer', () => {
  it('Cuotas: its fees, not another dealer’s, even when it names the other', async () => {
    const res = await api(t.app, 'GET', `/api/fees/export?year=${Y}`, { token: a.token });
    expect(res.status).toBe(200);
    const texts = await textsOf(res.raw);
    expect(texts).toContain(codeA);
    expect(texts).not.toContain(codeB);
    const other = await api(t.app, 'GET', `/api/fees/export?year=${Y}&dealer_id=${b.dealerId}`, {
      token: a.token,
    });
    expect(other.status).toBe(404);
  });

  it('Resumen Comparativo: the comparison of its dealer, named in the file', async () => {
    const res = await api(t.app, 'GET', `/api/resumen-comparativo/export?year=${Y}&month=3`, {
      token: a.token,
    });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(`Resumen_Comparativo_${Y}_03_${codeA}.xlsx`);
    // Percentages are numbers with Excel's % format, as every export writes them (4 of a fee of 40).
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as any);
    const ws = wb.worksheets[0];
    const header = ws.getRow(1).values as unknown[];
    const col = header.indexOf('Cumplimiento %');
    const cells: ExcelJS.Cell[] = [];
    ws.eachRow((row, n) => {
      if (n > 1 && typeof row.getCell(col).value === 'number') cells.push(row.getCell(col));
    });
    expect(cells.map((c) => c.value)).toEqual([0.1]);
    expect(cells[0].numFmt).toContain('%');
    // A concept's values carry its unit's format, as on screen (a count here: 4 units, fee 40).
    const units = ws
      .getRows(2, ws.rowCount - 1)
      ?.find((r) => r.getCell(header.indexOf('Concepto')).value === 'Venta de vehículos nuevos');
    expect(units?.getCell(header.indexOf('Cuota Mar')).value).toBe(40);
    expect(units?.getCell(header.indexOf('Cuota Mar')).numFmt).toBe('#,##0');
    const json = await api(t.app, 'GET', `/api/resumen-comparativo?year=${Y}&month=3`, { token: a.token });
    const row = json.body.result.rows.find((r: { code?: string; name: string }) => r.code === 'VN_UND');
    // Its own 4 units against its own fee of 40, not the network's 13 against 130.
    expect(row.month).toBe(4);
    expect(row.fee).toBe(40);
    const other = await api(
      t.app,
      'GET',
      `/api/resumen-comparativo/export?year=${Y}&month=3&dealer_id=${b.dealerId}`,
      { token: a.token },
    );
    expect(other.status).toBe(404);
  });

  it('Despachos: the dispatches report and the dynamic report hold its row only', async () => {
    const report = await api(t.app, 'GET', `/api/transaction/report-export?year=${Y}&months=3`, {
      token: a.token,
    });
    expect(report.status).toBe(200);
    let texts = await textsOf(report.raw);
    expect(texts).toContain(nameA);
    expect(texts).not.toContain(nameB);
    const dynamic = await api(t.app, 'POST', '/api/transaction/export-dynamic-report', {
      token: a.token,
      body: {
        title_download: 'Mis despachos',
        rangeFrom: { year: Y, month: 3 },
        rangeDays: { year: Y, month: 3 },
      },
    });
    expect(dynamic.status, dynamic.raw.toString().slice(0, 200)).toBe(200);
    texts = await textsOf(dynamic.raw);
    expect(texts).toContain(nameA);
    expect(texts).not.toContain(nameB);
    // The importer's file of the same period holds both.
    const all = await textsOf(
      (await api(t.app, 'GET', `/api/transaction/report-export?year=${Y}&months=3`, { token: admin })).raw,
    );
    expect(all).toEqual(expect.arrayContaining([nameA, nameB]));
  });

  it('the internal report: its own dealer against its objective, not the network', async () => {
    const res = await api(t.app, 'POST', '/api/transaction/export-internal-report', {
      token: a.token,
      body: { year: Y, month: 3 },
    });
    expect(res.status).toBe(200);
    const texts = await textsOf(res.raw);
    expect(texts.some((x) => x.includes(nameA))).toBe(true);
    expect(texts.some((x) => x.includes(nameB))).toBe(false);
  });
});
