// Menu from permissions, opened-page tabs, error-403, the shortcuts dialog.
import { expect, test } from './fixtures';
import { api, apiToken, loginForm, shot, uid } from './helpers';

test('the menu shows only what the user may view; a route without permission shows error-403', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid();
  const role = await api(request, token, 'POST', '/roles', { name: `Solo zonas ${id}`, active: true });
  await api(request, token, 'PUT', '/save-permission', {
    role_id: role.id,
    permissions: ['Admin.Zones.view', 'Admin.Zones.store'],
  });
  const user = { username: `zonas${id}`, password: 'Zonas12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `zonas${id}@example.com`,
    full_name: 'Usuario Zonas',
    roles: [role.id],
    active: true,
    confirmed: true,
  });

  await loginForm(page, user);
  const nav = page.getByRole('navigation', { name: 'Menú principal' });
  // A single top-level entry: the side menu starts collapsed.
  await expect(page.locator('[data-collapsed="true"]')).toBeVisible();
  await expect(nav.locator('[data-menu]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Mostrar u ocultar menú' }).click();
  await nav.locator('[data-menu="organization"]').click();
  await expect(nav.locator('[data-menu="zone"]')).toBeVisible();
  await expect(nav.locator('[data-menu="dealer"]')).toHaveCount(0);
  await expect(nav.locator('[data-menu="security"]')).toHaveCount(0);
  await nav.locator('[data-menu="zone"]').click();
  await expect(page.getByRole('button', { name: 'Nuevo' })).toBeVisible();
  // No .update/.destroy/.export: no row actions and no export.
  await expect(page.getByRole('button', { name: 'Exportar a Excel' })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Acciones' })).toHaveCount(0);
  await shot(page, 'shell-menu-permissions');

  await page.goto('/main/dealer');
  await expect(page.getByTestId('error-403')).toBeVisible();
  await expect(page).toHaveURL(/error-403/);
  await shot(page, 'shell-error-403');
});

test('three opened pages come back after a reload; Cerrar los otros keeps the current one', async ({
  page,
}) => {
  await loginForm(page);
  for (const path of ['/main/zone', '/main/country', '/main/department']) {
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
  }
  const tabs = page.getByRole('tablist', { name: 'Páginas abiertas' }).getByRole('tab');
  await expect(tabs).toHaveText(['Dashboard', 'Zonas', 'Países', 'Departamentos']);
  await page.reload();
  await expect(tabs).toHaveText(['Dashboard', 'Zonas', 'Países', 'Departamentos']);
  await expect(page).toHaveTitle('Red de Concesionarios - Departamentos');
  await shot(page, 'shell-tabs-reload');

  // Closing the current tab moves to the next one (here the previous: it was the last).
  await page.goto('/main/country');
  await page.getByRole('button', { name: 'Cerrar Países' }).click();
  await expect(page).toHaveURL(/\/main\/department$/);
  await expect(tabs).toHaveText(['Dashboard', 'Zonas', 'Departamentos']);

  await page.getByRole('button', { name: 'Opciones de pestañas' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar los otros' }).click();
  await expect(tabs).toHaveText(['Dashboard', 'Departamentos']);
  // Dashboard cannot be closed.
  await expect(page.getByRole('button', { name: 'Cerrar Dashboard' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Opciones de pestañas' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar todo' }).click();
  await expect(page).toHaveURL(/\/main\/home$/);
  await expect(tabs).toHaveText(['Dashboard']);
  await shot(page, 'shell-tabs-closed');
});

test('Alt+H shows every shortcut; Esc closes the dialog', async ({ page }) => {
  await loginForm(page);
  await page.keyboard.press('Alt+h');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Atajos de teclado' })).toBeVisible();
  for (const k of [
    'Alt+H',
    'Alt+F',
    'Alt+M',
    'Alt+R',
    'Alt+N',
    'Alt+A',
    'Alt+E',
    'Esc',
    'Alt+C',
    'Alt+G',
    'Alt+P',
  ]) {
    await expect(dialog.getByRole('cell', { name: k, exact: true })).toBeVisible();
  }
  await shot(page, 'shell-shortcuts');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  // The notifications popup: its two tabs and the link to 'order'.
  await page.getByRole('button', { name: 'Notificaciones' }).click();
  await expect(page.getByRole('tab', { name: 'Notificación' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Mensajes' })).toBeVisible();
  await page.getByRole('link', { name: 'Ver todo' }).click();
  await expect(page).toHaveURL(/\/main\/order$/);
  // A real list of what the bell shows, not a placeholder (issue 27); in the page, not in the
  // popup that may still be fading out.
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Notificaciones' })).toBeVisible();
  // Its filters (the list itself: e2e/notifications.spec.ts).
  await expect(main.getByRole('combobox', { name: 'Tipo' })).toBeVisible();
  await expect(page.getByText(/En construcci/)).toHaveCount(0);
  await main.getByRole('tab', { name: 'Mensajes' }).click();
  await expect(main.getByText('No tiene mensajes')).toBeVisible();
  await shot(page, 'shell-notifications');
});
