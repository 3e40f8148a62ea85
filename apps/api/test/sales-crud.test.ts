// The sales resource through the generic engine: the dialog's create/update, its rules and
// dealer isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limaYear } from '../src/core/lima';
import { api, createDealerUser, createTestApp, login, type TestContext, testDay, uniq } from './harness';
import { createDealer, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let dealerA: number;
let dealerB: number;
let branchB: number;
let brandV: number;
let brandN: number;
const vin = vinFactory();

const sale = (over: Record<string, unknown> = {}) => ({
  dealer_id: dealerA,
  sale_date: '2025-06-01',
  invoice: 'F001-1',
  buyer_name: 'Ana Torres',
  document_type: 'DNI',
  document_number: '12345678',
  email: 'ana@example.com',
  vin: vin(),
  manufacturer_id: brandV,
  model_name: 'Compacto',
  year: 2025,
  payment_method: 'E',
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealerA = await createDealer(t.app, admin, uniq('CA'));
  dealerB = await createDealer(t.app, admin, uniq('CB'));
  const b = await api(t.app, 'POST', '/api/dealer-branches', {
    token: admin,
    body: { dealer_id: dealerB, name: 'Sede B' },
  });
  branchB = b.body.result.id;
  const m = await t.handle.query<{ id: number; code: string }>(
    `select id, code from manufacturers where code in ('V','N')`,
  );
  brandV = m.find((x) => x.code === 'V')!.id;
  brandN = m.find((x) => x.code === 'N')!.id;
});
afterAll(() => t?.close());

describe('sales resource', () => {
  it("the dialog checks the import's rules: no future date, a DNI of 8 digits, a year up to next year", async () => {
    const tomorrow = testDay(1);
    const nextYear = limaYear() + 1;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ sale_date: tomorrow }, 'sale_date', 'Fecha Venta no puede ser una fecha futura'],
      [{ sale_date: '1999-12-31' }, 'sale_date', 'Fecha Venta no puede ser anterior al 2000-01-01'],
      [{ document_number: '12345' }, 'document_number', 'Documento: un DNI tiene 8 dígitos'],
      [
        { document_type: 'RUC', document_number: '12345678901' },
        'document_number',
        'Documento: un RUC tiene 11 dígitos y empieza con 10, 15, 17 o 20',
      ],
      [{ year: 2100 }, 'year', `Año "2100" no es válido (entre 1990 y ${nextYear})`],
    ];
    const before = await t.handle.query<{ n: number }>('select count(*)::int as n from sales');
    for (const [over, field, message] of cases) {
      const res = await api(t.app, 'POST', '/api/sales', { token: admin, body: sale(over) });
      expect(res.status, JSON.stringify(over)).toBe(422);
      expect(res.body.error.validationErrors).toContainEqual({ field, message });
    }
    const after = await t.handle.query<{ n: number }>('select count(*)::int as n from sales');
    expect(after[0].n).toBe(before[0].n);
    // An update is checked as the record it leaves: a DNI of 5 digits is refused.
    const ok = await api(t.app, 'POST', '/api/sales', { token: admin, body: sale({ year: nextYear }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const put = await api(t.app, 'PUT', `/api/sales/${ok.body.result.id}`, {
      token: admin,
      body: { document_number: '12345' },
    });
    expect(put.status).toBe(422);
    expect(put.body.error.validationErrors).toContainEqual({
      field: 'document_number',
      message: 'Documento: un DNI tiene 8 dígitos',
    });
  });

  it('creates a sale from the dialog; a VIN already sold answers 409', async () => {
    const body = sale({ vin: vin().toLowerCase() });
    const res = await api(t.app, 'POST', '/api/sales', { token: admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.vin).toBe(String(body.vin).toUpperCase());
    expect(res.body.result.survey_status).toBe('sin_enviar');
    const again = await api(t.app, 'POST', '/api/sales', { token: admin, body: { ...body } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain('VIN');
  });

  it('validates fields with Spanish messages', async () => {
    const res = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: sale({ vin: 'CORTO', email: 'x', payment_method: 'Z', buyer_name: '' }),
    });
    expect(res.status).toBe(422);
    const byField = Object.fromEntries(
      res.body.error.validationErrors.map((e: { field: string; message: string }) => [e.field, e.message]),
    );
    expect(byField.vin).toBe('VIN debe tener 17 caracteres (letras y números, sin I, O, Q)');
    expect(byField.email).toBe('Debe ser un Email válido.');
    expect(byField.payment_method).toBe('Forma de Pago no es válida');
    expect(byField.buyer_name).toBe('Cliente es obligatorio');
  });

  it('refuses a branch of another dealer and a model of another brand', async () => {
    const res = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: sale({ dealer_branch_id: branchB }),
    });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toContainEqual({
      field: 'dealer_branch_id',
      message: 'La sede no pertenece al concesionario',
    });
    const model = await api(t.app, 'POST', '/api/manufacturer-models', {
      token: admin,
      body: { manufacturer_id: brandN, name: uniq('Modelo') },
    });
    const wrong = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: sale({ manufacturer_model_id: model.body.result.id }),
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.validationErrors[0].message).toBe('El modelo no pertenece a la marca');
  });

  it('the survey status is not edited by hand', async () => {
    const created = await api(t.app, 'POST', '/api/sales', { token: admin, body: sale() });
    const upd = await api(t.app, 'PUT', `/api/sales/${created.body.result.id}`, {
      token: admin,
      body: { survey_status: 'respondida', buyer_name: 'Ana T.' },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.result.buyer_name).toBe('Ana T.');
    expect(upd.body.result.survey_status).toBe('sin_enviar');
  });

  it("a dealer user writes its own dealer's sales and never sees another's", async () => {
    const du = await createDealerUser(t.app, admin);
    const mine = await api(t.app, 'POST', '/api/sales', {
      token: du.token,
      body: sale({ dealer_id: dealerA }),
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.result.dealer_id).toBe(du.dealerId);
    const other = await api(t.app, 'POST', '/api/sales', {
      token: admin,
      body: sale({ dealer_id: dealerB }),
    });
    const id = other.body.result.id;
    expect((await api(t.app, 'GET', `/api/sales/get/${id}`, { token: du.token })).status).toBe(404);
    expect(
      (await api(t.app, 'PUT', `/api/sales/${id}`, { token: du.token, body: { buyer_name: 'x' } })).status,
    ).toBe(404);
    const list = await api(t.app, 'GET', '/api/sales?perPage=50', { token: du.token });
    expect(list.body.result.data.map((s: { id: number }) => s.id)).toEqual([mine.body.result.id]);
    const dealers = await api(t.app, 'GET', '/api/sale-dealers', { token: du.token });
    expect(dealers.body.result.map((d: { id: number }) => d.id)).toEqual([du.dealerId]);
  });
});
