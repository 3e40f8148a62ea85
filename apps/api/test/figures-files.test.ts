// The figures and fees files (export, then the upload of that same file: only changes are
// applied, all of them or none, with a report per row) and the CASIS pull against a stub server
// on 127.0.0.1 (unconfigured, saved, a wrong row, a cut-off answer, a slow answer: never half a
// month).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASIS } from '../src/connectors/casis';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';
import { setSetting, uploadTo } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let b: { dealerId: number; token: string };
let codeA: string;
let codeB: string;
let concepts: { id: number; code: string }[];
const Y = 2025;
const cid = (code: string) => concepts.find((c) => c.code === code)!.id;

/** The grids' uploads (figures, fees) as the screen sends them. */
const uploadGrid = (url: string, token: string, file: Buffer) =>
  uploadTo(t.app, url, token, file, 'grilla.xlsx');

async function workbookOf(raw: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as any);
  return wb;
}

/** Row number of a dealer × concept in an exported sheet. */
function rowOf(ws: ExcelJS.Worksheet, dealerCode: string, conceptCode: string): number {
  let found = 0;
  ws.eachRow((row, n) => {
    if (row.getCell(2).value === dealerCode && row.getCell(4).value === conceptCode) found = n;
  });
  return found;
}

async function figure(dealerId: number, code: string, month: number): Promise<number | undefined> {
  const [row] = await t.handle.query<{ value: string }>(
    'select value from figures where dealer_id = $1 and year = $2 and month = $3 and concept_id = $4',
    [dealerId, Y, month, cid(code)],
  );
  return row ? Number(row.value) : undefined;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  b = await createDealerUser(t.app, admin);
  const dealers = (await api(t.app, 'GET', '/api/dealers?perPage=-1', { token: admin })).body.result;
  codeA = dealers.find((d: { id: number }) => d.id === a.dealerId).code;
  codeB = dealers.find((d: { id: number }) => d.id === b.dealerId).code;
  concepts = (await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin })).body.result;
  for (const month of [1, 2]) {
    await api(t.app, 'POST', '/api/figures/enable', {
      token: admin,
      body: { year: Y, month, dealer_ids: [a.dealerId, b.dealerId] },
    });
  }
  await api(t.app, 'PUT', '/api/figure-batch', {
    token: a.token,
    body: {
      year: Y,
      values: [
        { concept_id: cid('VN_UND'), month: 1, value: 30 },
        { concept_id: cid('VN_UND'), month: 2, value: 25 },
      ],
    },
  });
  const confirmed = await api(t.app, 'POST', '/api/figures/confirm', {
    token: a.token,
    body: { year: Y, month: 1 },
  });
  expect(confirmed.status).toBe(200);
});
afterAll(() => t?.close());

