// Each concept's kind (count, money, percentage, days), decimals and plausible range: the grid
// calls refuse a value that breaks the kind (422 in Spanish naming the cell, nothing saved), and
// save one beyond the plausible range (the screen warns). The same for fees, the .xlsx upload and
// the capacities' counted fields.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext } from './harness';
import { multipart } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: { dealerId: number; token: string };
let concepts: {
  id: number;
  code: string;
  unit: string;
  decimals: number;
  plausible_min: number | null;
  plausible_max: number | null;
}[];
const Y = 2025;
const cid = (code: string) => concepts.find((c) => c.code === code)!.id;
const batch = (path: string, token: string, body: object) => api(t.app, 'PUT', path, { token, body });

async function stored(table: string, code: string, month: number) {
  const rows = await t.handle.query<{ value: string }>(
    `select x.value from ${table} x join concepts c on c.id = x.concept_id
     where x.dealer_id = $1 and x.year = $2 and x.month = $3 and c.code = $4`,
    [a.dealerId, Y, month, code],
  );
  return rows.length ? Number(rows[0].value) : null;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  a = await createDealerUser(t.app, admin);
  const res = await api(t.app, 'GET', '/api/concepts?perPage=-1', { token: admin });
  concepts = res.body.result;
  const ok = await api(t.app, 'POST', '/api/figures/enable', {
    token: admin,
    body: { year: Y, month: 5, dealer_ids: [a.dealerId] },
  });
  expect(ok.status).toBe(200);
});
afterAll(() => t?.close());

describe('concept kinds', () => {
  it('the seeded catalogue declares each kind, its decimals and a plausible range', () => {
    const of = (code: string) => concepts.find((c) => c.code === code)!;
    expect(of('TEST_DRIVE')).toMatchObject({ unit: 'UND', decimals: 0 });
    expect(of('VN_PEN')).toMatchObject({ unit: 'PEN', decimals: 2, plausible_min: 10000 });
    expect(of('CSI_VTA')).toMatchObject({ unit: 'PCT', decimals: 1, plausible_min: 0, plausible_max: 100 });
    expect(of('PERM_DIAS')).toMatchObject({ unit: 'DIA', decimals: 1 });
    for (const c of concepts) {
      expect(c.decimals, c.code).not.toBeNull();
      expect(c.plausible_max, c.code).not.toBeNull();
    }
  });

  it('a fractional count is a 422 naming the cell, and nothing of the batch is saved', async () => {
    const r = await batch('/api/figure-batch', a.token, {
      year: Y,
      values: [
        { concept_id: cid('VN_UND'), month: 5, value: 40 },
        { concept_id: cid('TEST_DRIVE'), month: 5, value: 1250000.5 },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error.message).toMatch(
      /^Pruebas de manejo, Mayo 2025 de .+: debe ser un número entero \(se ingresó 1250000\.5\)$/,
    );
    expect(r.body.error.validationErrors[0].field).toBe('values.1.value');
    expect(await stored('figures', 'VN_UND', 5)).toBeNull();
  });

  it('more decimals than the concept takes, or a negative count, are refused too', async () => {
    const pct = await batch('/api/figure-batch', a.token, {
      year: Y,
      values: [{ concept_id: cid('CSI_VTA'), month: 5, value: 87.55 }],
    });
    expect(pct.status).toBe(422);
    expect(pct.body.error.message).toMatch(/^CSI ventas, Mayo 2025 de .+: admite como máximo 1 decimal/);
    const neg = await batch('/api/figure-batch', a.token, {
      year: Y,
      values: [{ concept_id: cid('RECLAMOS'), month: 5, value: -3 }],
    });
    expect(neg.status).toBe(422);
    expect(neg.body.error.message).toMatch(/Reclamos recibidos, .+: no puede ser negativo/);
  });

  it('beyond the plausible range is saved (the screen warns)', async () => {
    const r = await batch('/api/figure-batch', a.token, {
      year: Y,
      values: [
        { concept_id: cid('VN_PEN'), month: 5, value: 14 },
        { concept_id: cid('PERM_DIAS'), month: 5, value: 3.2 },
        { concept_id: cid('TEST_DRIVE'), month: 5, value: 1250000 },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await stored('figures', 'VN_PEN', 5)).toBe(14);
    expect(await stored('figures', 'PERM_DIAS', 5)).toBe(3.2);
  });

  it('fees follow the same kinds', async () => {
    const r = await batch('/api/fees-batch', admin, {
      year: Y,
      dealer_id: a.dealerId,
      values: [{ concept_id: cid('VN_UND'), month: 6, value: 12.5 }],
    });
    expect(r.status).toBe(422);
    expect(r.body.error.message).toMatch(
      /^Venta de vehículos nuevos, Junio 2025 de .+: debe ser un número entero/,
    );
    expect(await stored('fees', 'VN_UND', 6)).toBeNull();
  });

  it('an uploaded grid with a fractional count is refused row by row, nothing saved', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Cifras');
    const dealer = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [
      a.dealerId,
    ]);
    ws.addRow([
      'Año',
      'Código concesionario',
      'Concesionario',
      'Código concepto',
      'Concepto',
      'Unidad',
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
    ]);
    ws.addRow([Y, dealer[0].code, '', 'OT_UND', '', '', null, null, null, null, 10.5]);
    const mp = multipart(Buffer.from(await wb.xlsx.writeBuffer()), 'cifras.xlsx');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/figures/import',
      headers: { ...mp.headers, authorization: `Bearer ${a.token}` },
      payload: mp.payload,
    });
    const r = { status: res.statusCode, body: res.json() };
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result.failed).toBe(1);
    expect(r.body.result.report[0].message).toBe('May: debe ser un número entero (se ingresó 10.5)');
    expect(await stored('figures', 'OT_UND', 5)).toBeNull();
  });

  it('capacities: bays and technicians are counts', async () => {
    const made = await api(t.app, 'POST', '/api/dealer-branches', {
      token: admin,
      body: { dealer_id: a.dealerId, name: 'Sede Principal' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const branch = [{ id: made.body.result.id as number }];
    const r = await api(t.app, 'PUT', '/api/capacity-batch', {
      token: a.token,
      body: { year: Y, month: 5, rows: [{ dealer_branch_id: branch[0].id, bays: 4.5, technicians: 5 }] },
    });
    expect(r.status).toBe(422);
    expect(r.body.error.validationErrors[0]).toEqual({
      field: 'rows.0.bays',
      message: 'Bahías debe ser un número entero',
    });
  });
});
