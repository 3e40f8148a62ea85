// Figures from enable to comparison: the manufacturer enables last month for a dealer, the
// dealer pastes a block copied from a spreadsheet into the grid (clipboard), saves, confirms and
// can no longer edit; the manufacturer then sees the month confirmed, the dealer in 'Periodos'
// and its figures in the comparison. Screens of fees and capacities as both users.
import { periodName } from '@app/contracts';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, limaNow, loginForm, shot, uid } from './helpers';

// Last month in Lima.
const now = limaNow();
const year = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
const month = now.getUTCMonth() === 0 ? 12 : now.getUTCMonth();
const period = periodName(year, month);

/** The toolbar's dealer, chosen before the app starts (kept in local storage). */
async function chooseDealer(page: Page, dealerId: number) {
  await page.addInitScript((id) => localStorage.setItem('filter-dealer', String(id)), dealerId);
}

test('the manufacturer enables a month, the dealer pastes, saves and confirms, the manufacturer compares', async ({
  page,
  browser,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `FG${id}`,
    name: `Cifras Motor ${id}`,
  });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const dealerUser = { username: `cifras${id.toLowerCase()}`, password: 'Cifras-12345' };
  await api(request, token, 'POST', '/users', {
    ...dealerUser,
    email: `${dealerUser.username}@example.com`,
    full_name: `Jefe de Cifras ${id}`,
    dealer_id: dealer.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });
  // Last year's same month, so the comparison has something to compare with.
  await api(request, token, 'POST', '/figures/enable', { year: year - 1, month, dealer_ids: [dealer.id] });
  const concepts = await api<{ id: number; code: string }[]>(request, token, 'GET', '/concepts?perPage=-1');
  const cid = (code: string) => concepts.find((c) => c.code === code)!.id;
  await api(request, token, 'PUT', '/figure-batch', {
    year: year - 1,
    dealer_id: dealer.id,
    values: [{ concept_id: cid('VN_UND'), month, value: 36 }],
  });

  // 1. The manufacturer enables the month for this dealer.
  await chooseDealer(page, dealer.id);
  await loginForm(page);
  await page.goto('/main/figure');
  await expect(page.getByText(`${period}:`)).toBeVisible();
  await expect(page.getByText(`${period} está cerrado`)).toBeVisible();
  await page.getByRole('button', { name: 'Habilitar mes' }).click();
  await expect(page.getByText(`${period} habilitado`)).toBeVisible();
  await expect(page.locator('.MuiChip-root', { hasText: 'Habilitado' })).toBeVisible();
  await shot(page, 'figures-1-manufacturer-enabled');

  // 2. The dealer pastes a block copied from Excel into the enabled month and saves.
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const dealerPage = await context.newPage();
  await loginForm(dealerPage, dealerUser);
  await dealerPage.goto('/main/figure');
  const grid = dealerPage.getByRole('region', { name: 'Cifras del concesionario' });
  await expect(grid.getByText('Venta de vehículos nuevos')).toBeVisible();
  // A fractional count is refused at once (the cell keeps its value), naming the cell.
  await dealerPage.evaluate(() => navigator.clipboard.writeText('41.5'));
  await dealerPage.keyboard.press('Control+V');
  await expect(
    dealerPage.getByText(/^Venta de vehículos nuevos, \w+ \d{4}: debe ser un número entero$/),
  ).toBeVisible();
  await expect(dealerPage.getByText('Sin cambios pendientes')).toBeVisible();
  // A billing of S/ 14.00 is kept, with a warning on the screen.
  await dealerPage.evaluate(() => navigator.clipboard.writeText('41\r\n7\r\n12\r\n14\r\n'));
  await dealerPage.keyboard.press('Control+V');
  await expect(dealerPage.getByText(/^Un valor fuera de lo habitual/)).toBeVisible();
  await expect(
    dealerPage.getByText(/Facturación de vehículos nuevos, \w+ \d{4}: S\/ 14\.00 está fuera de lo habitual/),
  ).toBeVisible();
  await expect(grid.locator('.sheet-warn')).toHaveCount(1);
  await shot(dealerPage, 'figures-2-dealer-warned');
  // The grid starts in the month being filled, first row; the block fills four rows down.
  await dealerPage.evaluate(() => navigator.clipboard.writeText('41\r\n7\r\n12\r\n3,567,250.50\r\n'));
  await dealerPage.keyboard.press('Control+V');
  await shot(dealerPage, 'figures-2-dealer-pasted');
  await expect(dealerPage.getByText('4 celdas sin guardar')).toBeVisible();
  const dirty = grid.locator('.sheet-dirty input');
  await expect(dirty).toHaveCount(4);
  await expect(dirty.nth(0)).toHaveValue('41');
  await expect(dirty.nth(3)).toHaveValue('S/ 3,567,250.50');
  await shot(dealerPage, 'figures-2-dealer-pasted');
  await dealerPage.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(dealerPage.getByText('Guardado Correctamente')).toBeVisible();
  await expect(dealerPage.getByText('Sin cambios pendientes')).toBeVisible();
  const saved = await api<{ figures: { values: { concept_id: number; month: number; value: number }[] } }>(
    request,
    token,
    'GET',
    `/figures?year=${year}&month=${month}&dealer_id=${dealer.id}`,
  );
  const value = (code: string) => saved.figures.values.find((v) => v.concept_id === cid(code))?.value;
  expect([value('VN_UND'), value('VN_FLOTA'), value('VU_UND'), value('VN_PEN')]).toEqual([
    41, 7, 12, 3567250.5,
  ]);

  // 3. It confirms; the month is locked: typing and pasting change nothing.
  await dealerPage.getByRole('button', { name: 'Confirmar mes' }).click();
  // It says how many concepts are still empty before it locks the month.
  await expect(dealerPage.getByRole('dialog')).toContainText(
    /Quedan \d+ conceptos sin valor: Pruebas de manejo/,
  );
  await dealerPage.getByRole('button', { name: 'Sí, Seguro' }).click();
  await expect(dealerPage.getByText(`${period} confirmado`)).toBeVisible();
  await expect(dealerPage.locator('.MuiChip-root', { hasText: 'Confirmado' })).toBeVisible();
  await expect(dealerPage.getByRole('button', { name: 'Confirmar mes' })).toHaveCount(0);
  await dealerPage.reload();
  await expect(grid.getByText('Venta de vehículos nuevos')).toBeVisible();
  await dealerPage.keyboard.type('99');
  await dealerPage.keyboard.press('Enter');
  await dealerPage.keyboard.press('Control+V');
  await expect(dealerPage.getByText('Sin cambios pendientes')).toBeVisible();
  await expect(grid.locator('.sheet-dirty')).toHaveCount(0);
  await shot(dealerPage, 'figures-3-dealer-confirmed');
  await context.close();

  // 4. The manufacturer sees it confirmed, in the periods and in the comparison.
  await page.reload();
  await expect(page.locator('.MuiChip-root', { hasText: 'Confirmado' })).toBeVisible();
  await expect(page.getByText(/Confirmado por Jefe de Cifras/)).toBeVisible();
  await page.getByRole('tab', { name: 'Periodos' }).click();
  const row = page.getByRole('row', { name: new RegExp(`FG${id}`) });
  await expect(row.getByText('Confirmado')).toBeVisible();
  await expect(row.getByText('4 / ')).toBeVisible();
  await shot(page, 'figures-4-manufacturer-periods');
  await page.goto('/main/resumen');
  const vn = page.getByRole('row', { name: /Venta de vehículos nuevos/ });
  await expect(vn.getByRole('cell').nth(1)).toHaveText('41');
  await expect(vn.getByRole('cell').nth(2)).toHaveText('36');
  await expect(vn.getByRole('cell').nth(3)).toHaveText('▲ 13.9 %');
  await shot(page, 'figures-5-manufacturer-resumen');
});

test('fees and capacities grids, as the manufacturer', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `CP${id}`,
    name: `Capacidad ${id}`,
  });
  await api(request, token, 'POST', '/dealer-branches', { dealer_id: dealer.id, name: 'Taller Central' });
  await chooseDealer(page, dealer.id);
  await loginForm(page);
  await page.goto('/main/capacity');
  const grid = page.getByRole('region', { name: 'Capacidades' });
  // The branch is the row's head: a click there starts at its first cell (bays); then technicians,
  // hours per day and working days, typed over the cells.
  await grid.getByText('Taller Central').click();
  for (const v of ['6', '8', '9', '25']) {
    await page.keyboard.type(v);
    await page.keyboard.press('Tab');
  }
  const available = grid.locator('.sheet-readonly input');
  await expect(available.first()).toHaveValue('1,350');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar' }).click();
  expect((await downloadPromise).suggestedFilename()).toMatch(/^Capacidades_.+\.xlsx$/);
  await shot(page, 'capacities-manufacturer');
  await page.goto('/main/fee');
  await expect(
    page.getByRole('region', { name: 'Cuotas' }).getByText('Venta de vehículos nuevos'),
  ).toBeVisible();
  await shot(page, 'fees-manufacturer');
});
