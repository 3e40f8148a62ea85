// The rough edges of issue 16, as a user meets them on the screens.
import { expect, test } from './fixtures';
import { ADMIN, api, apiToken, loginForm, shot, uid } from './helpers';

test('a screen the user may not view shows the 403 page and opens no tab', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const role = await api(request, token, 'POST', '/roles', { name: `Solo zonas 403 ${id}`, active: true });
  await api(request, token, 'PUT', '/save-permission', {
    role_id: role.id,
    permissions: ['Admin.Zones.view'],
  });
  const user = { username: `z403${id}`, password: 'Zonas12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `z403${id}@example.com`,
    full_name: 'Usuario 403',
    roles: [role.id],
    active: true,
    confirmed: true,
  });
  await loginForm(page, user);
  await page.goto('/main/zone');
  const tabs = page.getByRole('tablist', { name: 'Páginas abiertas' }).getByRole('tab');
  await expect(tabs).toHaveText(['Dashboard', 'Zonas']);

  await page.goto('/main/dealer');
  await expect(page.getByTestId('error-403')).toBeVisible();
  await expect(tabs).toHaveText(['Dashboard', 'Zonas']);
  await page.reload();
  await expect(page.getByTestId('error-403')).toBeVisible();
  await expect(tabs).toHaveText(['Dashboard', 'Zonas']);
  await shot(page, 'rough-403-no-tab');
});

test('the user form: an empty password is caught here; a server error shows once, on its field', async ({
  page,
}) => {
  await loginForm(page);
  await page.goto('/main/user');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/users')) posts.push(r.url());
  });
  await page.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = page.getByRole('dialog');
  const id = uid();
  // The administrator's own user name: the server answers that it exists.
  await dialog.getByRole('textbox', { name: 'Usuario', exact: true }).fill(ADMIN.username);
  await dialog.getByRole('textbox', { name: 'Email', exact: true }).fill(`u${id}@example.com`);
  await dialog.getByRole('textbox', { name: 'Nombre completo', exact: true }).fill('Usuario Nuevo');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Contraseña es obligatorio')).toBeVisible();
  expect(posts).toEqual([]);

  await dialog.getByLabel('Contraseña').first().fill('Clave12345');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect.poll(() => posts.length).toBe(1);
  const message = dialog.getByText(/Usuario.*(ya existe|existe)/);
  await expect(message).toBeVisible();
  // Once: under the field, not also as a toast.
  await expect(page.getByText(/Usuario.*(ya existe|existe)/)).toHaveCount(1);
  await expect(page.locator('.notistack-SnackbarContainer [role=alert], #notistack-snackbar')).toHaveCount(0);
  await shot(page, 'rough-user-form-once');
});

test("an empty required select of the sale form says '{field} es obligatorio'", async ({ page }) => {
  await loginForm(page);
  await page.goto('/sales');
  await page.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText('Forma de Pago es obligatorio')).toBeVisible();
  await expect(dialog.getByText('Tipo Documento es obligatorio')).toBeVisible();
  await expect(dialog.getByText(/no es valid/)).toHaveCount(0);
  await shot(page, 'rough-sale-required');
});

test('delete names the record as the list shows it', async ({ page, request }) => {
  const token = await apiToken(request);
  const name = `Zona por borrar ${uid()}`;
  await api(request, token, 'POST', '/zones', { name, active: true });
  await loginForm(page);
  await page.goto(`/main/zone?query=${encodeURIComponent(name)}`);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: 'Eliminar' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(`¿Está seguro de eliminar el registro "${name}"?`);
  await expect(confirm).not.toContainText('#');
  await shot(page, 'rough-delete-named');
  await confirm.getByRole('button', { name: 'Sí, Seguro' }).click();
  await expect(page.getByText('Eliminado Correctamente')).toBeVisible();
});

test('menu entries are links: a click opens the in-app tab, Ctrl+click a browser tab', async ({
  page,
  context,
}) => {
  await loginForm(page);
  await page.evaluate(() => {
    (window as any).__samePage = true;
  });
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  await nav.locator('[data-menu="organization"]').click();
  const zone = nav.locator('[data-menu="zone"]');
  await expect(zone).toHaveAttribute('href', '/main/zone');
  await zone.click();
  await expect(page).toHaveURL(/\/main\/zone$/);
  await expect(page.getByRole('tablist', { name: 'Páginas abiertas' }).getByRole('tab')).toHaveText([
    'Dashboard',
    'Zonas',
  ]);
  // The app did not reload.
  expect(await page.evaluate(() => (window as any).__samePage)).toBe(true);

  const country = nav.locator('[data-menu="country"]');
  const [opened] = await Promise.all([
    context.waitForEvent('page'),
    country.click({ modifiers: ['ControlOrMeta'] }),
  ]);
  await opened.waitForLoadState();
  expect(opened.url()).toMatch(/main%2Fcountry|\/main\/country/);
  // The first browser tab stayed where it was.
  await expect(page).toHaveURL(/\/main\/zone$/);
  await opened.close();
});

test('the first load asks for nothing that is missing (favicon included)', async ({ page, request }) => {
  const missing: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const icon = await page.locator('link[rel=icon]').getAttribute('href');
  expect(icon).toBeTruthy();
  const res = await request.get(icon!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('image/svg+xml');
  expect(missing).toEqual([]);
});

test('phones show in one format in lists', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const dealer = await api(request, token, 'POST', '/dealers', {
    code: `T${id}`,
    name: `Fonos ${id}`,
    active: true,
  });
  await api(request, token, 'POST', '/dealer-contacts', {
    dealer_id: dealer.id,
    name: `Contacto crudo ${id}`,
    phone: '014451200',
  });
  await api(request, token, 'POST', '/dealer-contacts', {
    dealer_id: dealer.id,
    name: `Contacto enmascarado ${id}`,
    phone: '(01) 444-5566',
  });
  await loginForm(page);
  await page.goto(`/main/dealer-contact?query=${id}`);
  await expect(page.getByRole('gridcell', { name: '(01) 445-1200' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: '(01) 444-5566' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: '014451200' })).toHaveCount(0);
  await shot(page, 'rough-phones');
});

test('the audit screen names resources and actions in Spanish', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const zone = await api(request, token, 'POST', '/zones', { name: `Zona auditada ${id}`, active: true });
  // An action's own audit word ('enable') has its Spanish name too.
  const dealer = await api(request, token, 'POST', '/dealers', {
    code: `A${id}`,
    name: `Auditado ${id}`,
    active: true,
  });
  await api(request, token, 'POST', '/figures/enable', { year: 2025, month: 3, dealer_ids: [dealer.id] });
  await loginForm(page);
  await page.goto('/main/audit');
  const grid = page.getByRole('grid');
  const zoneRow = grid
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell', { name: String(zone.id), exact: true }) });
  await expect(zoneRow.filter({ hasText: 'Zonas' }).filter({ hasText: 'Creó' })).toHaveCount(1);
  await expect(grid.getByRole('row').filter({ hasText: 'Habilitó el periodo' }).first()).toContainText(
    'Periodos de cifras',
  );
  for (const raw of ['zones', 'enable', 'figure-periods'])
    await expect(grid.getByRole('gridcell', { name: raw, exact: true })).toHaveCount(0);
  await shot(page, 'rough-audit-spanish');
});
