// The profile screen: name change, a server validation error on its field, a password change that
// keeps the session (the answer carries a fresh token).
import { expect, test } from './fixtures';
import { api, apiToken, loginForm, shot, uid } from './helpers';

test('profile: edit the name, wrong current password on its field, change the password', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid();
  const user = { username: `perfil${id}`, password: 'Perfil12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `perfil${id}@example.com`,
    full_name: 'Usuario Perfil',
    active: true,
    confirmed: true,
  });
  await loginForm(page, user);
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  // Without Admin.Preferences.view there is no Configuracion item.
  await expect(page.getByRole('menuitem', { name: 'Configuración' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Perfil', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users\/profile$/);
  await expect(page).toHaveTitle(/ - Perfil de usuario$/);

  await page.getByLabel('Nombre completo').fill('Usuario Renombrado');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toContainText('Usuario Renombrado');

  await page.getByLabel('Contraseña actual').fill('equivocada1');
  await page.getByLabel('Contraseña nueva').fill('Nueva123456');
  await page.getByLabel('Confirmar contraseña').fill('Nueva123456');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.locator('.MuiFormHelperText-root.Mui-error')).toHaveText(
    'La contraseña actual no es correcta',
  );
  await shot(page, 'profile-server-error');

  await page.getByLabel('Contraseña actual').fill(user.password);
  await page.getByRole('button', { name: 'Guardar' }).click();
  // Saved: the password inputs are emptied and the error is gone.
  await expect(page.getByLabel('Contraseña actual')).toHaveValue('');
  await expect(page.locator('.MuiFormHelperText-root.Mui-error')).toHaveCount(0);
  // Still signed in with the new token after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toContainText('Usuario Renombrado');
  const r = await request.post('/api/auth/login', {
    data: { username: user.username, password: 'Nueva123456', rememberMe: false },
  });
  expect(r.ok()).toBeTruthy();
  await shot(page, 'profile-saved');
});

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('profile: the avatar is an image chosen on the computer, never another site address', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid();
  const user = { username: `avatar${id}`, password: 'Avatar12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `avatar${id}@example.com`,
    full_name: 'Usuario Avatar',
    active: true,
    confirmed: true,
  });
  await loginForm(page, user);
  await page.goto('/admin/users/profile');
  const field = page.getByLabel('Avatar (URL)');
  await field.fill('https://seguimiento.example.com/pixel.png');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.locator('.MuiFormHelperText-root.Mui-error')).toContainText(
    'Avatar debe ser una imagen PNG, JPEG, GIF o WebP',
  );

  await page
    .getByLabel('Imagen de avatar')
    .setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: PNG });
  await expect(field).toHaveValue(/^data:image\/png;base64,/);
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  // Shown from the session (top bar and profile) after a reload.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Elegir imagen' })).toBeVisible();
  await expect(page.locator('img[src^="data:image/png;base64,"]')).toHaveCount(2);
  await shot(page, 'profile-avatar');
});
