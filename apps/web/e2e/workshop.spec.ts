// Info Taller as people use it: the manufacturer uploads the month's workshop figures from the
// template (a wrong file first: nothing saved, the rows' reasons shown; then the right one), reads
// report-info (productivity against capacity, efficiency, labour rate, parts per order, against
// the year before) as a table and a chart and exports it; the dealer user sees only its dealer.

import { WORKSHOP_TEMPLATE_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, limaNow, loginForm, shot, uid } from './helpers';

// Last month in Lima.
const now = limaNow();
const year = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const month = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();

async function chooseDealer(page: Page, dealerId: number) {
  await page.addInitScript((id) => localStorage.setItem('filter-dealer', String(id)), dealerId);
}

async function workbook(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Info Taller');
  ws.addRow([...WORKSHOP_TEMPLATE_HEADERS]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('the month is uploaded from the template and report-info compares it with last year', async ({
  browser,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const code = `WT${id}`;
  const dealer = await api(request, token, 'POST', '/dealers', { code, name: `Taller Motor ${id}` });
  const branch = await api(request, token, 'POST', '/dealer-branches', {
    dealer_id: dealer.id,
    code: `${code}-S1`,
    name: `Sede ${id}`,
  });
  // Capacity: 6 bays, 6 technicians, 9 hours, 25 days = 1,350 hours available, both years.
  for (const y of [year - 1, year])
    await api(request, token, 'PUT', '/capacity-batch', {
      year: y,
      month,
      rows: [{ dealer_branch_id: branch.id, bays: 6, technicians: 6, hours_per_day: 9, working_days: 25 }],
    });
  await api(request, token, 'POST', '/workshop-infos/batch', {
    rows: [
      {
        dealer_code: code,
        branch: `${code}-S1`,
        year: year - 1,
        month,
        work_orders_opened: 300,
        work_orders_closed: 290,
        hours_sold: 880,
        hours_worked: 1000,
        labour_revenue: 96_800,
        parts_revenue: 139_200,
      },
    ],
  });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const dealerUser = { username: `tal${id.toLowerCase()}`, password: 'Taller-12345' };
  await api(request, token, 'POST', '/users', {
    ...dealerUser,
    email: `${dealerUser.username}@example.com`,
    full_name: `Jefe de Servicio ${id}`,
    dealer_id: dealer.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });

  // 1. A wrong file: nothing saved, each wrong row says why.
  const admin = await (await browser.newContext()).newPage();
  await chooseDealer(admin, dealer.id);
  await loginForm(admin);
  await admin.goto('/workshopinfo');
  await admin.getByRole('tab', { name: 'Registros' }).click();
  await admin.getByRole('button', { name: 'Cargar Excel' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Cargar información de taller' });
  await dialog.getByLabel('Archivo Excel').setInputFiles({
    name: 'taller.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook([
      [code, `${code}-S1`, year, month, 330, 320, 990, 1_100, 118_800, 166_400],
      ['NOEXISTE', null, year, 13, 1, 1, 1, 1, 1, 1],
    ]),
  });
  await dialog.getByRole('button', { name: 'Cargar', exact: true }).click();
  await expect(dialog.getByText('1 de 2 filas tienen errores. No se guardó nada.')).toBeVisible();
  await expect(dialog.getByText(/Concesionario "NOEXISTE" no existe/)).toBeVisible();
  await shot(admin, 'workshop-1-upload-errors');

  // 2. The right file: saved, and listed.
  await dialog.getByLabel('Archivo Excel').setInputFiles({
    name: 'taller.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook([[code, `${code}-S1`, year, month, 330, 320, 990, 1_100, 118_800, 166_400]]),
  });
  await dialog.getByRole('button', { name: 'Cargar', exact: true }).click();
  await expect(dialog.getByText(/Se guardaron 1 valores de 1 filas/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(admin.getByRole('row', { name: new RegExp(`Sede ${id}`) }).first()).toBeVisible();
  await shot(admin, 'workshop-2-records');

  // 3. report-info: productivity 1,100 / 1,350 = 81.5 %, last year 1,000 / 1,350 = 74.1 %.
  await admin.getByRole('tab', { name: 'Reporte' }).click();
  const table = admin.getByRole('table', { name: 'Reporte de taller' });
  const line = table.getByRole('row', { name: new RegExp(`Taller Motor ${id}`) });
  await expect(line.getByText('81.5 %')).toBeVisible();
  await expect(line.getByText('74.1 %')).toBeVisible();
  // Efficiency 990 / 1,100 = 90 %; labour rate 118,800 / 990 = S/ 120.00.
  await expect(line.getByText('90.0 %')).toBeVisible();
  await expect(line.getByText('S/ 120.00')).toBeVisible();
  await expect(
    admin.getByRole('figure', { name: 'Productividad por mes' }).locator('svg').first(),
  ).toBeVisible();
  await shot(admin, 'workshop-3-report');
  const [file] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: 'Exportar' }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`Reporte_Info_Taller_${year}.xlsx`);

  // 4. The dealer user: its own dealer's report only.
  const page = await (await browser.newContext()).newPage();
  await loginForm(page, dealerUser);
  await page.goto('/workshopinfo');
  await page.getByRole('tab', { name: 'Reporte' }).click();
  const own = page.getByRole('table', { name: 'Reporte de taller' });
  await expect(own.getByRole('row', { name: new RegExp(`Taller Motor ${id}`) })).toBeVisible();
  expect(await own.getByRole('row').count()).toBe(2);
  await shot(page, 'workshop-4-dealer-report');
});
