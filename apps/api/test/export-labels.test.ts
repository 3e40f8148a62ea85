// Exports write what the screen shows (issue 16): a fixed list's name, not its stored code, and
// date-only columns as Excel dates, not text.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, login, type TestContext, uniq } from './harness';
import { createDealer, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
const vin = vinFactory();

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
});
afterAll(() => t?.close());

describe('xlsx export of a resource', () => {
  it('writes the labels of fixed lists and real dates for date-only columns', async () => {
    const dealer = await createDealer(t.app, admin, uniq('EX'));
    const [brand] = await t.handle.query<{ id: number }>(`select id from manufacturers where code = 'V'`);
    const invoice = uniq('F-EXP');
    const created = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: {
        dealer_id: dealer,
        sale_date: '2025-06-01',
        invoice,
        buyer_name: 'Ana Torres',
        document_type: 'CE',
        document_number: '001234567',
        email: 'ana@example.com',
        vin: vin(),
        manufacturer_id: brand.id,
        model_name: 'Compacto',
        year: 2025,
        payment_method: 'E',
      },
    });
    expect(created.status).toBe(200);

    const res = await api(
      t.app,
      'GET',
      `/api/sales/export?columns=invoice,sale_date,document_type,survey_status&query=${invoice}`,
      { token: admin },
    );
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).values).toEqual([undefined, 'Factura', 'Fecha Venta', 'Tipo Documento', 'Encuesta']);
    const row = ws.getRow(2);
    expect(row.getCell(1).value).toBe(invoice);
    // A date, shown as the screen shows it (2025-06-01), not the text '2025-06-01'.
    expect(row.getCell(2).value).toBeInstanceOf(Date);
    expect((row.getCell(2).value as Date).toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(row.getCell(2).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(3).value).toBe('Carnet de extranjería');
    expect(row.getCell(4).value).toBe('Sin enviar');
  });

  it('the audit export names resources by their title and actions in Spanish', async () => {
    const name = uniq('Zona auditada ');
    await api(t.app, 'POST', '/api/zones', { token: admin, body: { name } });
    const res = await api(
      t.app,
      'GET',
      '/api/audit-logs/export?columns=resource,action&filter[resource]=zones&sort=id&order=desc',
      { token: admin },
    );
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const row = wb.worksheets[0].getRow(2);
    expect([row.getCell(1).value, row.getCell(2).value]).toEqual(['Zonas', 'Creó']);
  });
});
