// Big imports as background jobs (core/jobs.ts on pg-boss, the sheet read in a worker thread):
// 202 and the job, its progress and answer through GET /api/jobs/:id, all rows or none, the
// Spanish error of a failed job, the archive judged before anything is queued, and a job seen
// only by its owner. Every upload is "big" here (IMPORT_JOB_BYTES = 1); on PGlite or PostgreSQL.
// A list export of more rows than EXPORT_JOB_ROWS (3 here) is a job too: 202, then its file.
import { OBJECTIVES_TEMPLATE_HEADERS, WORKSHOP_TEMPLATE_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { countSales, createDealer, saleRow, salesWorkbook, upload, vinFactory } from './sales-fixtures';
import { plainEntry, workbookEntries, zipOf } from './zip-bombs';

let t: TestContext;
let admin: string;
let dealerCode: string;
const vin = vinFactory();

beforeAll(async () => {
  t = await createTestApp({ importJobBytes: 1, exportJobRows: 3 });
  admin = await login(t.app);
  dealerCode = uniq('DJ');
  await createDealer(t.app, admin, dealerCode);
}, 300_000);
afterAll(() => t?.close());

/** Polls the job until it ends (done or failed), as the screen does. */
async function settled(token: string, id: string) {
  for (let i = 0; i < 600; i++) {
    const res = await api(t.app, 'GET', `/api/jobs/${id}`, { token });
    expect(res.status).toBe(200);
    if (res.body.result.status === 'done' || res.body.result.status === 'failed') return res.body.result;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('el trabajo no terminó');
}

describe('a big sales import runs as a job', () => {
  it('answers 202 with the job, which saves every row and answers the per-row report', async () => {
    const before = await countSales(t.app);
    const file = await salesWorkbook([
      saleRow(dealerCode, vin()),
      saleRow(dealerCode, vin()),
      saleRow(dealerCode, vin()),
    ]);
    const res = await upload(t.app, admin, file);
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({
      kind: 'sales-import',
      title: 'Carga de ventas',
      status: 'queued',
      // Not read yet: the request looked only at the zip's directory.
      total: null,
    });
    const job = await settled(admin, res.body.result.id);
    expect(job).toMatchObject({ status: 'done', percent: 100, error: null, total: 3 });
    expect(job.result).toMatchObject({ saved: 3, total: 3, failed: 0 });
    expect(job.result.report).toHaveLength(3);
    expect(await countSales(t.app)).toBe(before + 3);
    const mine = await api(t.app, 'GET', '/api/jobs?kind=sales-import', { token: admin });
    expect(mine.body.result.map((j: { id: string }) => j.id)).toContain(job.id);
    // Its owner is told, once, in the notifications centre.
    const told = await t.handle.query<{ title: string; body: string; link: string }>(
      "select title, body, link from notifications where key = $1 and kind = 'job'",
      [`job:${job.id}`],
    );
    expect(told).toEqual([
      { title: 'La importación de Ventas terminó', body: '3 filas guardadas', link: '/sales' },
    ]);
  });

  it('a file with one wrong row saves nothing and reports the row', async () => {
    const before = await countSales(t.app);
    const file = await salesWorkbook([
      saleRow(dealerCode, vin()),
      saleRow(dealerCode, vin(), { Marca: 'ZZ' }),
    ]);
    const res = await upload(t.app, admin, file);
    expect(res.status).toBe(202);
    const job = await settled(admin, res.body.result.id);
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ saved: 0, total: 2, failed: 1 });
    expect(job.result.report[1]).toMatchObject({ row: 3, ok: false, errors: ['Marca "ZZ" no existe'] });
    expect(await countSales(t.app)).toBe(before);
  });

  it('a file whose header is not the template fails the job with the Spanish message', async () => {
    const file = await salesWorkbook([['x', 'y']], ['Uno', 'Dos']);
    const res = await upload(t.app, admin, file);
    expect(res.status).toBe(202);
    const job = await settled(admin, res.body.result.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Los encabezados del archivo no son los de la plantilla/);
    expect(job.result).toBeNull();
    const [told] = await t.handle.query<{ title: string; body: string }>(
      'select title, body from notifications where key = $1',
      [`job:${job.id}`],
    );
    expect(told.title).toBe('La importación de Ventas falló');
    expect(told.body).toMatch(/^Los encabezados del archivo no son los de la plantilla/);
  });

  it('a broken file is refused at once (4xx), before anything is queued', async () => {
    const [{ n: before }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from background_jobs',
    );
    const file = await salesWorkbook([saleRow(dealerCode, vin())]);
    const res = await upload(t.app, admin, file.subarray(0, file.length - 200));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/no es un Excel \(\.xlsx\) válido/);
    const [{ n: after }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from background_jobs',
    );
    expect(after).toBe(before);
  });

  it('a file the directory check cannot judge (a 40,000-character cell) is answered 202 and its job fails with the Spanish message, nothing saved', async () => {
    const before = await countSales(t.app);
    const entries = await workbookEntries(await salesWorkbook([saleRow(dealerCode, vin())]));
    const sheet = entries.get('xl/worksheets/sheet1.xml')!.toString('utf8');
    // The second row's first cell becomes a 40,000-character inline string.
    const swollen = sheet.replace(
      /(<row r="2"[^>]*>)<c r="A2"[^>]*>.*?<\/c>/,
      `$1<c r="A2" t="inlineStr"><is><t>${'B'.repeat(40_000)}</t></is></c>`,
    );
    expect(swollen).not.toBe(sheet);
    const file = zipOf(
      [...entries].map(([name, content]) =>
        plainEntry(name, name === 'xl/worksheets/sheet1.xml' ? Buffer.from(swollen) : content),
      ),
    );
    const res = await upload(t.app, admin, file);
    expect(res.status).toBe(202);
    const job = await settled(admin, res.body.result.id);
    expect(job).toMatchObject({ status: 'failed', result: null });
    expect(job.error).toMatch(/más de 32767 caracteres/);
    expect(await countSales(t.app)).toBe(before);
  });

  it('a worksheet out of its place is refused at once by the directory check, nothing queued', async () => {
    const [{ n: before }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from background_jobs',
    );
    const entries = await workbookEntries(await salesWorkbook([saleRow(dealerCode, vin())]));
    const file = zipOf([
      ...[...entries].map(([name, content]) => plainEntry(name, content)),
      plainEntry('a/xl/worksheets/sheet1.xml', entries.get('xl/worksheets/sheet1.xml')!),
    ]);
    const res = await upload(t.app, admin, file);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/fuera de su lugar/);
    const [{ n: after }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from background_jobs',
    );
    expect(after).toBe(before);
  });

  it('a job is seen only by its owner; an unknown or malformed id is 404', async () => {
    const own = await createDealerUser(t.app, admin, uniq('DK'));
    const other = await createDealerUser(t.app, admin, uniq('DL'));
    const ownCode = (
      await t.handle.query<{ code: string }>('select code from dealers where id = $1', [own.dealerId])
    )[0].code;
    const res = await upload(t.app, own.token, await salesWorkbook([saleRow(ownCode, vin())]));
    expect(res.status).toBe(202);
    const id = res.body.result.id as string;
    expect((await settled(own.token, id)).result).toMatchObject({ saved: 1 });
    for (const token of [other.token, admin]) {
      const seen = await api(t.app, 'GET', `/api/jobs/${id}`, { token });
      expect(seen.status).toBe(404);
      expect(seen.body.error.message).toBe('El trabajo no existe o ya expiró');
      const list = await api(t.app, 'GET', '/api/jobs', { token });
      expect(list.body.result.map((j: { id: string }) => j.id)).not.toContain(id);
    }
    expect((await api(t.app, 'GET', '/api/jobs/1', { token: admin })).status).toBe(404);
    expect(
      (await api(t.app, 'GET', '/api/jobs/00000000-0000-0000-0000-000000000000', { token: admin })).status,
    ).toBe(404);
  });
});

