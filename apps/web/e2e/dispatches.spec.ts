// Dispatches and daily sales as a manager and a dealer use them: the summary of the month's
// dispatches, objectives loaded from Formato_Objetivos.xlsx (a wrong row saves nothing) and the
// pace on screen, the daily grid edited like a spreadsheet and saved, and a dealer user who sees
// and edits only its own dealer.
import { MONTH_NAMES, OBJECTIVES_TEMPLATE_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, limaNow, loginForm, shot, uid } from './helpers';

async function objectivesFile(rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Objetivos');
  ws.addRow([...OBJECTIVES_TEMPLATE_HEADERS]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function uploadObjectives(page: Page, name: string, buffer: Buffer) {
  const dialog = page.getByRole('dialog', { name: 'Cargar objetivos' });
  await dialog.getByLabel('Archivo Excel').setInputFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await dialog.getByRole('button', { name: 'Cargar', exact: true }).click();
  return dialog;
}

test('summary, objectives with their pace, the daily grid, and a dealer user on its own dealer', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request);
  const id = uid();
  const now = limaNow();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const day = now.getUTCDate();
  const ymd = (d: number) => `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const brands = await api<{ id: number; code: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  const v = brands.find((b) => b.code === 'V')!;
  const model = await api<{ id: number }>(request, token, 'POST', '/manufacturer-models', {
    manufacturer_id: v.id,
    name: `Polo ${id}`,
  });
  const dealerA = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `DA${id}`,
    name: `Alfa Despachos ${id}`,
  });
  await api(request, token, 'POST', '/dealers', { code: `DB${id}`, name: `Beta Despachos ${id}` });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  await api(request, token, 'POST', '/users', {
    username: `da${id}`,
    email: `da${id}@example.com`,
    full_name: `Usuario Alfa ${id}`,
    password: 'Dealer-Pass-1',
    dealer_id: dealerA.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });
  for (let i = 0; i < 3; i++)
    await api(request, token, 'POST', '/transactions', {
      dealer_id: dealerA.id,
      manufacturer_id: v.id,
      manufacturer_model_id: model.id,
      model_name: `Polo ${id}`,
      vin: `9E2E${id.toUpperCase().replace(/[IOQ]/g, 'X').padEnd(5, 'X').slice(0, 5)}${String(i).padStart(8, '0')}`,
      dispatch_date: ymd(1),
      units: 2,
    });

  await loginForm(page);
  await page.goto('/main/dispatches');
  const summary = page.getByRole('table', { name: 'Resumen de despachos' });
  const rowA = summary.getByRole('row', { name: new RegExp(`Alfa Despachos ${id}`) });
  await expect(rowA.getByRole('cell').last()).toHaveText('6');
  await shot(page, 'dispatches-summary-admin');
  // The month picker (a multiple select): another month left out drops its column, not the units.
  const headers = summary.getByRole('columnheader');
  const allColumns = await headers.count();
  await page.getByRole('combobox', { name: 'Meses' }).click();
  await page.getByRole('option', { name: new RegExp(MONTH_NAMES[month % 12]!) }).click();
  await page.keyboard.press('Escape');
  await expect(headers).toHaveCount(allColumns - 1);
  await expect(rowA.getByRole('cell').last()).toHaveText('6');

  // Objectives from the file: a wrong row saves nothing; the corrected file saves.
  await page.getByRole('tab', { name: 'Objetivos' }).click();
  await page.getByRole('button', { name: 'Cargar objetivos' }).click();
  const monthCells = (units: number | string) =>
    Array.from({ length: 12 }, (_, i) => (i + 1 === month ? units : null));
  let dialog = await uploadObjectives(
    page,
    'objetivos-error.xlsx',
    await objectivesFile([[`DA${id}`, 'V', year, ...monthCells('muchos')]]),
  );
  await expect(dialog.getByText('1 de 1 filas tienen errores. No se guardó nada.')).toBeVisible();
  await expect(dialog.getByText(/Objetivo "muchos" no es válido/)).toBeVisible();
  dialog = await uploadObjectives(
    page,
    'objetivos.xlsx',
    await objectivesFile([[`DA${id}`, 'V', year, ...monthCells(12)]]),
  );
  await expect(dialog.getByText('Se guardaron 1 valores de 1 filas.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  const objectives = page.getByRole('table', { name: 'Objetivos' });
  const objA = objectives.getByRole('row', { name: new RegExp(`Alfa Despachos ${id}`) });
  await expect(objA.getByRole('cell').nth(2)).toHaveText('12');
  await expect(objA.getByRole('cell').nth(3)).toHaveText('6');
  await shot(page, 'dispatches-objectives-admin');

  // The daily grid: add the model for dealer A, type units on a day, save.
  await page.goto('/main/daily');
  await page.getByRole('button', { name: 'Agregar modelo' }).click();
  const add = page.getByRole('dialog', { name: 'Agregar modelo al mes' });
  // Dealers and models are searched as typed (big catalogues), never listed whole.
  await add.getByLabel('Concesionario').fill(`Alfa Despachos ${id}`);
  await page.getByRole('option', { name: new RegExp(`Alfa Despachos ${id}`) }).click();
  await add.getByLabel('Modelo').fill(`Polo ${id}`);
  await page
    .getByRole('option', { name: new RegExp(`Polo ${id}`) })
    .first()
    .click();
  await add.getByRole('button', { name: 'Agregar' }).click();
  const grid = page.getByRole('region', { name: 'Venta diaria del mes' });
  await expect(grid.getByText(`Volkswagen Polo ${id}`)).toBeVisible();
  // The only row of this new month's grid: click day 1, walk to today with the arrows, type.
  await grid.locator('.dsg-row').nth(1).locator('.dsg-cell').nth(1).click();
  for (let d = 1; d < day; d++) await page.keyboard.press('ArrowRight');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: /Guardar \(1\)/ }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  const saved = await api<{ rows: { dealer_id: number; days: Record<number, number> }[] }>(
    request,
    token,
    'GET',
    `/daily-sales?year=${year}&month=${month}&dealer=${dealerA.id}`,
  );
  expect(saved.rows[0].days[day]).toBe(3);
  await shot(page, 'daily-grid-admin');

  // The dealer user: its own dealer only.
  const ctx = await browser.newContext();
  const dealerPage = await ctx.newPage();
  await loginForm(dealerPage, { username: `da${id}`, password: 'Dealer-Pass-1' });
  await dealerPage.goto('/main/daily');
  const own = dealerPage.getByRole('region', { name: 'Venta diaria del mes' });
  await expect(own.getByText(`Volkswagen Polo ${id}`)).toBeVisible();
  await expect(own.getByText(`Beta Despachos ${id}`)).toHaveCount(0);
  // Its own dealer's internal report is its to download (Transactions.export, scoped by the server).
  await expect(dealerPage.getByRole('button', { name: 'Reporte interno' })).toBeVisible();
  await shot(dealerPage, 'daily-grid-dealer');
  await dealerPage.goto('/main/dispatches');
  const dealerSummary = dealerPage.getByRole('table', { name: 'Resumen de despachos' });
  await expect(dealerSummary.getByRole('row')).toHaveCount(3);
  await expect(dealerPage.getByRole('button', { name: 'Traer de SIMA' })).toHaveCount(0);
  await shot(dealerPage, 'dispatches-summary-dealer');
  await ctx.close();
});
