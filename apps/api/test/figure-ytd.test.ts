// The year-to-date summaries of figures and fees (figure_ytd, migration 0024), kept by triggers in
// the same statement as every write: after each kind of write (the grid's batch, a concept's save,
// the files' imports, a cleared cell, edits and deletes in SQL) they equal a recomputation from
// the raw rows, and resumen-comparativo read from them equals the one read from the raw rows.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figureSummary } from '../src/modules/figures/figures.compare';
import { figureSummaryDifferences } from './figure-summary';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';
import { uploadTo } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let codeA: string;
let concepts: { id: number; code: string }[];
const Y = 2025;
const cid = (code: string) => concepts.find((c) => c.code === code)!.id;

/** The grids' uploads (figures, fees) as the screen sends them. */
const uploadGrid = (url: string, token: string, file: Buffer) =>
  uploadTo(t.app, url, token, file, 'grilla.xlsx');

/** Row number of a dealer × concept in an exported sheet. */
function rowOf(ws: ExcelJS.Worksheet, dealerCode: string, conceptCode: string): number {
  let found = 0;
  ws.eachRow((row, n) => {
    if (row.getCell(2).value === dealerCode && row.getCell(4).value === conceptCode) found = n;
  });
  return found;
}

const expectSame = async (after: string) => {
  const { differing, kept } = await figureSummaryDifferences(t.handle);
  expect(differing, after).toEqual([]);
  return kept;
};

/** resumen-comparativo from the summaries and from the raw rows, for cut months, years and dealers. */
const rawEqual = async () => {
  for (const year of [Y - 1, Y, Y + 1])
    for (const month of [1, 2, 3, 4, 6, 12])
      for (const dealerIds of [null, [a.dealerId], [a.dealerId, b.dealerId], []]) {
        const f = { year, month, dealerIds };
        expect(await figureSummary(t.handle.db, f), JSON.stringify(f)).toEqual(
          await figureSummary(t.handle.db, f, { raw: true }),
        );
      }
};

const batch = (
  token: string,
  year: number,
  values: { code: string; month: number; value: number | null }[],
) =>
  api(t.app, 'PUT', '/api/figure-batch', {
    token,
    body: { year, values: values.map((v) => ({ concept_id: cid(v.code), month: v.month, value: v.value })) },
  });

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  const dealers = (await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: admin })).body.result;
  codeA = dealers.find((d: { id: number }) => d.id === a.dealerId).code;
  concepts = (await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin })).body.result;
  for (const year of [Y - 1, Y])
    for (let month = 1; month <= 6; month++) {
      const res = await api(t.app, 'POST', '/api/figures/enable', {
        token: admin,
        body: { year, month, dealer_ids: [a.dealerId, b.dealerId] },
      });
      expect(res.status).toBe(200);
    }
}, 300_000);
afterAll(() => t?.close());

