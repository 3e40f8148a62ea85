// Sales import (.xlsx), template, JSON batch: all rows or none, with a per-row report.
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limaYear } from '../src/core/lima';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import {
  countSales,
  createDealer,
  saleObject,
  saleRow,
  salesWorkbook,
  upload,
  vinFactory,
} from './sales-fixtures';

let t: TestContext;
let admin: string;
let dealerA: string;
let dealerB: string;
const vin = vinFactory();

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealerA = uniq('DA');
  dealerB = uniq('DB');
  const aId = await createDealer(t.app, admin, dealerA);
  await createDealer(t.app, admin, dealerB);
  await api(t.app, 'POST', '/api/dealer-branches', {
    token: admin,
    body: { dealer_id: aId, code: 'S1', name: 'Sede Centro' },
  });
});
afterAll(() => t?.close());

describe('GET /api/sales/template', () => {
  it('downloads the empty template with the header row of the spec', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sales/template',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([...SALES_IMPORT_HEADERS]);
    expect(ws.rowCount).toBe(1);
  });
});

describe('POST /api/sales/import', () => {
  it('saves valid rows (text date, Excel date, branch, invalid email kept as invalid contact)', async () => {
    const before = await countSales(t.app);
    const v1 = vin();
    const v2 = vin();
    const v3 = vin();
    const file = await salesWorkbook([
      saleRow(dealerA, v1, { Sede: 'S1' }),
      saleRow(dealerA, v2, {
        'Fecha Venta': new Date(Date.UTC(2025, 1, 3)),
        Marca: 'N',
        'Forma de Pago': 'Tarjeta',
      }),
      saleRow(dealerB, v3, { Email: 'no-es-un-correo' }),
    ]);
    const res = await upload(t.app, admin, file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.saved).toBe(3);
    expect(res.body.result.report.map((r: { row: number; ok: boolean }) => [r.row, r.ok])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(res.body.result.report[2].warnings[0]).toContain('no es válido');
    expect(await countSales(t.app)).toBe(before + 3);
    const list = await api(t.app, 'GET', `/api/sales?query=${v2}`, { token: admin });
    expect(list.body.result.data).toHaveLength(1);
    const s2 = list.body.result.data[0];
    expect(s2.sale_date).toBe('2025-02-03');
    expect(s2.payment_method).toBe('T');
    expect(s2.manufacturer_name).toBeTruthy();
    const s1 = (await api(t.app, 'GET', `/api/sales?query=${v1}`, { token: admin })).body.result.data[0];
    expect(s1.dealer_branch_name).toBe('Sede Centro');
    expect(s1.survey_status).toBe('sin_enviar');
    const s3 = (await api(t.app, 'GET', `/api/sales?query=${v3}`, { token: admin })).body.result.data[0];
    expect(s3.survey_status).toBe('contacto_invalido');
    expect(s3.email).toBeNull();
  });

  it('saves nothing when one row among 10,000 is wrong, and the report names that row', async () => {
    const before = await countSales(t.app);
    const rows = Array.from({ length: 10_000 }, () => saleRow(dealerA, vin()));
    rows[6_543] = saleRow(dealerA, vin(), { Marca: 'ZZ', 'Forma de Pago': 'X' });
    const res = await upload(t.app, admin, await salesWorkbook(rows));
    expect(res.status).toBe(200);
    const { result } = res.body;
    expect(result.saved).toBe(0);
    expect(result.total).toBe(10_000);
    expect(result.failed).toBe(1);
    expect(result.report).toHaveLength(10_000);
    const bad = result.report.filter((r: { ok: boolean }) => !r.ok);
    expect(bad).toHaveLength(1);
    expect(bad[0].row).toBe(6_545); // header is row 1
    expect(bad[0].errors).toEqual(['Marca "ZZ" no existe', 'Forma de Pago "X" no es válida (E, T, D, G)']);
    expect(await countSales(t.app)).toBe(before);
    // The corrected file saves every row (several batches in one transaction).
    rows[6_543] = saleRow(dealerA, vin());
    const fixed = await upload(t.app, admin, await salesWorkbook(rows));
    expect(fixed.body.result).toMatchObject({ saved: 10_000, total: 10_000, failed: 0 });
    expect(await countSales(t.app)).toBe(before + 10_000);
  }, 300_000);

  it('refuses a VIN already sold and a VIN repeated in the file', async () => {
    const sold = vin();
    const first = await upload(t.app, admin, await salesWorkbook([saleRow(dealerA, sold)]));
    expect(first.body.result.saved).toBe(1);
    const twice = vin();
    const res = await upload(
      t.app,
      admin,
      await salesWorkbook([saleRow(dealerA, sold), saleRow(dealerA, twice), saleRow(dealerA, twice)]),
    );
    const r = res.body.result;
    expect(r.saved).toBe(0);
    expect(r.report[0]).toMatchObject({ row: 2, ok: false });
    expect(r.report[0].errors[0]).toContain('ya fue vendido');
    expect(r.report[1]).toMatchObject({ row: 3, ok: true });
    expect(r.report[2]).toMatchObject({ row: 4, ok: false, errors: [`VIN ${twice} repetido en la fila 3`] });
  });

  it('explains each wrong cell in Spanish', async () => {
    const res = await upload(
      t.app,
      admin,
      await salesWorkbook([
        saleRow('NOEXISTE', 'I0', {
          'Fecha Venta': '15/03/2025',
          Factura: null,
          'Tipo Documento': 'DNI',
          Documento: '123',
          Cliente: null,
          Año: 1800,
          Sede: 'X',
        }),
      ]),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.report[0].errors).toEqual([
      'Concesionario "NOEXISTE" no existe',
      'Fecha Venta no es una fecha válida (formato YYYY-MM-DD)',
      'Factura es obligatorio',
      'Documento: un DNI tiene 8 dígitos',
      'Cliente es obligatorio',
      'VIN "I0" no es válido: 17 letras o dígitos, sin I, O ni Q',
      `Año "1800" no es válido (entre 1990 y ${limaYear() + 1})`,
    ]);
  });

  it('lets a dealer user import only its own dealer rows', async () => {
    const du = await createDealerUser(t.app, admin);
    const [{ code }] = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [
      du.dealerId,
    ]);
    const before = await countSales(t.app);
    const mixed = await upload(
      t.app,
      du.token,
      await salesWorkbook([saleRow(code, vin()), saleRow(dealerA, vin())]),
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body.result.saved).toBe(0);
    expect(mixed.body.result.report[1].errors[0]).toContain('no es su concesionario');
    expect(await countSales(t.app)).toBe(before);
    const own = await upload(t.app, du.token, await salesWorkbook([saleRow(code, vin())]));
    expect(own.body.result.saved).toBe(1);
    const list = await api(t.app, 'GET', '/api/sales?perPage=50', { token: du.token });
    expect(list.body.result.data.every((s: { dealer_id: number }) => s.dealer_id === du.dealerId)).toBe(true);
    expect(list.body.result.data).toHaveLength(1);
  });

  describe('broken files get a clear message and save nothing', () => {
    it('not an xlsx', async () => {
      const res = await upload(t.app, admin, Buffer.from('a,b,c\n1,2,3\n'), 'ventas.csv');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('no es un Excel (.xlsx) válido');
      const renamed = await upload(t.app, admin, Buffer.from('texto que no es zip'), 'ventas.xlsx');
      expect(renamed.status).toBe(400);
      expect(renamed.body.error.message).toContain('no es un Excel (.xlsx) válido');
    });
    it('a zip that is not a workbook', async () => {
      const res = await upload(
        t.app,
        admin,
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('no es un Excel (.xlsx) válido');
    });
    it('empty file', async () => {
      const res = await upload(t.app, admin, Buffer.alloc(0));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('El archivo está vacío');
    });
    it('wrong headers', async () => {
      const headers: string[] = [...SALES_IMPORT_HEADERS];
      headers[9] = 'Chasis';
      const res = await upload(t.app, admin, await salesWorkbook([saleRow(dealerA, vin())], headers));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Los encabezados del archivo no son los de la plantilla');
      expect(res.body.error.details).toContain('Chasis');
    });
    it('header but no rows', async () => {
      const res = await upload(t.app, admin, await salesWorkbook([]));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('no tiene filas de ventas');
    });
    it('more than 20 MB of junk', async () => {
      const junk = Buffer.alloc(21 * 1024 * 1024, 0x41);
      const res = await upload(t.app, admin, junk);
      expect(res.status).toBe(413);
      expect(res.body.error.message).toContain('20 MB');
    });
    it('no file field', async () => {
      const res = await upload(
        t.app,
        admin,
        await salesWorkbook([saleRow(dealerA, vin())]),
        'ventas.xlsx',
        'otro',
      );
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('campo "file"');
      const json = await api(t.app, 'POST', '/api/sales/import', { token: admin, body: {} });
      expect(json.status).toBe(400);
    });
  });

  it('needs Sales.store', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sales/import' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/sales/batch', () => {
  it('applies the same rules to JSON rows: all or none', async () => {
    const before = await countSales(t.app);
    const bad = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: { rows: [saleObject(dealerA, vin()), saleObject(dealerA, vin(), { document_type: 'XX' })] },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.result.saved).toBe(0);
    expect(bad.body.result.report[1]).toMatchObject({
      row: 2,
      ok: false,
      errors: ['Tipo Documento "XX" no es válido (DNI, RUC, CE, PAS)'],
    });
    expect(await countSales(t.app)).toBe(before);
    const good = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: {
        rows: [
          saleObject(dealerA, vin()),
          saleObject(dealerB, vin(), { document_type: 'RUC', document_number: '20123456789' }),
        ],
      },
    });
    expect(good.body.result.saved).toBe(2);
    expect(await countSales(t.app)).toBe(before + 2);
  });

  it('writes one audit row per saved run (who, from where, how many), none for a refused run', async () => {
    const audits = async () =>
      (
        await api(t.app, 'GET', '/api/audit-logs?filter[resource]=sales&sort=id&order=desc&perPage=100', {
          token: admin,
        })
      ).body.result.data as { action: string; username: string; after: Record<string, number> }[];
    const before = (await audits()).length;
    const refused = await upload(t.app, admin, await salesWorkbook([saleRow(dealerA, 'NO-ES-UN-VIN')]));
    expect(refused.body.result.saved).toBe(0);
    expect((await audits()).length).toBe(before);
    const file = await salesWorkbook([
      saleRow(dealerA, vin()),
      saleRow(dealerB, vin()),
      saleRow(dealerB, vin()),
    ]);
    expect((await upload(t.app, admin, file)).body.result.saved).toBe(3);
    const batch = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: { rows: [saleObject(dealerA, vin())] },
    });
    expect(batch.body.result.saved).toBe(1);
    const rows = await audits();
    expect(rows.length).toBe(before + 2);
    expect(rows[0]).toMatchObject({ action: 'batch', username: 'admin', after: { saved: 1, dealers: 1 } });
    expect(rows[1]).toMatchObject({ action: 'import', username: 'admin', after: { saved: 3, dealers: 2 } });
  });

  it('keeps text with commas, quotes, braces and backslashes intact', async () => {
    const v = vin();
    const name = 'Perez, "Juan" {Jr} \\ NULL';
    const res = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: { rows: [saleObject(dealerA, v, { buyer_name: name, seller: null, phone: '' })] },
    });
    expect(res.body.result.saved).toBe(1);
    const [row] = await t.handle.query<{ buyer_name: string; seller: string | null; phone: string | null }>(
      'select buyer_name, seller, phone from sales where vin = $1',
      [v],
    );
    expect(row).toEqual({ buyer_name: name, seller: null, phone: null });
  });

  it('rejects a body without rows', async () => {
    const res = await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows: [] } });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe('No hay filas para guardar');
  });
});
