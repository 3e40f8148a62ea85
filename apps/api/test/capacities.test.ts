// Capacities: the month's grid (every active branch in scope), the batch with computed available
// hours (all rows or none, another dealer's branch refused), and the export that names the file
// (result.filename) before its download.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let branchA1: number;
let branchA2: number;
let branchB: number;

async function branch(dealerId: number, name: string): Promise<number> {
  const res = await api(t.app, 'POST', '/api/dealer-branches', {
    token: admin,
    body: { dealer_id: dealerId, name },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  branchA1 = await branch(a.dealerId, 'Sede Principal');
  branchA2 = await branch(a.dealerId, 'Sede Norte');
  branchB = await branch(b.dealerId, 'Sede Única');
});
afterAll(() => t?.close());

const put = (token: string, rows: object[], month = 4) =>
  api(t.app, 'PUT', '/api/capacity-batch', { token, body: { year: 2025, month, rows } });

describe('capacities', () => {
  it('saves a month and computes available hours (the smaller of bays and technicians)', async () => {
    const res = await put(a.token, [
      { dealer_branch_id: branchA1, bays: 8, technicians: 10, hours_per_day: 9, working_days: 26 },
      { dealer_branch_id: branchA2, bays: 5, technicians: 4, hours_per_day: 8, working_days: 26 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual({ saved: 2, removed: 0 });
    const grid = await api(t.app, 'GET', '/api/capacities?year=2025&month=4', { token: a.token });
    expect(grid.status).toBe(200);
    const rows = grid.body.result as { dealer_branch_id: number; available_hours: number }[];
    expect(rows.map((r) => r.dealer_branch_id).sort()).toEqual([branchA1, branchA2].sort());
    expect(rows.find((r) => r.dealer_branch_id === branchA1)!.available_hours).toBe(8 * 9 * 26);
    expect(rows.find((r) => r.dealer_branch_id === branchA2)!.available_hours).toBe(4 * 8 * 26);
    // A month without rows lists the branches empty, ready to fill.
    const empty = await api(t.app, 'GET', '/api/capacities?year=2025&month=5', { token: a.token });
    expect(empty.body.result.every((r: { bays: unknown }) => r.bays === null)).toBe(true);
  });

  it("refuses another dealer's branch and saves nothing of the batch", async () => {
    const res = await put(a.token, [
      { dealer_branch_id: branchA1, bays: 1, technicians: 1, hours_per_day: 1, working_days: 1 },
      { dealer_branch_id: branchB, bays: 9, technicians: 9, hours_per_day: 9, working_days: 9 },
    ]);
    expect(res.status).toBe(404);
    const [row] = await t.handle.query<{ bays: string }>(
      'select bays from capacities where dealer_branch_id = $1 and year = 2025 and month = 4',
      [branchA1],
    );
    expect(Number(row.bays)).toBe(8);
    const rows = await t.handle.query('select 1 from capacities where dealer_branch_id = $1', [branchB]);
    expect(rows).toHaveLength(0);
    const bad = await put(a.token, [{ dealer_branch_id: branchA1, bays: -1, hours_per_day: 25 }]);
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors).toEqual([
      { field: 'rows.0.bays', message: 'Bahías el valor mínimo es 0' },
      { field: 'rows.0.hours_per_day', message: 'Horas por día el valor máximo es 24' },
    ]);
    // A dealer's grid never lists another dealer's branches, and naming one is a 404.
    expect(
      (
        await api(t.app, 'GET', `/api/capacities?year=2025&month=4&dealer_id=${b.dealerId}`, {
          token: a.token,
        })
      ).status,
    ).toBe(404);
  });

  it('empties a row when every value is cleared', async () => {
    const res = await put(a.token, [
      { dealer_branch_id: branchA2, bays: null, technicians: null, hours_per_day: null, working_days: null },
    ]);
    expect(res.body.result).toEqual({ saved: 0, removed: 1 });
  });

  it('exports: the answer names the file, the download is that file with a total row', async () => {
    const res = await api(t.app, 'GET', '/api/capacities/export?year=2025&month=4', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.result.filename).toMatch(/^Capacidades_Abril_2025_.+\.xlsx$/);
    expect(res.body.result.url).toBe(`/api/capacities/download?year=2025&month=4&dealer_id=${a.dealerId}`);
    const file = await api(t.app, 'GET', res.body.result.url, { token: a.token });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-disposition'])).toContain(res.body.result.filename);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.raw as any);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(8).value).toBe('Horas disponibles');
    const last = ws.getRow(ws.rowCount);
    expect(last.getCell(2).value).toBe('Total');
    expect(last.getCell(8).value).toBe(8 * 9 * 26);
    // Dealer B's file holds its own branch only.
    const other = await api(t.app, 'GET', '/api/capacities/export?year=2025&month=4', { token: b.token });
    const fileB = await api(t.app, 'GET', other.body.result.url, { token: b.token });
    const wbB = new ExcelJS.Workbook();
    await wbB.xlsx.load(fileB.raw as any);
    const names: unknown[] = [];
    wbB.worksheets[0].eachRow((r, n) => n > 1 && names.push(r.getCell(3).value));
    expect(names).toEqual(['Sede Única', '1 sedes']);
  });
});