describe('a big list export runs as a job', () => {
  /** A dealer user with `n` sales of its own dealer (imported as jobs, settled). */
  async function dealerWithSales(n: number) {
    const user = await createDealerUser(t.app, admin, uniq('DX'));
    const [{ code }] = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [
      user.dealerId,
    ]);
    const vins = Array.from({ length: n }, () => vin());
    const res = await upload(t.app, user.token, await salesWorkbook(vins.map((v) => saleRow(code, v))));
    expect((await settled(user.token, res.body.result.id)).result).toMatchObject({ saved: n });
    return { ...user, vins };
  }

  async function vinsOf(file: Buffer): Promise<string[]> {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as never);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
    const col = header.indexOf('VIN');
    expect(col).toBeGreaterThan(0);
    const out: string[] = [];
    ws.eachRow((row, i) => {
      if (i > 1) out.push(String(row.getCell(col).value));
    });
    return out;
  }

  it("answers 202 with the job; its file holds every row of the owner's scope and nothing else", async () => {
    const own = await dealerWithSales(4);
    const other = await dealerWithSales(4);
    const res = await api(t.app, 'GET', '/api/sales/export', { token: own.token });
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({ kind: 'export:sales', title: 'Exportación de CEM', total: 4 });
    const job = await settled(own.token, res.body.result.id);
    expect(job).toMatchObject({ status: 'done', percent: 100, error: null });
    expect(job.file_name).toMatch(/^CEM_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const file = await api(t.app, 'GET', `/api/jobs/${job.id}/file`, { token: own.token });
    expect(file.status).toBe(200);
    expect(String(file.headers['content-type'])).toContain('spreadsheetml');
    const vins = await vinsOf(file.raw);
    expect(vins.sort()).toEqual([...own.vins].sort());
    expect(vins.some((v) => other.vins.includes(v))).toBe(false);
    // Only its owner downloads it; the notification's link opens the job's dialog on the list.
    expect((await api(t.app, 'GET', `/api/jobs/${job.id}/file`, { token: other.token })).status).toBe(404);
    const told = await t.handle.query<{ title: string; link: string }>(
      "select title, link from notifications where key = $1 and kind = 'job'",
      [`job:${job.id}`],
    );
    expect(told).toEqual([{ title: 'La exportación de CEM terminó', link: `/sales?trabajo=${job.id}` }]);
  });

  it('a small export is streamed at once, as before', async () => {
    const own = await dealerWithSales(2);
    const res = await api(t.app, 'GET', '/api/sales/export', { token: own.token });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect((await vinsOf(res.raw)).sort()).toEqual([...own.vins].sort());
  });
});

