// A legal Formato_Daily at the documented size: 5,000 rows (one per model) × 31 days, uploaded
// by a dealer user, is read and saved (155,000 cells), not a 500 ("Maximum call stack size
// exceeded" from spreading a 155,000-cell batch into one call).
import { PassThrough } from 'node:stream';
import { DAILY_TEMPLATE_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { multipart } from './sales-fixtures';

let t: TestContext;
let dealerToken: string;
let dealerCode: string;
const MODELS = 5000;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await login(t.app);
  dealerCode = uniq('DL');
  dealerToken = (await createDealerUser(t.app, admin, dealerCode)).token;
  await t.handle.query(
    `insert into manufacturer_models (manufacturer_id, code, name)
     select m.id, 'BIG' || g, 'Modelo grande ' || g from manufacturers m, generate_series(1, ${MODELS}) g
     where m.code = 'V'`,
  );
}, 300_000);

afterAll(async () => {
  await t?.close();
});

/** Formato_Daily_2025_1 with one row per model and 1 unit on each of the 31 days. */
async function bigDailyFile(): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (d: Buffer) => parts.push(d));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const ws = wb.addWorksheet('Daily');
  ws.addRow([...DAILY_TEMPLATE_HEADERS, ...Array.from({ length: 31 }, (_, i) => String(i + 1))]).commit();
  const days = Array.from({ length: 31 }, () => 1);
  for (let i = 1; i <= MODELS; i++) ws.addRow([dealerCode, 'V', `Modelo grande ${i}`, ...days]).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(parts);
}

describe('POST /api/daily-sales/import at the documented size', () => {
  it('5,000 rows × 31 days by a dealer user: saved, every cell counted', async () => {
    const mp = multipart(await bigDailyFile(), 'Formato_Daily_2025_1.xlsx');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/daily-sales/import?year=2025&month=1',
      headers: { ...mp.headers, authorization: `Bearer ${dealerToken}` },
      payload: mp.payload,
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const result = res.json().result;
    expect(result.failed).toBe(0);
    expect(result.total).toBe(MODELS);
    expect(result.saved).toBe(MODELS * 31);
    const [{ n }] = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from daily_sales d join dealers x on x.id = d.dealer_id where x.code = $1`,
      [dealerCode],
    );
    expect(n).toBe(MODELS * 31);
  }, 180_000);
});
