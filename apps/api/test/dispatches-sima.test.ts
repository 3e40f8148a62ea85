// The SIMA connector and pull (GET /api/transaction-api) against stub servers on 127.0.0.1: an
// unconfigured system, a pull, the same pull again (nothing added twice), a correction, a wrong
// line (nothing saved), a SIMA that fails half-way (second month, or a cut answer: nothing saved),
// SIMA's brands, and the dispatches resource in the dealer scope. The pull runs as a background
// job (issue 24): the call answers 202 with the job, whose progress and answer are read from
// GET /api/jobs/:id, and its owner is told when it ends.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { setSetting, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let codeA: string;
let codeB: string;
let aId: number;
const vin = vinFactory();

/** What the stub answers per path and month (`/despachos?date_from=2025-03-01`), or how it fails. */
type Answer = { status?: number; body?: unknown; cut?: boolean };
let answers: (path: string, from: string | null) => Answer = () => ({ body: [] });
const requests: string[] = [];
let stub: Server;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  const a = await createDealerUser(t.app, admin, uniq('SA'));
  aId = a.dealerId;
  const [{ code }] = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [aId]);
  codeA = code;
  codeB = uniq('SB');
  await api(t.app, 'POST', '/api/dealers', { token: admin, body: { code: codeB, name: 'Beta Despachos' } });
  stub = createServer((req, res) => {
    requests.push(req.url ?? '');
    const url = new URL(req.url ?? '/', 'http://x');
    const a = answers(url.pathname, url.searchParams.get('date_from'));
    res.statusCode = a.status ?? 200;
    res.setHeader('content-type', 'application/json');
    const text = JSON.stringify(a.body ?? []);
    if (a.cut) {
      // Half an answer, then the connection drops.
      res.setHeader('content-length', String(text.length));
      res.write(text.slice(0, Math.floor(text.length / 2)));
      setTimeout(() => res.destroy(), 20);
      return;
    }
    res.end(text);
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}/sima/api`;
});
afterAll(async () => {
  await new Promise((r) => stub?.close(r));
  await t?.close();
});

const line = (over: Record<string, unknown> = {}) => ({
  id: uniq('SIMA'),
  concesionario: codeA,
  almacen_codigo: 'ALM-LUR',
  almacen: 'Almacén Lurín',
  marca: 'V',
  modelo: 'Polo',
  vin: vin(),
  fecha: '2025-03-10',
  cantidad: 1,
  factura: 'F100-0001',
  ...over,
});

const count = async () =>
  (
    await t.handle.query<{ n: number; u: number }>(
      'select count(*)::int as n, coalesce(sum(units),0)::int as u from dispatches',
    )
  )[0];
const request = (q: string, token = admin) => api(t.app, 'GET', `/api/transaction-api?${q}`, { token });

/** Polls the job until it ends (done or failed), as the screen does. */
async function settled(token: string, id: string) {
  for (let i = 0; i < 600; i++) {
    const res = await api(t.app, 'GET', `/api/jobs/${id}`, { token });
    expect(res.status).toBe(200);
    if (res.body.result.status === 'done' || res.body.result.status === 'failed') return res.body.result;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('el trabajo no terminó');
}

/** A pull: 202 with the SIMA job, followed until it ends. */
async function pull(q: string, token = admin) {
  const res = await request(q, token);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.result).toMatchObject({ kind: 'sima-pull', title: 'Despachos de SIMA' });
  return settled(token, res.body.result.id);
}

describe('GET /api/transaction-api', () => {
  it('answers a clear Spanish error while SIMA is not configured, and queues nothing', async () => {
    const jobs = async () =>
      (
        await t.handle.query<{ n: number }>(
          "select count(*)::int as n from background_jobs where kind = 'sima-pull'",
        )
      )[0]!.n;
    const before = await jobs();
    const res = await request('year=2025&month=3');
    expect(res.status).toBe(400);
    expect(await jobs()).toBe(before);
    expect(res.body.error.message).toMatch(/^SIMA no está configurado: registre SIMA_API_URL/);
  });

  it('pulls a month, keyed by SIMA id: the same pull again adds nothing', async () => {
    await setSetting(t.app, 'SIMA_API_URL', base);
    await setSetting(t.app, 'SIMA_API_TOKEN', 'token-sima');
    const lines = [
      line(),
      line({
        cantidad: 2,
        marca: 'Nissan',
        modelo: 'Versa',
        almacen_codigo: 'ALM-CAL',
        almacen: 'Almacén Callao',
      }),
      line({ concesionario: codeB }),
    ];
    answers = (path, from) =>
      path.endsWith('/despachos') && from === '2025-03-01' ? { body: { data: lines } } : { body: [] };
    const before = await count();
    const job = await pull('year=2025&month=3');
    expect(job).toMatchObject({ status: 'done', percent: 100, error: null });
    expect(job.result).toMatchObject({
      received: 3,
      added: 3,
      updated: 0,
      unchanged: 0,
      failed: 0,
      months: ['2025-03'],
    });
    expect(requests.at(-1)).toBe('/sima/api/despachos?date_from=2025-03-01&date_to=2025-03-31');
    const after = await count();
    expect(after.n - before.n).toBe(3);
    expect(after.u - before.u).toBe(4);
    // Warehouses come with the lines.
    const offices = await api(t.app, 'GET', '/api/transaction-stored-offices?perPage=-1', { token: admin });
    expect(offices.body.result.map((o: { code: string }) => o.code)).toEqual(
      expect.arrayContaining(['ALM-LUR', 'ALM-CAL']),
    );

    // One audit row for the pull, by its owner; the owner is told in the notifications centre.
    const audit = await t.handle.query<{ username: string; after: Record<string, unknown> }>(
      "select username, after from audit_logs where resource = 'transactions' and action = 'sima' order by id desc limit 1",
    );
    expect(audit[0]).toMatchObject({
      username: 'admin',
      after: { period: '2025-03-01 a 2025-03-31', received: 3, added: 3, updated: 0 },
    });
    const told = await t.handle.query<{ title: string; body: string; link: string }>(
      "select title, body, link from notifications where key = $1 and kind = 'job'",
      [`job:${job.id}`],
    );
    expect(told).toEqual([
      {
        title: 'La importación de Despachos de SIMA terminó',
        body: '3 líneas: 3 nuevas, 0 actualizadas, 0 sin cambios',
        link: '/main/dispatches',
      },
    ]);

    const again = await pull('year=2025&month=3');
    expect(again.result).toMatchObject({ received: 3, added: 0, updated: 0, unchanged: 3 });
    expect(await count()).toEqual(after);

    // SIMA corrected a line (units): it is updated, not added.
    lines[0] = { ...lines[0], cantidad: 3 };
    const corrected = await pull('date_from=2025-03-01&date_to=2025-03-31');
    expect(corrected.result).toMatchObject({ added: 0, updated: 1, unchanged: 2 });
    expect((await count()).u).toBe(after.u + 2);
    const [row] = await t.handle.query<{ units: number; source: string; stored: string }>(
      `select d.units, d.source, s.name as stored from dispatches d join transaction_stored_offices s on s.id = d.stored_office_id where d.vin = $1`,
      [lines[0].vin],
    );
    expect(row).toEqual({ units: 3, source: 'SIMA', stored: 'Almacén Lurín' });
  });

  it('saves nothing when a line is wrong, and says which and why', async () => {
    const good = line({ fecha: '2025-04-02' });
    const bad = line({ fecha: '2025-04-03', marca: 'Q', vin: 'CORTO' });
    answers = () => ({ body: [good, bad] });
    const before = await count();
    const job = await pull('year=2025&month=4');
    expect(job.status).toBe('done');
    expect(job.result).toMatchObject({ received: 2, added: 0, failed: 1 });
    expect(job.result.report[1]).toEqual({
      row: 2,
      ok: false,
      vin: 'CORTO',
      errors: ['Marca "Q" no existe', 'VIN "CORTO" no es válido: 17 letras o dígitos, sin I, O ni Q'],
    });
    expect(await count()).toEqual(before);
  });

  it('saves nothing when SIMA fails half-way: the second month answers 500', async () => {
    const may = [line({ fecha: '2025-05-20' }), line({ fecha: '2025-05-21' })];
    answers = (_p, from) =>
      from === '2025-06-01' ? { status: 500, body: { error: 'caido' } } : { body: may };
    const before = await count();
    const job = await pull('date_from=2025-05-01&date_to=2025-06-30');
    expect(job.status).toBe('failed');
    expect(job.error).toBe(
      'No se pudieron obtener los despachos de SIMA. Revise SIMA_API_URL y SIMA_API_TOKEN en Preferencias > Configuraciones o intente más tarde',
    );
    expect(await count()).toEqual(before);
  });

  it('saves nothing when SIMA cuts its answer half-way', async () => {
    answers = () => ({ body: [line({ fecha: '2025-07-01' }), line({ fecha: '2025-07-02' })], cut: true });
    const before = await count();
    const job = await pull('year=2025&month=7');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^No se pudieron obtener los despachos de SIMA/);
    expect(await count()).toEqual(before);
  });

  it('refuses a period that is not one, and a dealer user', async () => {
    expect((await request('date_from=2025-05-10&date_to=2025-05-01')).status).toBe(422);
    expect((await request('date_from=mayo')).status).toBe(422);
    const du = await createDealerUser(t.app, admin);
    expect((await request('year=2025&month=3', du.token)).status).toBe(403);
  });
});

describe('GET /api/transaction/manufacturers-sima', () => {
  it("lists SIMA's brands with the local brand they match", async () => {
    answers = (path) =>
      path.endsWith('/marcas')
        ? {
            body: {
              marcas: [{ codigo: 'V', nombre: 'VOLKSWAGEN' }, { codigo: 'KIA', nombre: 'Kia' }, 'Suzuki'],
            },
          }
        : { body: [] };
    const res = await api(t.app, 'GET', '/api/transaction/manufacturers-sima', { token: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result).toEqual([
      { code: 'V', name: 'VOLKSWAGEN', manufacturer_id: expect.any(Number), manufacturer_name: 'Volkswagen' },
      { code: 'KIA', name: 'Kia', manufacturer_id: null, manufacturer_name: null },
      { code: 'Suzuki', name: 'Suzuki', manufacturer_id: expect.any(Number), manufacturer_name: 'Suzuki' },
    ]);
  });
});

describe('dispatches resource', () => {
  it('lists, searches and exports only the dealer user its own dispatches; a manual one is its own', async () => {
    const du = await login(t.app, `u${codeA.toLowerCase()}`, 'Dealer-Pass-1');
    const mine = await api(t.app, 'GET', '/api/transactions?perPage=100', { token: du });
    expect(mine.status).toBe(200);
    expect(mine.body.result.data.length).toBeGreaterThan(0);
    for (const d of mine.body.result.data) expect(d.dealer_id).toBe(aId);
    expect(mine.body.result.data[0]).not.toHaveProperty('sima_key');
    const all = await api(t.app, 'GET', '/api/transactions?perPage=100', { token: admin });
    expect(all.body.result.total).toBeGreaterThan(mine.body.result.total);
    const [{ id: brand }] = await t.handle.query<{ id: number }>(
      "select id from manufacturers where code = 'S'",
    );
    const created = await api(t.app, 'POST', '/api/transactions', {
      token: admin,
      body: {
        dealer_id: aId,
        manufacturer_id: brand,
        model_name: 'Swift',
        vin: vin().toLowerCase(),
        dispatch_date: '2025-03-05',
        units: 1,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.result).toMatchObject({ source: 'Manual', units: 1 });
    expect(created.body.result.vin).toMatch(/^[A-Z0-9]{17}$/);
    const bad = await api(t.app, 'POST', '/api/transactions', {
      token: admin,
      body: {
        dealer_id: aId,
        manufacturer_id: brand,
        model_name: 'Swift',
        vin: 'X',
        dispatch_date: '2025-03-05',
        units: 0,
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors).toEqual(
      expect.arrayContaining([{ field: 'units', message: 'Unidades el valor mínimo es 1' }]),
    );
  });
});
