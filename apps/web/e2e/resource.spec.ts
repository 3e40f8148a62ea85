// The generic resource screen on zones: create, edit, search, sort, page, delete, a server
// validation error on its field, Alt+N / Esc, and the .xlsx export.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { api, apiToken, loginForm, shot, uid } from './helpers';

test('create, edit, search, sort, page and delete zones', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const letters = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'];
  for (const n of letters) {
    await api(request, token, 'POST', '/zones', { code: `${n}${id}`, name: `Zona ${n} ${id}`, active: true });
  }
  await loginForm(page);
  await page.goto('/main/zone');
  const rows = page.getByRole('row');
  const grid = page.getByRole('grid');

  // Paging: SPEC §9's default page size 10 (the spec names no size for zones); page 2 kept in the URL.
  await expect(page.getByRole('combobox', { name: 'Filas por página: 10' })).toBeVisible();
  await expect(rows).toHaveCount(11); // header + 10
  await page.getByRole('button', { name: 'Ir a la página siguiente' }).click();
  await expect(page).toHaveURL(/page=2/);
  await page.reload();
  await expect(page).toHaveURL(/page=2/);
  // Other flows may have added zones to the same database: page 2 of whatever there is.
  const { total } = await api<{ total: number }>(request, token, 'GET', '/zones?perPage=10');
  const last = Math.min(20, total);
  await expect(page.getByText(new RegExp(`11[–-]${last} de ${total}`))).toBeVisible();

  // The page size a user chooses sticks to the list: it opens at 5 next time, the dealers' list
  // keeps its own default, and a link that names a size shows that size.
  await page.getByRole('combobox', { name: 'Filas por página: 10' }).click();
  await page.getByRole('option', { name: '5', exact: true }).click();
  await expect(rows).toHaveCount(6);
  await page.goto('/main/dealer');
  await expect(page.getByRole('combobox', { name: 'Filas por página: 10' })).toBeVisible();
  await page.goto('/main/zone');
  await expect(page.getByRole('combobox', { name: 'Filas por página: 5' })).toBeVisible();
  await expect(rows).toHaveCount(6);
  await page.goto('/main/zone?perPage=20');
  await expect(page.getByRole('combobox', { name: 'Filas por página: 20' })).toBeVisible();
  await shot(page, 'resource-page-size');
  await page.getByRole('combobox', { name: 'Filas por página: 20' }).click();
  await page.getByRole('option', { name: '10', exact: true }).click();
  await expect(rows).toHaveCount(11);

  // Search, through the URL too.
  await page.getByLabel('Buscar').fill(`Zona C ${id}`);
  await expect(page).toHaveURL(/query=/);
  await expect(rows).toHaveCount(2);
  await expect(grid.getByText(`Zona C ${id}`)).toBeVisible();
  await page.getByLabel('Buscar').fill(id);
  await expect(rows).toHaveCount(11);

  // Sort by Nombre descending (two clicks).
  await page.getByRole('columnheader', { name: 'Nombre' }).click();
  await expect(page).toHaveURL(/sort=name&order=asc/);
  await page.getByRole('columnheader', { name: 'Nombre' }).click();
  await expect(page).toHaveURL(/order=desc/);
  await expect(rows.nth(1)).toContainText(`Zona K ${id}`);
  await shot(page, 'resource-search-sort');

  // Create through the dialog: client validation, then save.
  await page.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Nombre es obligatorio')).toBeVisible();
  await dialog.getByLabel('Código').fill(`N${id}`);
  await dialog.getByLabel('Nombre').fill(`Zona Nueva ${id}`);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await page.getByLabel('Buscar').fill(`Nueva ${id}`);
  await expect(rows).toHaveCount(2);

  // Edit it.
  await rows.nth(1).getByRole('button', { name: 'Editar' }).click();
  await expect(dialog.getByLabel('Nombre')).toHaveValue(`Zona Nueva ${id}`);
  await dialog.getByLabel('Nombre').fill(`Zona Editada ${id}`);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByLabel('Buscar').fill(`Editada ${id}`);
  await expect(grid.getByText(`Zona Editada ${id}`)).toBeVisible();
  await shot(page, 'resource-edited');

  // Delete it: confirm dialog 'No' / 'Si, Seguro'.
  await rows.nth(1).getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByRole('button', { name: 'No', exact: true })).toBeVisible();
  await shot(page, 'resource-confirm-delete');
  await page.getByRole('button', { name: 'Sí, Seguro' }).click();
  await expect(grid.getByText('Sin filas')).toBeVisible();
  const left = await api<{ total: number }>(request, token, 'GET', `/zones?query=Editada%20${id}`);
  expect(left.total).toBe(0);
});

test('a server validation error appears on its field; Alt+N opens the form and Esc closes it', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid();
  await api(request, token, 'POST', '/zones', { code: `X${id}`, name: `Zona Repetida ${id}`, active: true });
  await loginForm(page);
  await page.goto('/main/zone');
  await expect(page.getByRole('button', { name: 'Nuevo' })).toBeVisible();
  await page.keyboard.press('Alt+n');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Nuevo: Zonas')).toBeVisible();
  // The form's initial setup (SPEC §4, 200 ms) puts the focus on its first field.
  await expect(dialog.getByLabel('Código')).toBeFocused();
  await dialog.getByLabel('Nombre').fill(`Zona Repetida ${id}`);
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  // 409 from the server, shown under the Nombre field.
  await expect(
    dialog.locator('#\\:r0\\:-helper-text, .MuiFormHelperText-root.Mui-error').first(),
  ).toContainText('ya existe');
  await expect(dialog.getByLabel('Nombre')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'resource-server-error');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('Exportar a Excel downloads a real .xlsx with the header of the columns on screen', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid();
  await api(request, token, 'POST', '/zones', { code: `E${id}`, name: `Zona Export ${id}`, active: true });
  await loginForm(page);
  await page.goto(`/main/zone?query=Export%20${id}`);
  await expect(page.getByRole('grid').getByText(`Zona Export ${id}`)).toBeVisible();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Alt+e');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
  // The sheet's shared strings carry the header labels.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as any);
  const header = (wb.worksheets[0].getRow(1).values as unknown[]).filter(Boolean);
  expect(header).toEqual(expect.arrayContaining(['Código', 'Nombre', 'Habilitado']));
  const values = wb.worksheets[0].getRow(2).values as unknown[];
  expect(values).toEqual(expect.arrayContaining([`Zona Export ${id}`]));
  await shot(page, 'resource-export');
});