describe('figures file', () => {
  it('exports the year as one row per dealer × concept with the twelve months', async () => {
    const res = await api(t.app, 'GET', `/api/figures/export?year=${Y}`, { token: a.token });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(`Cifras_${Y}_${codeA}.xlsx`);
    const ws = (await workbookOf(res.raw)).worksheets[0];
    expect((ws.getRow(1).values as unknown[]).slice(1, 8)).toEqual([
      'Año',
      'Código concesionario',
      'Concesionario',
      'Código concepto',
      'Concepto',
      'Unidad',
      'Ene',
    ]);
    expect(ws.rowCount).toBe(1 + concepts.length);
    const r = ws.getRow(rowOf(ws, codeA, 'VN_UND'));
    expect([r.getCell(7).value, r.getCell(8).value, r.getCell(9).value]).toEqual([30, 25, null]);
    // A dealer user's export holds its own dealer only.
    expect(rowOf(ws, codeB, 'VN_UND')).toBe(0);
  });

  it('uploads the edited file: changes in enabled months are saved, unchanged rows skipped', async () => {
    const res = await api(t.app, 'GET', `/api/figures/export?year=${Y}`, { token: a.token });
    const wb = await workbookOf(res.raw);
    const ws = wb.worksheets[0];
    ws.getRow(rowOf(ws, codeA, 'VN_UND')).getCell(8).value = 27; // February: enabled
    ws.getRow(rowOf(ws, codeA, 'OT_UND')).getCell(8).value = '1,250'; // es-PE thousands
    const up = await uploadGrid('/api/figures/import', a.token, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.result).toMatchObject({ saved: 2, failed: 0, total: concepts.length });
    expect(await figure(a.dealerId, 'VN_UND', 2)).toBe(27);
    expect(await figure(a.dealerId, 'OT_UND', 2)).toBe(1250);
    expect(await figure(a.dealerId, 'VN_UND', 1)).toBe(30);
  });

  it('refuses the whole file when a row changes a confirmed or closed month, or is wrong', async () => {
    const res = await api(t.app, 'GET', `/api/figures/export?year=${Y}`, { token: a.token });
    const wb = await workbookOf(res.raw);
    const ws = wb.worksheets[0];
    const vn = rowOf(ws, codeA, 'VN_UND');
    ws.getRow(vn).getCell(8).value = 28; // February: fine alone
    ws.getRow(vn).getCell(7).value = 31; // January: confirmed
    ws.getRow(rowOf(ws, codeA, 'VU_UND')).getCell(10).value = 3; // April: closed
    ws.getRow(rowOf(ws, codeA, 'CSI_PV')).getCell(8).value = 'ochenta';
    const up = await uploadGrid('/api/figures/import', a.token, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(up.status).toBe(200);
    expect(up.body.result.saved).toBe(0);
    expect(up.body.result.failed).toBe(3);
    const messages = up.body.result.report
      .filter((r: { ok: boolean }) => !r.ok)
      .map((r: { message: string }) => r.message);
    expect(messages).toContain('Ene: el periodo está confirmado, no se puede cambiar');
    expect(messages).toContain('Abr: el periodo está cerrado, no se puede cambiar');
    expect(messages).toContain('Feb: "ochenta" no es un número');
    expect(await figure(a.dealerId, 'VN_UND', 2)).toBe(27);
  });

  it('refuses a file of another dealer for a dealer user, and a file that is not the grid', async () => {
    const res = await api(t.app, 'GET', `/api/figures/export?year=${Y}&dealer_id=${b.dealerId}`, {
      token: admin,
    });
    const wb = await workbookOf(res.raw);
    wb.worksheets[0].getRow(2).getCell(8).value = 9;
    const up = await uploadGrid('/api/figures/import', a.token, Buffer.from(await wb.xlsx.writeBuffer()));
    expect(up.body.result.saved).toBe(0);
    expect(up.body.result.report[0].message).toBe(
      `El concesionario "${codeB}" no existe o no le corresponde`,
    );
    const other = new ExcelJS.Workbook();
    other.addWorksheet('x').addRow(['Fecha', 'Total']);
    const wrong = await uploadGrid(
      '/api/figures/import',
      a.token,
      Buffer.from(await other.xlsx.writeBuffer()),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/^El archivo no tiene las columnas de la plantilla/);
    const broken = await uploadGrid('/api/figures/import', a.token, Buffer.from('no es un excel'));
    expect(broken.status).toBe(400);
  });
});

describe('fees file', () => {
  it('exports and uploads the same file (manufacturer); a dealer user cannot upload', async () => {
    const res = await api(t.app, 'GET', `/api/fees/export?year=${Y}&dealer_id=${b.dealerId}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    const wb = await workbookOf(res.raw);
    const ws = wb.worksheets[0];
    const row = ws.getRow(rowOf(ws, codeB, 'VN_UND'));
    for (let m = 1; m <= 12; m++) row.getCell(6 + m).value = 10 + m;
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    expect((await uploadGrid('/api/fees/import', b.token, file)).status).toBe(403);
    const up = await uploadGrid('/api/fees/import', admin, file);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.result.saved).toBe(12);
    const grid = await api(t.app, 'GET', `/api/fees?year=${Y}&dealer_id=${b.dealerId}`, { token: b.token });
    const months = grid.body.result.fees.values
      .filter((v: { concept_id: number }) => v.concept_id === cid('VN_UND'))
      .sort((x: { month: number }, y: { month: number }) => x.month - y.month)
      .map((v: { value: number }) => v.value);
    expect(months).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]);
  });
});

describe('CASIS pull', () => {
  let stub: Server;
  let answer: (res: import('node:http').ServerResponse) => void = (res) => res.end('[]');
  const requests: string[] = [];

  beforeAll(async () => {
    stub = createServer((req, res) => {
      requests.push(req.url ?? '');
      answer(res);
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise((r) => stub.close(r));
  });
  const json = (body: unknown) => (res: import('node:http').ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const pull = (token: string, body: object) => api(t.app, 'POST', '/api/casis-api', { token, body });

  it('answers a clear Spanish error while unconfigured', async () => {
    const res = await pull(admin, { year: Y, month: 2 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^CASIS no está configurado: registre CASIS_API_URL/);
    // A dealer cannot open Preferencias > Configuraciones: it is not sent there.
    const byDealer = await pull(a.token, { year: Y, month: 2 });
    expect(byDealer.status).toBe(400);
    expect(byDealer.body.error.message).toBe(
      'CASIS no está configurado: pida al administrador del sistema que lo configure',
    );
  });

  it('saves the month of the enabled dealers and skips the others', async () => {
    const port = (stub.address() as AddressInfo).port;
    await setSetting(t.app, 'CASIS_API_URL', `http://127.0.0.1:${port}/cifras`);
    await setSetting(t.app, 'CASIS_API_TOKEN', 'casis-secreto');
    answer = json({
      data: [
        { dealer_code: codeA, concept_code: 'TEST_DRIVE', value: 64 },
        { concesionario: codeB, concepto: 'TEST_DRIVE', valor: '58' },
      ],
    });
    // January: A confirmed (skipped), B enabled.
    const res = await pull(admin, { year: Y, month: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 1, total: 2, failed: 0, skipped: 1 });
    expect(res.body.result.report[0].message).toMatch(
      /^Omitida: el periodo Enero 2025 de .+ está confirmado$/,
    );
    expect(await figure(b.dealerId, 'TEST_DRIVE', 1)).toBe(58);
    expect(await figure(a.dealerId, 'TEST_DRIVE', 1)).toBeUndefined();
    expect(requests.at(-1)).toBe('/cifras?year=2025&month=1');
    // A dealer user's pull asks CASIS for its dealer only.
    answer = json([{ dealer_code: codeA, concept_code: 'TEST_DRIVE', value: 70 }]);
    const own = await pull(a.token, { year: Y, month: 2 });
    expect(own.body.result.saved).toBe(1);
    expect(requests.at(-1)).toBe(`/cifras?year=2025&month=2&dealer_code=${codeA}`);
  });

  it('saves nothing when a row is wrong, when the answer is cut off, or when CASIS is slow', async () => {
    answer = json([
      { dealer_code: codeB, concept_code: 'TEST_DRIVE', value: 1 },
      { dealer_code: codeB, concept_code: 'NO_EXISTE', value: 2 },
      { dealer_code: 'ZZZ', concept_code: 'TEST_DRIVE', value: 'x' },
    ]);
    const wrong = await pull(admin, { year: Y, month: 2 });
    expect(wrong.body.result).toMatchObject({ saved: 0, failed: 2 });
    expect(wrong.body.result.report.map((r: { message: string }) => r.message)).toEqual([
      'El concepto "NO_EXISTE" no existe o no está habilitado',
      'El concesionario "ZZZ" no existe; El valor "x" no es un número',
    ]);
    expect(await figure(b.dealerId, 'TEST_DRIVE', 2)).toBeUndefined();

    answer = (res) => {
      res.setHeader('content-type', 'application/json');
      res.write(`[{"dealer_code":"${codeB}","concept_code":"TEST_DRIVE","value":5},{"dealer_co`);
      res.destroy();
    };
    const cut = await pull(admin, { year: Y, month: 2 });
    expect(cut.status).toBe(502);
    expect(cut.body.error.message).toMatch(/^No se pudieron obtener las cifras de CASIS/);
    expect(await figure(b.dealerId, 'TEST_DRIVE', 2)).toBeUndefined();

    const timeout = CASIS.timeoutMs;
    CASIS.timeoutMs = 300;
    answer = (res) =>
      setTimeout(() => json([{ dealer_code: codeB, concept_code: 'TEST_DRIVE', value: 9 }])(res), 2000);
    try {
      const slow = await pull(admin, { year: Y, month: 2 });
      expect(slow.status).toBe(502);
    } finally {
      CASIS.timeoutMs = timeout;
    }
    expect(await figure(b.dealerId, 'TEST_DRIVE', 2)).toBeUndefined();
  });
});
