// The top bar's search box: Ctrl+K focuses it, a VIN finds its sale and opens its dialog, a
// dealer's code opens the dealers list filtered to it with its dialog; a text that matches nothing
// says so in Spanish.
import { expect, test } from './fixtures';
import { api, apiToken, loginForm, shot, uid } from './helpers';

test('global search: find a VIN and a dealer from the box', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const code = `BG${id}`;
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code,
    name: `Autos Buscados ${id}`,
  });
  const brands = await api<{ id: number; code: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  const vin = `BSCAR${id.replace(/[IOQ]/g, 'X').padEnd(5, 'X').slice(0, 5)}1234567`;
  await api(request, token, 'POST', '/sales', {
    dealer_id: dealer.id,
    sale_date: '2025-06-01',
    invoice: `F900-${id}`,
    buyer_name: 'Lucía Buscada Ramos',
    document_type: 'DNI',
    document_number: '12345678',
    vin,
    manufacturer_id: brands.find((b) => b.code === 'V')!.id,
    model_name: 'Compacto',
    year: 2025,
    payment_method: 'E',
  });

  await loginForm(page);
  const box = page.getByRole('combobox', { name: 'Búsqueda global' });
  await expect(box).toHaveAttribute('aria-keyshortcuts', 'Control+K /');
  await page.keyboard.press('Control+k');
  await expect(box).toBeFocused();
  await page.keyboard.type(vin.toLowerCase());
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByText('Ventas', { exact: true })).toBeVisible();
  await expect(listbox.getByRole('option', { name: new RegExp(vin) })).toContainText('Lucía Buscada Ramos');
  await shot(page, 'global-search-vin');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/sales\?.*record=/);
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('input[name=vin]')).toHaveValue(vin);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A dealer by its code, with "/" from outside a field.
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await page.keyboard.type(code.toLowerCase());
  await expect(listbox.getByText('Concesionarios', { exact: true })).toBeVisible();
  await listbox.getByRole('option', { name: new RegExp(`Autos Buscados ${id}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/main/dealer\\?.*record=${dealer.id}`));
  await expect(page.getByRole('dialog').locator('input[name=code]')).toHaveValue(code);
  await shot(page, 'global-search-dealer');
  await page.keyboard.press('Escape');

  // Nothing found: said in Spanish.
  await box.click();
  await box.fill('zzzqqq');
  await expect(page.getByText('Sin resultados para «zzzqqq»')).toBeVisible();
  await box.fill('zz');
  await expect(page.getByText('Escriba al menos 3 caracteres')).toBeVisible();
});
