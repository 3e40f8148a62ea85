// Screens without a screen file: zones and companies are shown from their contracts alone (the
// dialog's labels, required marks and maximum lengths come from the rules; the company's ubigeo is
// one location picker), and a column the server does not sort offers no sort.
import { expect, test } from './fixtures';
import { loginForm, shot } from './helpers';

test('zones and companies come from their contracts; a column sorts only where the server does', async ({
  page,
}) => {
  await loginForm(page);
  await page.goto('/main/zone');
  await expect(page.getByRole('heading', { name: 'Zonas' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Código' })).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Nuevo: Zonas')).toBeVisible();
  await expect(dialog.getByLabel('Código')).toHaveAttribute('maxlength', '20');
  await expect(dialog.getByLabel('Nombre')).toHaveAttribute('maxlength', '120');
  await expect(dialog.getByLabel('Nombre')).toHaveAttribute('required', '');
  await expect(dialog.getByLabel('Código')).not.toHaveAttribute('required', '');
  await expect(dialog.getByLabel('Habilitado')).toBeChecked();
  await shot(page, 'contract-zone-dialog');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  await page.goto('/main/company');
  await page.getByRole('button', { name: 'Nuevo' }).click();
  await expect(dialog.getByRole('textbox', { name: 'RUC' })).toHaveAttribute('maxlength', '11');
  await expect(dialog.getByRole('combobox', { name: 'País' })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Departamento', exact: true })).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Distrito', exact: true })).toBeVisible();
  await shot(page, 'contract-company-dialog');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();

  // The dealer's full address is answered but not sorted by the server: a click changes nothing.
  await page.goto('/main/dealer');
  await page.getByRole('columnheader', { name: 'Dirección' }).click();
  await expect(page).not.toHaveURL(/sort=/);
  await page.getByRole('columnheader', { name: 'Zona' }).click();
  await expect(page).toHaveURL(/sort=zone_name&order=asc/);
  await expect(page.getByRole('grid')).toBeVisible();
  await expect(page.getByText(/no se puede ordenar|no es válido/)).toHaveCount(0);
});