describe('the year-to-date figure summaries equal a recomputation from the raw rows', () => {
  it('after batches, a concept save, imports, a cleared cell, edits and deletes', async () => {
    expect(await expectSame('nothing written')).toBe(0);
    // The grid's batches of both dealers, both years, with gaps (Promedio, Suma and months left out).
    for (const [dealer, k] of [
      [a, 3],
      [b, 7],
    ] as const)
      for (const year of [Y - 1, Y]) {
        const values = ['VN_UND', 'CSI_VTA', 'PERM_DIAS'].flatMap((code, i) =>
          [1, 2, 3, 4, 5, 6]
            .filter((m) => (m + k + i) % 4 !== 0)
            .map((month) => ({
              code,
              month,
              value: Math.round((10 + ((k * month * 37 + i) % 50)) * 10) / 10,
            })),
        );
        const res = await batch(dealer.token, year, values);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    expect(await expectSame('the batches')).toBeGreaterThan(0);
    // Fees of the year (the manufacturer's batch), some months without a fee.
    for (const dealer of [a, b]) {
      const values = ['VN_UND', 'CSI_VTA', 'PERM_DIAS'].flatMap((code) =>
        [1, 2, 3, 5, 6, 9].map((month) => ({ concept_id: cid(code), month, value: 20 + month })),
      );
      const res = await api(t.app, 'PUT', '/api/fees-batch', {
        token: admin,
        body: { year: Y, dealer_id: dealer.dealerId, values },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await expectSame('the fees');
    // One concept for every dealer (the manufacturer's form).
    const concept = await api(t.app, 'PUT', '/api/figure-concept', {
      token: admin,
      body: {
        year: Y,
        month: 4,
        concept_id: cid('CSI_PV'),
        values: [
          { dealer_id: a.dealerId, value: 81.5 },
          { dealer_id: b.dealerId, value: 77.3 },
        ],
      },
    });
    expect(concept.status, JSON.stringify(concept.body)).toBe(200);
    await expectSame('a concept saved');
    await rawEqual();

    // The figures file: exported, edited, uploaded; then the fees file.
    const exported = await api(t.app, 'GET', `/api/figures/export?year=${Y}`, { token: a.token });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(exported.raw as any);
    const ws = wb.worksheets[0];
    ws.getRow(rowOf(ws, codeA, 'VN_UND')).getCell(8).value = 99; // February
    ws.getRow(rowOf(ws, codeA, 'OT_UND')).getCell(10).value = 12; // April
    const up = await uploadGrid('/api/figures/import', a.token, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.result.saved).toBe(2);
    await expectSame('a figures import');
    const fees = await api(t.app, 'GET', `/api/fees/export?year=${Y}&dealer_id=${a.dealerId}`, {
      token: admin,
    });
    const fwb = new ExcelJS.Workbook();
    await fwb.xlsx.load(fees.raw as any);
    const fws = fwb.worksheets[0];
    const row = fws.getRow(rowOf(fws, codeA, 'OT_UND'));
    for (let m = 1; m <= 12; m++) row.getCell(6 + m).value = 5 + m;
    const fup = await uploadGrid('/api/fees/import', admin, Buffer.from(await fwb.xlsx.writeBuffer()));
    expect(fup.status, JSON.stringify(fup.body)).toBe(200);
    await expectSame('a fees import');

    // A cell cleared through the grid (its row deleted), a value changed.
    const cleared = await batch(a.token, Y, [
      { code: 'VN_UND', month: 2, value: null },
      { code: 'CSI_VTA', month: 3, value: 55.5 },
    ]);
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    await expectSame('a cell cleared and one changed');
    // Edits in SQL: a figure moved to another month, another to the other dealer and year.
    await t.handle.query('update figures set month = 12 where dealer_id = $1 and year = $2 and month = 1', [
      b.dealerId,
      Y,
    ]);
    await expectSame('figures moved to another month');
    await t.handle.query(
      `update figures set dealer_id = $1, year = $2 where id = (select min(id) from figures where dealer_id = $3 and year = $4
         and concept_id = $5 and month not in (select month from figures where dealer_id = $1 and year = $2 and concept_id = $5))`,
      [a.dealerId, Y - 1, b.dealerId, Y, cid('PERM_DIAS')],
    );
    await expectSame('a figure moved to another dealer and year');
    await rawEqual();
    // Deletes: a dealer's fees of a concept, the figures of a year of one dealer.
    await t.handle.query('delete from fees where dealer_id = $1 and concept_id = $2', [
      a.dealerId,
      cid('CSI_VTA'),
    ]);
    await expectSame('fees deleted');
    await t.handle.query('delete from figures where dealer_id = $1 and year = $2', [b.dealerId, Y - 1]);
    await expectSame('figures deleted');
    await rawEqual();
  });

  it('every aggregation reads the same from the summaries: Promedio, Suma and Último valor', async () => {
    await t.handle.query(`update concepts set aggregation = 'last' where id = $1`, [cid('VN_UND')]);
    try {
      await rawEqual();
    } finally {
      await t.handle.query(`update concepts set aggregation = 'sum' where id = $1`, [cid('VN_UND')]);
    }
  });

  it('the check sees a summary a trigger did not keep', async () => {
    await t.handle.query('drop trigger figures_ytd_upd on figures');
    await t.handle.query('update figures set value = value + 1 where id = (select min(id) from figures)');
    expect((await figureSummaryDifferences(t.handle)).differing.length).toBeGreaterThan(0);
  });
});
