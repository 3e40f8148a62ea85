// The external sales API connector (against a stub HTTP server on 127.0.0.1), the sales list
// filters and GET /api/sale-dealers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { countSales, createDealer, saleObject, setSetting, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let dealerA: string;
let dealerB: string;
let aId: number;
let bId: number;
const vin = vinFactory();

// The stub answers what the test puts in `stubAnswer`, and records the requests it got.
let stub: Server;
let stubUrl: string;
let stubAnswer: { status: number; body: unknown } = { status: 200, body: [] };
const stubRequests: IncomingMessage[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealerA = uniq('PA');
  dealerB = uniq('PB');
  aId = await createDealer(t.app, admin, dealerA, 'Alfa Motors');
  bId = await createDealer(t.app, admin, dealerB, 'Beta Autos');
  stub = createServer((req, res) => {
    stubRequests.push(req);
    if (req.url?.startsWith('/ventas/redirige')) {
      res.writeHead(302, { location: '/ventas' }).end();
      return;
    }
    res.statusCode = stubAnswer.status;
    res.setHeader('content-type', 'application/json');
    res.end(typeof stubAnswer.body === 'string' ? stubAnswer.body : JSON.stringify(stubAnswer.body));
  });
  await new Promise<void>((r) => stub.listen(3401 + Math.floor(Math.random() * 90), '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/ventas`;
});
afterAll(async () => {
  await new Promise((r) => stub?.close(r));
  await t?.close();
});

describe('POST /api/sales-api', () => {
  it('answers a clear Spanish error while unconfigured', async () => {
    const res = await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^El API de ventas no está configurado/);
  });

  it('pulls the sales from the configured system and saves them with the usual report', async () => {
    await setSetting(t.app, 'SALES_API_URL', stubUrl);
    await setSetting(t.app, 'SALES_API_TOKEN', 'secreto-123');
    const v1 = vin();
    const v2 = vin();
    stubAnswer = {
      status: 200,
      body: {
        data: [
          saleObject(dealerA, v1),
          // The external system may also answer with the template's Spanish headers.
          {
            Concesionario: dealerB,
            'Fecha Venta': '2025-04-02',
            Factura: 'F9',
            'Tipo Documento': 'DNI',
            Documento: '11112222',
            Cliente: 'Luis Soto',
            Email: 'luis@example.com',
            VIN: v2,
            Marca: 'S',
            Modelo: 'Sedan',
            Año: 2024,
            'Forma de Pago': 'D',
          },
        ],
      },
    };
    const before = await countSales(t.app);
    const res = await api(t.app, 'POST', '/api/sales-api', {
      token: admin,
      body: { date_from: '2025-04-01', date_to: '2025-04-30' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toMatchObject({ saved: 2, total: 2, failed: 0 });
    expect(await countSales(t.app)).toBe(before + 2);
    const req = stubRequests.at(-1)!;
    expect(req.headers.authorization).toBe('Bearer secreto-123');
    expect(req.url).toBe('/ventas?date_from=2025-04-01&date_to=2025-04-30');
  });

  it('saves nothing when a pulled row is wrong', async () => {
    stubAnswer = {
      status: 200,
      body: [saleObject(dealerA, vin()), saleObject(dealerA, vin(), { brand: 'Q' })],
    };
    const before = await countSales(t.app);
    const res = await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} });
    expect(res.body.result.saved).toBe(0);
    expect(res.body.result.report[1]).toMatchObject({ row: 2, ok: false, errors: ['Marca "Q" no existe'] });
    expect(await countSales(t.app)).toBe(before);
  });

  it('reports a failing or unreachable system as 502 with one fixed Spanish message', async () => {
    // Neither the system's reply nor what kind of failure it was (refused, HTTP error, junk)
    // reaches the caller: that would read other services' answers and map open ports.
    const fixed =
      'No se pudieron obtener las ventas del API de ventas. Revise SALES_API_URL y SALES_API_TOKEN en Preferencias > Configuraciones o intente más tarde';
    const port = String((stub.address() as AddressInfo).port);
    const noLeak = (res: { status: number; body: unknown }, ...secrets: string[]) => {
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ success: false, result: null, error: { code: 502, message: fixed } });
      for (const s of [port, ...secrets]) expect(JSON.stringify(res.body)).not.toContain(s);
    };
    stubAnswer = { status: 500, body: { error: 'boom-respuesta-interna' } };
    noLeak(
      await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} }),
      'boom-respuesta-interna',
      '500',
    );
    stubAnswer = { status: 200, body: '<html>no json SSH-2.0-OpenSSH' };
    noLeak(await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} }), 'OpenSSH');
    await setSetting(t.app, 'SALES_API_URL', 'http://127.0.0.1:1/ventas');
    noLeak(
      await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} }),
      'ECONNREFUSED',
      '127.0.0.1',
    );
    await setSetting(t.app, 'SALES_API_URL', stubUrl);
  });

  it('does not follow a redirect of the external system: 502 with the fixed message', async () => {
    await setSetting(t.app, 'SALES_API_URL', `${stubUrl}/redirige`);
    stubAnswer = { status: 200, body: { data: [saleObject(dealerA, vin())] } };
    const before = await countSales(t.app);
    const res = await api(t.app, 'POST', '/api/sales-api', { token: admin, body: {} });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toMatch(/^No se pudieron obtener las ventas del API de ventas/);
    expect(await countSales(t.app)).toBe(before);
    await setSetting(t.app, 'SALES_API_URL', stubUrl);
  });

  it('asks the system only for the dealer of a dealer user', async () => {
    const du = await createDealerUser(t.app, admin);
    const [{ code }] = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [
      du.dealerId,
    ]);
    stubAnswer = { status: 200, body: [saleObject(code, vin())] };
    const res = await api(t.app, 'POST', '/api/sales-api', { token: du.token, body: {} });
    expect(res.body.result.saved).toBe(1);
    expect(stubRequests.at(-1)!.url).toBe(`/ventas?dealer_code=${code}`);
  });
});

