// Saved views (issue 29): on the zones list, a search, a sort, a hidden column and a page size are
// saved by name; the list is reset; opening the view from "Vistas" sets the URL and the list shows
// the same rows, sort and columns. An administrator shares one with a role. 1440×900 and 390×844.
import { expect, test } from '@playwright/test';
import { api, apiToken, loginForm, shot, uid } from './helpers';

test('save a list view and open it again; share one with a role', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const token = await apiToken(request);
  const tag = `VW${uid()}`;
  for (const n of ['Alfa', 'Beta', 'Gamma'])
    await api(request, token, 'POST', '/zones', { name: `${tag} ${n}` });
  await loginForm(page);
  await page.goto(`/main/zone?perPage=25&sort=name&order=desc&query=${tag}&hide=code`);
  const grid = page.getByRole('grid');
  await expect(grid.getByRole('row').nth(1)).toContainText(`${tag} Gamma`);
  await expect(page.getByRole('columnheader', { name: 'Código' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Vistas' }).click();
  await page.getByRole('menuitem', { name: 'Guardar vista actual' }).click();
  const dialog = page.getByRole('dialog', { name: 'Guardar vista' });
  await dialog.getByLabel('Nombre de la vista').fill(`Zonas ${tag} al revés`);
  await dialog.getByRole('combobox', { name: 'Compartir con el rol' }).click();
  await page.getByRole('option', { name: 'Concesionario' }).click();
  await shot(page, 'saved-views-save');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText(`Vista "Zonas ${tag} al revés" guardada`)).toBeVisible();
  // The plain list, then the view: the URL and the list come back.
  await page.goto('/main/zone');
  await expect(page.getByRole('columnheader', { name: 'Código' })).toBeVisible();
  await page.getByRole('button', { name: 'Vistas' }).click();
  await expect(page.getByRole('menuitem', { name: /Compartida con Concesionario/ })).toBeVisible();
  await shot(page, 'saved-views-menu');
  await page.getByRole('menuitem', { name: new RegExp(`Zonas ${tag} al revés`) }).click();
  await expect(page).toHaveURL(new RegExp(`query=${tag}`));
  await expect(page).toHaveURL(/sort=name&order=desc/);
  await expect(page.getByRole('textbox', { name: 'Buscar' })).toHaveValue(tag);
  await expect(grid.getByRole('row').nth(1)).toContainText(`${tag} Gamma`);
  await expect(page.getByRole('columnheader', { name: 'Código' })).toHaveCount(0);
  await shot(page, 'saved-views-opened');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Vistas' }).click();
  await expect(page.getByRole('menuitem', { name: 'Guardar vista actual' })).toBeVisible();
  await shot(page, 'saved-views-phone');
});
