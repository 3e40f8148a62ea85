// The low items of the outside probe: API answers are never cached, very long addresses answer
// 414, document file names lose bidirectional controls, formula-like text exports as a text cell
// (a '+51 …' phone unaltered), dealers do not read the external systems' and mail settings, a
// new e-mail asks for the current password, and the workshop pre-check uses its own row limit.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../src/modules/documents/documents.samples';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  api,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
  uniq,
} from './harness';
import { multipart } from './sales-fixtures';
import { repeatedEntry, templateWith } from './zip-bombs';

let t: TestContext;
let admin: string;
let dealer: Awaited<ReturnType<typeof createDealerUser>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealer = await createDealerUser(t.app, admin, uniq('AH'));
});
afterAll(() => t?.close());

async function post(url: string, token: string, file: Buffer, filename: string) {
  const mp = multipart(file, filename);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...mp.headers, authorization: `Bearer ${token}` },
    payload: mp.payload,
  });
}

describe('Cache-Control: no-store on API answers', () => {
  it('the login, a JSON list, an xlsx export and an error answer', async () => {
    const loginRes = await api(t.app, 'POST', '/api/auth/login', {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const list = await api(t.app, 'GET', '/api/dealers?perPage=1', { token: admin });
    const xlsx = await api(t.app, 'GET', '/api/zones/export', { token: admin });
    const denied = await api(t.app, 'GET', '/api/dealers');
    expect([loginRes.status, list.status, xlsx.status, denied.status]).toEqual([200, 200, 200, 401]);
    for (const res of [loginRes, list, xlsx, denied]) expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('very long addresses', () => {
  it('answer 414 in the envelope with a Spanish message', async () => {
    for (const url of [`/api/dealers?search=${'a'.repeat(9000)}`, `/${'a'.repeat(9000)}`]) {
      const res = await api(t.app, 'GET', url, { token: admin });
      expect(res.status).toBe(414);
      expect(res.body).toEqual({
        success: false,
        result: null,
        error: { code: 414, message: 'La dirección solicitada es demasiado larga' },
      });
    }
  });
});

describe('document file names', () => {
  it('lose the bidirectional controls (U+202A–U+202E, U+2066–U+2069)', async () => {
    const res = await post(
      '/api/documents/upload',
      admin,
      samplePdf('Bidi'),
      'informe\u202e\u2066fdp\u2069\u202a.pdf',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.filename).toBe('informefdp.pdf');
  });
});

describe('formula-like text in exports', () => {
  it("is written as typed, as a text cell in the Text format: a '+51' phone is not altered", async () => {
    const code = uniq('Z');
    await api(t.app, 'POST', '/api/zones', { token: admin, body: { code, name: '+51 999 888 777' } });
    const res = await api(t.app, 'GET', `/api/zones/export?columns=code,name&query=${code}`, {
      token: admin,
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as never);
    const cell = wb.worksheets[0]!.getRow(2).getCell(2);
    expect(cell.value).toBe('+51 999 888 777');
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.numFmt).toBe('@');
  });
});

describe('the settings a signed-in user reads', () => {
  const SYSTEM = ['SALES_API_URL', 'CASIS_API_URL', 'SIMA_API_URL', 'MAIL_FROM_ADDRESS', 'MAIL_FROM_NAME'];
  it('a dealer user: not the external systems or the mail settings; an administrator: yes', async () => {
    const mine = await api(t.app, 'GET', '/api/getUserConfigurations', { token: dealer.token });
    expect(mine.status).toBe(200);
    for (const key of SYSTEM) expect(mine.body.result, key).not.toHaveProperty(key);
    expect(mine.body.result).toHaveProperty('COMPANY_NAME');
    const all = await api(t.app, 'GET', '/api/getUserConfigurations', { token: admin });
    for (const key of SYSTEM) expect(all.body.result, key).toHaveProperty(key);
  });
});

describe('changing the own e-mail', () => {
  it('asks for the current password; the same e-mail or another field does not', async () => {
    const u = await createDealerUser(t.app, admin, uniq('EM'));
    const url = `/api/user/${u.userId}`;
    const email = `${uniq('nuevo').toLowerCase()}@example.com`;
    const without = await api(t.app, 'PUT', url, { token: u.token, body: { email } });
    expect(without.status).toBe(422);
    expect(without.body.error.validationErrors).toContainEqual({
      field: 'current_password',
      message: 'Contraseña actual es obligatorio para cambiar el Email',
    });
    const wrong = await api(t.app, 'PUT', url, { token: u.token, body: { email, current_password: 'mal' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.validationErrors).toContainEqual({
      field: 'current_password',
      message: 'La contraseña actual no es correcta',
    });
    const same = await api(t.app, 'PUT', url, {
      token: u.token,
      body: { email: `${u.username}@example.com`.toUpperCase(), full_name: 'Mismo Correo' },
    });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const right = await api(t.app, 'PUT', url, {
      token: u.token,
      body: { email, current_password: 'Dealer-Pass-1' },
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.result.email).toBe(email);
  });
});

describe('the workshop pre-check', () => {
  it('uses its own row limit (50,000 rows and some blank lines), not the sales one', async () => {
    const head =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
    const file = await templateWith(
      repeatedEntry('xl/worksheets/sheet1.xml', head, '<row/>', 60_000, '</sheetData></worksheet>'),
    );
    const res = await post('/api/workshop-infos/import', dealer.token, file, 'Plantilla_Info_Taller.xlsx');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('el máximo de 51000 filas');
  });
});
