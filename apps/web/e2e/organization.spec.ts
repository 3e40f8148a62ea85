// Dealer isolation as people see it: the administrator creates a dealer with the location picker
// and a Concesionario user for it; that user is locked to its dealer, sees only its rows, and a
// link to another dealer's record answers not found; when the administrator revokes a permission
// of the role, the menu entry disappears and the route shows error-403.
import { expect, type Page, test } from './fixtures';
import { api, apiToken, loginForm, shot, uid } from './helpers';

async function pick(page: Page, label: string, typed: string, option: string | RegExp) {
  const dialog = page.getByRole('dialog');
  const input = dialog.getByRole('combobox', { name: label, exact: true });
  await input.click();
  await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

test('a dealer user sees only its dealer; a revoked permission hides the screen', async ({
  browser,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealerName = `Concesionario E2E ${id}`;
  const user = { username: `conc${id.toLowerCase()}`, password: 'Conc-12345' };

  // Another dealer with a branch: rows the new user must never see.
  const other = await api(request, token, 'POST', '/dealers', { code: `OT${id}`, name: `Otro ${id}` });
  const foreign = await api(request, token, 'POST', '/dealer-branches', {
    dealer_id: other.id,
    name: `Sede ajena ${id}`,
  });

  // 1. The administrator creates the dealer, with the location picker.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await loginForm(admin);
  await admin.goto('/main/dealer');
  await admin.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Código', exact: true }).fill(`E${id}`);
  await dialog.getByRole('textbox', { name: 'Nombre', exact: true }).fill(dealerName);
  await pick(admin, 'Departamento', 'AREQ', 'AREQUIPA');
  // Choosing the department moves the focus to the province (SPEC §4).
  await expect(dialog.getByRole('combobox', { name: 'Provincia', exact: true })).toBeFocused();
  await pick(admin, 'Provincia', 'AREQ', 'AREQUIPA');
  await expect(dialog.getByRole('combobox', { name: 'Distrito', exact: true })).toBeFocused();
  await pick(admin, 'Distrito', 'CAYMA', 'CAYMA');
  await dialog.getByRole('textbox', { name: 'Dirección', exact: true }).fill('Av. Cayma 100');
  await shot(admin, 'organization-dealer-form');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(admin.getByText('Guardado Correctamente')).toBeVisible();
  const [dealer] = (await api(request, token, 'GET', `/dealers?query=E${id}`)).data;
  expect(dealer).toMatchObject({ name: dealerName, district_name: 'CAYMA' });
  expect(dealer.department_id).toBeGreaterThan(0);
  expect(dealer.address_district_id).toBe(dealer.district_id);
  await api(request, token, 'POST', '/dealer-branches', { dealer_id: dealer.id, name: `Sede propia ${id}` });

  // 2. ...and a user of role Concesionario bound to it.
  await admin.goto('/main/user');
  await admin.getByRole('button', { name: 'Nuevo' }).click();
  await dialog.getByRole('textbox', { name: 'Usuario', exact: true }).fill(user.username);
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(`${user.username}@example.com`);
  await dialog.getByRole('textbox', { name: 'Nombre completo', exact: true }).fill(`Usuario ${id}`);
  await dialog.getByRole('textbox', { name: 'Contraseña', exact: true }).fill(user.password);
  await pick(admin, 'Concesionario', `E2E ${id}`, dealerName);
  await pick(admin, 'Roles', 'Conces', 'Concesionario');
  await shot(admin, 'organization-user-form');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(admin.getByText('Guardado Correctamente')).toBeVisible();

  // 3. The dealer user: selector locked to its dealer, no 'Todos'.
  const dealerContext = await browser.newContext();
  const page = await dealerContext.newPage();
  await loginForm(page, user);
  const selector = page.getByRole('combobox', { name: 'Concesionario' });
  await expect(selector).toHaveText(dealerName);
  await expect(selector).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByTestId('dealer-selector')).toHaveValue(String(dealer.id));
  await expect(selector).not.toContainText('Todos');

  // Lists show only its rows.
  await page.goto('/main/dealer-branch');
  await expect(page.getByRole('grid').getByText(`Sede propia ${id}`)).toBeVisible();
  await expect(page.getByText(`Sede ajena ${id}`)).toHaveCount(0);
  await expect(page.getByRole('grid').getByText(`Otro ${id}`)).toHaveCount(0);
  await shot(page, 'organization-dealer-user-list');

  // A link to another dealer's record: not found.
  await page.goto(`/main/dealer-branch?record=${foreign.id}`);
  await expect(page.getByText('El registro solicitado no existe').first()).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await shot(page, 'organization-foreign-record-not-found');

  // 4. The administrator revokes 'Contactos - Ver' from the role, in the permission tree.
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await expect(nav.locator('[data-menu="dealer-contact"]')).toHaveCount(1);
  const roles = await api(request, token, 'GET', '/roles?perPage=-1');
  const role = roles.find((r: { name: string }) => r.name === 'Concesionario');
  try {
    await admin.goto('/main/role');
    const row = admin.getByRole('row').filter({ hasText: 'Concesionario' });
    await row.getByRole('button', { name: 'Permisos' }).click();
    const item = admin.locator('[role="treeitem"][id$="-Admin.DealerContacts.view"]');
    const box = item.locator('input[type="checkbox"]').first();
    await expect(box).toBeChecked();
    await box.click();
    await expect(admin.getByText('Permisos retirados')).toBeVisible();
    await expect(box).not.toBeChecked();
    await shot(admin, 'organization-permission-revoked');
    const granted = await api(request, token, 'GET', `/get-permissions?role_id=${role.id}`);
    expect(granted.granted).not.toContain('Admin.DealerContacts.view');

    // The dealer user's next menu load: the entry is gone, and the route shows error-403.
    await page.goto('/main/dealer-branch');
    await expect(nav.locator('[data-menu="dealer-branch"]')).toHaveCount(1);
    await expect(nav.locator('[data-menu="dealer-contact"]')).toHaveCount(0);
    await page.goto('/main/dealer-contact');
    await expect(page.getByTestId('error-403')).toBeVisible();
    await shot(page, 'organization-revoked-403');
  } finally {
    await api(request, token, 'PUT', '/save-permission', {
      role_id: role.id,
      permissions: ['Admin.DealerContacts.view'],
    });
    await adminContext.close();
    await dealerContext.close();
  }
});
