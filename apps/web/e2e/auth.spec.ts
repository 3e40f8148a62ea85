// Login with and without rememberMe, a failed login, lock and unlock, logout.
import { expect, test } from './fixtures';
import { ADMIN, api, apiToken, loginForm, shot, uid } from './helpers';

test('a wrong password shows the inline message and no toast', async ({ page }) => {
  await page.goto('/');
  await page.locator('input[name=username]').fill('admin');
  await page.locator('input[name=password]').fill('incorrecta');
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page.getByRole('alert')).toHaveText('Usuario o contraseña incorrectos');
  await expect(page.locator('#notistack-snackbar')).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);
  await shot(page, 'auth-login-failed');
});

test('an account not confirmed yet says so on the login form', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const user = { username: `sinconf${id}`, password: 'Sinconf12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `sinconf${id}@example.com`,
    full_name: 'Usuario Sin Confirmar',
    active: true,
    confirmed: false,
  });
  await page.goto('/');
  await page.locator('input[name=username]').fill(user.username);
  await page.locator('input[name=password]').fill(user.password);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Su cuenta aún no ha sido confirmada. Consulte con el administrador del sistema.',
  );
  await expect(page).toHaveURL(/\/$/);
  await shot(page, 'auth-login-not-confirmed');
});

test('login without rememberMe keeps a session cookie only', async ({ page, context }) => {
  await loginForm(page, ADMIN, false);
  await expect(page).toHaveURL(/\/main\/home$/);
  const token = (await context.cookies()).find((c) => c.name === 'AuthToken');
  expect(token?.value).toBeTruthy();
  expect(token?.expires).toBe(-1);
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toContainText('Administrador');
  await shot(page, 'auth-login-session');
});

test('login with rememberMe stores a token with an expiry', async ({ page, context }) => {
  await loginForm(page, ADMIN, true);
  const token = (await context.cookies()).find((c) => c.name === 'AuthToken');
  expect(token?.expires).toBeGreaterThan(Date.now() / 1000 + 24 * 3600);
  // A logged-in user who opens login goes to the default tab.
  await page.goto('/');
  await expect(page).toHaveURL(/\/main\/home$/);
  await shot(page, 'auth-login-remember');
});

test('lock and unlock with the password; every route goes to the lock screen while locked', async ({
  page,
  context,
}) => {
  await loginForm(page);
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Bloquear pantalla' }).click();
  await expect(page).toHaveURL(/\/locking\?redirect=%2Fmain%2Fhome$/);
  expect((await context.cookies()).find((c) => c.name === 'locking')?.value).toBe('1');
  await page.goto('/main/zone');
  // The lock screen remembers the page it locked: unlocking returns there (issue 27).
  await expect(page).toHaveURL(/\/locking\?redirect=%2Fmain%2Fzone$/);
  await page.locator('input[name=password]').fill('mal-password');
  await page.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page.getByRole('alert')).toHaveText('Usuario o contraseña incorrectos');
  await shot(page, 'auth-locked');
  await page.locator('input[name=password]').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(page).toHaveURL(/\/main\/zone$/);
  expect((await context.cookies()).find((c) => c.name === 'locking')?.value).toBe('0');
  // '0' forbids opening the lock screen.
  await page.goto('/locking');
  await expect(page).toHaveURL(/\/main\/home$/);
});

test('logout returns to login and protected routes need a login again', async ({ page }) => {
  await loginForm(page);
  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar Sesión' }).click();
  await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
  await page.goto('/main/zone');
  await expect(page.getByRole('button', { name: 'Iniciar Sesión' })).toBeVisible();
  // The public survey needs no login.
  await page.goto('/encuesta');
  await expect(page.getByText('Encuesta de Satisfacción')).toBeVisible();
  await shot(page, 'auth-logout');
});