describe('sales list filters and sale-dealers', () => {
  beforeAll(async () => {
    const rows = [
      saleObject(dealerA, vin(), { sale_date: '2024-01-10', brand: 'V' }),
      saleObject(dealerA, vin(), { sale_date: '2024-02-10', brand: 'N' }),
      saleObject(dealerB, vin(), { sale_date: '2024-02-20', brand: 'N', email: '' }),
    ];
    const res = await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows } });
    expect(res.body.result.saved).toBe(3);
  });

  it('filters by date range, brand, dealer and survey status', async () => {
    const [n] = await t.handle.query<{ id: number }>(`select id from manufacturers where code = 'N'`);
    const range = await api(
      t.app,
      'GET',
      '/api/sales?filter[date_from]=2024-02-01&filter[date_to]=2024-02-29',
      {
        token: admin,
      },
    );
    expect(range.body.result.data.map((s: { sale_date: string }) => s.sale_date).sort()).toEqual([
      '2024-02-10',
      '2024-02-20',
    ]);
    const brand = await api(
      t.app,
      'GET',
      `/api/sales?filter[date_from]=2024-01-01&filter[date_to]=2024-12-31&filter[manufacturer_id]=${n.id}&filter[dealer_id]=${aId}`,
      { token: admin },
    );
    expect(brand.body.result.data).toHaveLength(1);
    expect(brand.body.result.data[0].sale_date).toBe('2024-02-10');
    const status = await api(
      t.app,
      'GET',
      '/api/sales?filter[date_from]=2024-01-01&filter[date_to]=2024-12-31&filter[survey_status]=contacto_invalido',
      { token: admin },
    );
    expect(status.body.result.data).toHaveLength(1);
    expect(status.body.result.data[0].dealer_id).toBe(bId);
    const bad = await api(t.app, 'GET', '/api/sales?filter[date_from]=01-02-2024', { token: admin });
    expect(bad.status).toBe(422);
  });

  it('lists the dealers with sales in a period', async () => {
    const feb = await api(t.app, 'GET', '/api/sale-dealers?year=2024&month=2', { token: admin });
    expect(feb.status).toBe(200);
    expect(feb.body.result.map((d: { id: number; sales: number }) => [d.id, d.sales])).toEqual([
      [aId, 1],
      [bId, 1],
    ]);
    const jan = await api(t.app, 'GET', '/api/sale-dealers?year=2024&month=1', { token: admin });
    expect(jan.body.result.map((d: { name: string }) => d.name)).toEqual(['Alfa Motors']);
    const bad = await api(t.app, 'GET', '/api/sale-dealers?year=2024&month=13', { token: admin });
    expect(bad.status).toBe(422);
  });
});
