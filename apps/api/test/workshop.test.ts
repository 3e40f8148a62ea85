// Info Taller: the template, the .xlsx import and the JSON batch (all or nothing, a report per
// row, a month sent again replaces it), the dealer scope, the defaults of a new record, and
// report-info: productivity, efficiency, labour rate and parts per order per dealer and month
// against the same month a year before, checked against figures this test computes itself.

import { WORKSHOP_TEMPLATE_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveScope } from '../src/core/scope';
import { workshopProductivity } from '../src/modules/workshop/workshop.summary';
import { api, createDealerUser, createTestApp, login, type TestContext, uniq } from './harness';
import { multipart } from './sales-fixtures';

let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof createDealerUser>>;
let b: Awaited<ReturnType<typeof createDealerUser>>;
let codeA: string;
let codeB: string;
let branchA1: number;
let branchA2: number;

type Cell = string | number | null;
async function workbook(
  rows: Cell[][],
  headers: readonly string[] = WORKSHOP_TEMPLATE_HEADERS,
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Info Taller');
  ws.addRow([...headers]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(token: string, file: Buffer, filename = 'taller.xlsx') {
  const { payload, headers } = multipart(file, filename);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/workshop-infos/import',
    headers: { ...headers, authorization: `Bearer ${token}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const count = async () =>
  (await t.handle.query<{ n: number }>('select count(*)::int as n from workshop_infos'))[0].n;

/** A template row: dealer, branch, year, month, OT opened, closed, hours sold, worked, labour, parts. */
const row = (dealer: string, branch: string | null, year: number, month: number, v: Cell[]): Cell[] => [
  dealer,
  branch,
  year,
  month,
  ...v,
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  await t.handle.query(
    "insert into dealers (id, code, name) values (1, 'UNO', 'Concesionario Uno') on conflict do nothing",
  );
  await t.handle.query("select setval('dealers_id_seq', greatest((select max(id) from dealers), 1))");
  codeA = uniq('WA');
  codeB = uniq('WB');
  a = await createDealerUser(t.app, admin, codeA);
  b = await createDealerUser(t.app, admin, codeB);
  const branch = async (dealer: number, code: string, name: string) =>
    (
      await api(t.app, 'POST', '/api/dealer-branches', {
        token: admin,
        body: { dealer_id: dealer, code, name },
      })
    ).body.result.id as number;
  branchA1 = await branch(a.dealerId, `${codeA}-S1`, 'Sede Principal');
  branchA2 = await branch(a.dealerId, `${codeA}-T1`, 'Taller Norte');
});
afterAll(() => t?.close());

describe('template and import', () => {
  it('downloads the template with its headers and an instructions sheet', async () => {
    const r = await api(t.app, 'GET', '/api/workshop-infos/template', { token: a.token });
    expect(r.status).toBe(200);
    expect(String(r.headers['content-disposition'])).toContain('Plantilla_Info_Taller.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw as any);
    expect((wb.worksheets[0].getRow(1).values as unknown[]).slice(1)).toEqual([...WORKSHOP_TEMPLATE_HEADERS]);
    expect(wb.worksheets[1].name).toBe('Instrucciones');
  });

  it('imports a real .xlsx: every row saved, by dealer code and branch code or name', async () => {
    const before = await count();
    const file = await workbook([
      row(codeA, `${codeA}-S1`, 2025, 1, [320, 310, 900.5, 1000, 99_000, 150_000]),
      row(codeA, 'taller norte', 2025, 1, [120, 118, 300, 350, 33_000, 40_000]),
      row(codeB, null, 2025, 1, [200, 190, 610, 640, 60_000, 88_000, 5000, 12, 9, 'Mes normal']),
    ]);
    const r = await upload(admin, file);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({ saved: 3, total: 3, failed: 0 });
    expect(r.body.result.report.map((e: any) => [e.row, e.ok])).toEqual([
      [2, true],
      [3, true],
      [4, true],
    ]);
    expect(await count()).toBe(before + 3);
    const [saved] = await t.handle.query<Record<string, any>>(
      'select * from workshop_infos where dealer_id = $1 and dealer_branch_id is null and year = 2025 and month = 1',
      [b.dealerId],
    );
    expect(saved).toMatchObject({
      hours_sold: '610.00',
      technicians: 9,
      notes: 'Mes normal',
      source: 'import',
    });
  });

  it('saves nothing when any row is wrong, and says why per row in Spanish', async () => {
    const before = await count();
    const file = await workbook([
      row(codeA, null, 2025, 2, [300, 290, 800, 900, 80_000, 120_000]),
      row('NOEXISTE', null, 2025, 13, [1, 1, 1, 1, 1, 1]),
      row(codeA, 'Sede Fantasma', 2025, 2, [-5, 2.5, 'mucho', 10, 10, null]),
      row(codeA, null, 2025, 2, [300, 290, 800, 900, 80_000, 120_000]),
      row(codeA, null, 2099, 1, [1, 1, 1, 1, 1, 1]),
    ]);
    const r = await upload(admin, file);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ saved: 0, total: 5, failed: 4 });
    const rep = r.body.result.report;
    expect(rep[0]).toEqual({ row: 2, ok: true, errors: [] });
    expect(rep[1].errors).toEqual([
      'Concesionario "NOEXISTE" no existe',
      'Mes "13" no es válido (entero de 1 a 12)',
    ]);
    expect(rep[2].errors).toEqual([
      `Sede "Sede Fantasma" no existe en el concesionario ${codeA}`,
      'OT abiertas "-5" no es válido (entero de 0 a 1000000)',
      'OT cerradas "2.5" no es válido (entero de 0 a 1000000)',
      'Horas vendidas "mucho" no es válido (de 0 a 10000000)',
      'Venta repuestos es obligatorio',
    ]);
    expect(rep[3].errors).toEqual(['Concesionario, sede y mes repetidos: ya figuran en la fila 2']);
    expect(rep[4].errors).toEqual(['El mes 1/2099 aún no empieza: no puede tener información de taller']);
    expect(await count()).toBe(before);
  });

  it('refuses a file that is not the template, or not an .xlsx, with a 400 and saves nothing', async () => {
    const before = await count();
    const wrong = await upload(admin, await workbook([[codeA, 2025]], ['Dealer', 'Year']));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Los encabezados del archivo no son los de la plantilla');
    const empty = await upload(admin, await workbook([]));
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(
      'El archivo no tiene filas de información de taller debajo de los encabezados',
    );
    const fake = await upload(admin, Buffer.from('no soy un excel'), 'taller.xlsx');
    expect(fake.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('a month loaded again replaces the row (no duplicate)', async () => {
    const before = await count();
    const r = await upload(
      admin,
      await workbook([row(codeA, `${codeA}-S1`, 2025, 1, [330, 320, 950, 1000, 101_000, 151_000])]),
    );
    expect(r.body.result.saved).toBe(1);
    expect(await count()).toBe(before);
    const [x] = await t.handle.query<{ hours_sold: string }>(
      'select hours_sold from workshop_infos where dealer_branch_id = $1 and year = 2025 and month = 1',
      [branchA1],
    );
    expect(Number(x.hours_sold)).toBe(950);
  });
});

describe('batch, scope and the dialog', () => {
  it('POST /batch checks JSON rows with the same rules, in one transaction', async () => {
    const before = await count();
    const bad = await api(t.app, 'POST', '/api/workshop-infos/batch', {
      token: admin,
      body: {
        rows: [
          {
            dealer_code: codeA,
            year: 2025,
            month: 3,
            work_orders_opened: 10,
            work_orders_closed: 9,
            hours_sold: 30,
            hours_worked: 31,
            labour_revenue: 3000,
            parts_revenue: 4000,
          },
          { dealer_id: a.dealerId, dealer_branch_id: branchA1, year: 2025, month: 3, work_orders_opened: 10 },
        ],
      },
    });
    expect(bad.status).toBe(200);
    expect(bad.body.result).toMatchObject({ saved: 0, failed: 1 });
    expect(bad.body.result.report[1].errors).toContain('Horas trabajadas es obligatorio');
    expect(await count()).toBe(before);
    const ok = await api(t.app, 'POST', '/api/workshop-infos/batch', {
      token: admin,
      body: {
        rows: [
          {
            dealer_id: a.dealerId,
            dealer_branch_id: branchA2,
            year: 2025,
            month: 3,
            work_orders_opened: '12',
            work_orders_closed: 11,
            hours_sold: '40,5',
            hours_worked: 44,
            labour_revenue: 4400,
            parts_revenue: 5000,
          },
        ],
      },
    });
    expect(ok.body.result).toMatchObject({ saved: 1, failed: 0 });
    const none = await api(t.app, 'POST', '/api/workshop-infos/batch', { token: admin, body: { rows: [] } });
    expect(none.status).toBe(422);
    expect(none.body.error.validationErrors[0].message).toBe('No hay filas para guardar');
  });

  it("a dealer user loads only its own dealer's rows and lists only its own", async () => {
    const r = await api(t.app, 'POST', '/api/workshop-infos/batch', {
      token: a.token,
      body: {
        rows: [
          {
            dealer_code: codeB,
            year: 2025,
            month: 4,
            work_orders_opened: 1,
            work_orders_closed: 1,
            hours_sold: 1,
            hours_worked: 1,
            labour_revenue: 1,
            parts_revenue: 1,
          },
        ],
      },
    });
    expect(r.body.result.saved).toBe(0);
    expect(r.body.result.report[0].errors).toEqual([
      `Concesionario "${codeB}" no es su concesionario: solo puede registrar datos propios`,
    ]);
    const list = await api(t.app, 'GET', '/api/workshop-infos?perPage=100', { token: a.token });
    expect(list.body.result.data.length).toBeGreaterThan(0);
    for (const x of list.body.result.data) expect(x.dealer_id).toBe(a.dealerId);
    const [ofB] = await t.handle.query<{ id: number }>(
      'select id from workshop_infos where dealer_id = $1 limit 1',
      [b.dealerId],
    );
    expect((await api(t.app, 'GET', `/api/workshop-infos/get/${ofB.id}`, { token: a.token })).status).toBe(
      404,
    );
    expect(
      (await api(t.app, 'PUT', `/api/workshop-infos/${ofB.id}`, { token: a.token, body: { notes: 'x' } }))
        .status,
    ).toBe(404);
  });

  it("a new record from the dialog defaults to dealer 1; a dealer user's is its own", async () => {
    const body = {
      year: 2024,
      month: 5,
      work_orders_opened: 5,
      work_orders_closed: 5,
      hours_sold: 10,
      hours_worked: 11,
      labour_revenue: 900,
      parts_revenue: 700,
    };
    const r = await api(t.app, 'POST', '/api/workshop-infos', { token: admin, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toMatchObject({ dealer_id: 1, source: 'form', dealer_name: 'Concesionario Uno' });
    const own = await api(t.app, 'POST', '/api/workshop-infos', {
      token: a.token,
      body: { ...body, month: 6 },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.result.dealer_id).toBe(a.dealerId);
    const dup = await api(t.app, 'POST', '/api/workshop-infos', {
      token: a.token,
      body: { ...body, month: 6 },
    });
    expect(dup.status).toBe(409);
    const cross = await api(t.app, 'POST', '/api/workshop-infos', {
      token: admin,
      body: { ...body, dealer_id: b.dealerId, dealer_branch_id: branchA1 },
    });
    expect(cross.status).toBe(422);
    expect(cross.body.error.validationErrors[0].message).toBe('La sede no pertenece al concesionario');
  });
});

describe('GET /api/reports/report-info', () => {
  // Dealer A, year 2024 and 2025, months 7 and 8: two branches with capacities; dealer B month 7.
  const info = [
    { d: 'A', br: 1, y: 2025, m: 7, wo: 300, wc: 290, hs: 870, hw: 960, lr: 95_700, pr: 139_200 },
    { d: 'A', br: 2, y: 2025, m: 7, wo: 110, wc: 104, hs: 330, hw: 360, lr: 34_650, pr: 46_800 },
    { d: 'A', br: 1, y: 2025, m: 8, wo: 310, wc: 300, hs: 905.5, hw: 1010, lr: 101_000, pr: 146_000 },
    { d: 'A', br: 1, y: 2024, m: 7, wo: 280, wc: 270, hs: 800, hw: 930, lr: 84_000, pr: 120_000 },
    { d: 'A', br: 2, y: 2024, m: 7, wo: 100, wc: 98, hs: 290, hw: 330, lr: 29_000, pr: 40_000 },
    { d: 'B', br: 0, y: 2025, m: 7, wo: 150, wc: 148, hs: 420, hw: 500, lr: 42_000, pr: 60_000 },
  ];
  // Capacity per branch: bays, technicians, hours per day, working days (available = min(b,t)·h·d).
  const caps = [
    { br: 1, y: 2025, m: 7, bays: 6, tech: 7, h: 9, days: 27 },
    { br: 2, y: 2025, m: 7, bays: 3, tech: 2, h: 8, days: 27 },
    { br: 1, y: 2025, m: 8, bays: 6, tech: 6, h: 9, days: 26 },
    { br: 1, y: 2024, m: 7, bays: 6, tech: 6, h: 9, days: 26 },
    { br: 2, y: 2024, m: 7, bays: 3, tech: 3, h: 8, days: 26 },
  ];
  const avail = (y: number, m: number) =>
    caps
      .filter((c) => c.y === y && c.m === m)
      .reduce((s, c) => s + Math.min(c.bays, c.tech) * c.h * c.days, 0);
  const sumOf = (d: string, y: number, m: number) => {
    const rows = info.filter((r) => r.d === d && r.y === y && r.m === m);
    const s = (k: keyof (typeof info)[number]) => rows.reduce((acc, r) => acc + (r[k] as number), 0);
    return { hs: s('hs'), hw: s('hw'), lr: s('lr'), pr: s('pr'), wc: s('wc') };
  };

  beforeAll(async () => {
    const branchOf = (br: number) => (br === 1 ? branchA1 : br === 2 ? branchA2 : null);
    const rows = info.map((r) => ({
      dealer_code: r.d === 'A' ? codeA : codeB,
      dealer_branch_id: branchOf(r.br) ?? undefined,
      year: r.y,
      month: r.m,
      work_orders_opened: r.wo,
      work_orders_closed: r.wc,
      hours_sold: r.hs,
      hours_worked: r.hw,
      labour_revenue: r.lr,
      parts_revenue: r.pr,
    }));
    const saved = await api(t.app, 'POST', '/api/workshop-infos/batch', { token: admin, body: { rows } });
    expect(saved.body.result.saved, JSON.stringify(saved.body.result.report)).toBe(6);
    for (const y of [2024, 2025])
      for (const m of [7, 8]) {
        const these = caps.filter((c) => c.y === y && c.m === m);
        if (!these.length) continue;
        const r = await api(t.app, 'PUT', '/api/capacity-batch', {
          token: admin,
          body: {
            year: y,
            month: m,
            rows: these.map((c) => ({
              dealer_branch_id: c.br === 1 ? branchA1 : branchA2,
              bays: c.bays,
              technicians: c.tech,
              hours_per_day: c.h,
              working_days: c.days,
            })),
          },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
  });

  it('answers per dealer and month the four ratios and the same month a year before', async () => {
    const r = await api(
      t.app,
      'GET',
      `/api/reports/report-info?year=2025&month_from=7&month_to=8&dealer_id=${a.dealerId}`,
      {
        token: admin,
      },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const rows = r.body.result as any[];
    expect(rows.map((x) => [x.dealer_id, x.month])).toEqual([
      [a.dealerId, 7],
      [a.dealerId, 8],
    ]);
    for (const x of rows) {
      const s = sumOf('A', 2025, x.month);
      expect(x.hours_worked).toBeCloseTo(s.hw, 6);
      expect(x.available_hours).toBeCloseTo(avail(2025, x.month), 6);
      expect(x.productivity).toBeCloseTo(s.hw / avail(2025, x.month), 9);
      expect(x.efficiency).toBeCloseTo(s.hs / s.hw, 9);
      expect(x.labour_rate).toBeCloseTo(s.lr / s.hs, 9);
      expect(x.parts_per_order).toBeCloseTo(s.pr / s.wc, 9);
    }
    // July: (960 + 360) / (6·9·27 + 2·8·27) = 1320 / 1890.
    expect(rows[0].productivity).toBeCloseTo(1320 / 1890, 9);
    const p = sumOf('A', 2024, 7);
    expect(rows[0].previous.productivity).toBeCloseTo(p.hw / avail(2024, 7), 9);
    expect(rows[0].previous.efficiency).toBeCloseTo(p.hs / p.hw, 9);
    expect(rows[0].previous.labour_rate).toBeCloseTo(p.lr / p.hs, 9);
    expect(rows[0].previous.parts_per_order).toBeCloseTo(p.pr / p.wc, 9);
    expect(rows[1].previous).toBeNull();
  });

  it('all dealers: B without capacities has no productivity but its other ratios', async () => {
    const r = await api(t.app, 'GET', '/api/reports/report-info?year=2025&month_from=7&month_to=7', {
      token: admin,
    });
    const rowB = r.body.result.find((x: any) => x.dealer_id === b.dealerId);
    expect(rowB.available_hours).toBeNull();
    expect(rowB.productivity).toBeNull();
    expect(rowB.efficiency).toBeCloseTo(420 / 500, 9);
  });

  it('summarised: ?view=dealer a row per dealer for the period, ?view=network a row per month', async () => {
    const byDealer = await api(
      t.app,
      'GET',
      `/api/reports/report-info?year=2025&month_from=7&month_to=8&view=dealer`,
      { token: admin },
    );
    expect(byDealer.status, JSON.stringify(byDealer.body)).toBe(200);
    const rowA = byDealer.body.result.find((x: any) => x.dealer_id === a.dealerId);
    expect(byDealer.body.result.filter((x: any) => x.dealer_id === a.dealerId)).toHaveLength(1);
    expect(rowA.month).toBe(0);
    const [jul, aug] = [sumOf('A', 2025, 7), sumOf('A', 2025, 8)];
    expect(rowA.hours_worked).toBeCloseTo(jul.hw + aug.hw, 6);
    expect(rowA.productivity).toBeCloseTo((jul.hw + aug.hw) / (avail(2025, 7) + avail(2025, 8)), 9);
    expect(rowA.efficiency).toBeCloseTo((jul.hs + aug.hs) / (jul.hw + aug.hw), 9);
    // The year before: July only (August 2024 has no workshop information).
    const p = sumOf('A', 2024, 7);
    expect(rowA.previous.productivity).toBeCloseTo(p.hw / avail(2024, 7), 9);

    const network = await api(
      t.app,
      'GET',
      '/api/reports/report-info?year=2025&month_from=7&month_to=8&view=network',
      {
        token: admin,
      },
    );
    const [m7, m8] = network.body.result as any[];
    expect([m7.month, m8.month]).toEqual([7, 8]);
    expect(m7.dealer_name).toBe('Red');
    const b7 = sumOf('B', 2025, 7);
    expect(m7.hours_worked).toBeGreaterThanOrEqual(jul.hw + b7.hw);
    // Productivity over the dealer-months with a capacity only (B loaded none).
    expect(m7.available_hours).toBeGreaterThanOrEqual(avail(2025, 7));
    const bad = await api(t.app, 'GET', '/api/reports/report-info?year=2025&view=todo', { token: admin });
    expect(bad.status).toBe(422);
  });

  it('a dealer user reads only its own dealer; naming another answers 404', async () => {
    const own = await api(t.app, 'GET', '/api/reports/report-info?year=2025&month_from=7&month_to=8', {
      token: b.token,
    });
    expect(own.body.result.map((x: any) => x.dealer_id)).toEqual([b.dealerId]);
    const other = await api(t.app, 'GET', `/api/reports/report-info?year=2025&dealer_id=${a.dealerId}`, {
      token: b.token,
    });
    expect(other.status).toBe(404);
    const bad = await api(t.app, 'GET', '/api/reports/report-info?year=2025&month_from=9&month_to=3', {
      token: admin,
    });
    expect(bad.status).toBe(422);
  });

  it('exports the report as .xlsx with the ratios as percents and the year before', async () => {
    const r = await api(
      t.app,
      'GET',
      `/api/reports/report-info/export?year=2025&month_from=7&month_to=8&dealer_id=${a.dealerId}`,
      {
        token: admin,
      },
    );
    expect(r.status).toBe(200);
    expect(String(r.headers['content-disposition'])).toContain('Reporte_Info_Taller_2025.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(r.raw as any);
    const ws = wb.worksheets[0];
    let headerRow = 0;
    ws.eachRow((row, n) => {
      if (!headerRow && row.getCell(1).value === 'Código') headerRow = n;
    });
    const headers = (ws.getRow(headerRow).values as unknown[]).slice(1);
    const july = ws.getRow(headerRow + 1);
    expect(july.getCell(headers.indexOf('Mes') + 1).value).toBe('Julio');
    expect(Number(july.getCell(headers.indexOf('Productividad') + 1).value)).toBeCloseTo(1320 / 1890, 9);
    expect(Number(july.getCell(headers.indexOf('Productividad 2024') + 1).value)).toBeCloseTo(
      1260 / (6 * 9 * 26 + 3 * 8 * 26),
      9,
    );
    // Money and percentages read in Excel as on the screens: 'S/ 3,000.00', '69.8 %'.
    expect(july.getCell(headers.indexOf('Venta mano de obra') + 1).numFmt).toBe('"S/ "#,##0.00');
    expect(july.getCell(headers.indexOf('Productividad') + 1).numFmt).toBe('0.0 %');
  });

  it('workshopProductivity totals the period (for the dashboard)', async () => {
    const user = { id: 1, dealerId: null, isDealer: false, permissions: new Set<string>() } as any;
    const p = await workshopProductivity(t.handle.db, resolveScope(user, a.dealerId), {
      year: 2025,
      monthFrom: 7,
      monthTo: 8,
    });
    const hw = 960 + 360 + 1010;
    expect(p.hours_worked).toBeCloseTo(hw, 6);
    expect(p.productivity).toBeCloseTo(hw / (avail(2025, 7) + avail(2025, 8)), 9);
    expect(p.months_reported).toBe(2); // July and August (dealer-months, branches summed)
    expect(p.previous?.productivity).toBeCloseTo(1260 / avail(2024, 7), 9);
  });
});