describe('every declared import runs as a job when its file is big (defineImport)', () => {
  async function sheet(headers: readonly string[], rows: (string | number | null)[][]) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Hoja');
    ws.addRow([...headers]);
    for (const r of rows) ws.addRow(r);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
  async function send(url: string, file: Buffer) {
    const { multipart } = await import('./sales-fixtures');
    const { payload, headers } = multipart(file, 'archivo.xlsx');
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, authorization: `Bearer ${admin}` },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  }
  const audits = async (resource: string) =>
    (
      await t.handle.query<{ n: number }>(
        "select count(*)::int as n from audit_logs where resource = $1 and action = 'import'",
        [resource],
      )
    )[0].n;

  it('workshop: 202 with its own job kind, every row saved with one audit row', async () => {
    const before = await audits('workshop-infos');
    const file = await sheet(WORKSHOP_TEMPLATE_HEADERS, [
      [dealerCode, null, 2024, 5, 10, 9, 100, 90, 1000, 500],
      [dealerCode, null, 2024, 6, 11, 10, 110, 95, 1100, 550],
    ]);
    const res = await send('/api/workshop-infos/import', file);
    expect(res.status).toBe(202);
    expect(res.body.result).toMatchObject({ kind: 'workshop-import', status: 'queued', total: null });
    const job = await settled(admin, res.body.result.id);
    expect(job).toMatchObject({ status: 'done', error: null, total: 2 });
    expect(job.result).toMatchObject({ saved: 2, total: 2, failed: 0 });
    const [{ n }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from workshop_infos w join dealers d on d.id = w.dealer_id where d.code = $1',
      [dealerCode],
    );
    expect(n).toBe(2);
    expect(await audits('workshop-infos')).toBe(before + 1);
  });

  it('objectives: a wrong row in the job saves nothing and reports the row in Spanish', async () => {
    const file = await sheet(OBJECTIVES_TEMPLATE_HEADERS, [
      [dealerCode, 'V', 2025, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120],
      [dealerCode, 'ZZ', 2025, 5, null, null, null, null, null, null, null, null, null, null, null],
    ]);
    const res = await send('/api/dispatches-objectives/import', file);
    expect(res.status).toBe(202);
    expect(res.body.result.kind).toBe('objectives-import');
    const job = await settled(admin, res.body.result.id);
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ saved: 0, total: 2, failed: 1 });
    expect(job.result.report[1]).toMatchObject({ row: 3, ok: false, errors: ['Marca "ZZ" no existe'] });
    const [{ n }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from dispatch_objectives o join dealers d on d.id = o.dealer_id where d.code = $1',
      [dealerCode],
    );
    expect(n).toBe(0);
  });
});
