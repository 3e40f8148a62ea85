// The second factor as a user meets it: enrolment from the profile (the secret is read from the
// page and the code computed here, as an authenticator app would), sign out, sign in with a code;
// and with the administrators' requirement on, a first sign-in that asks to enrol.
import * as OTPAuth from 'otpauth';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, shot, uid } from './helpers';

/** The code of the app: at `step` 30-second steps from now (a step not used yet). */
const code = (secret: string, step = 0) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: Date.now() + step * 30_000 });

async function newAdmin(request: Parameters<typeof apiToken>[0], token: string) {
  const id = uid();
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const user = { username: `jefe2f${id}`, password: 'Jefe2f-12345' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `jefe2f${id}@example.com`,
    full_name: `Jefa Sistemas ${id}`,
    roles: [roles.find((r) => r.name === 'Administrador')!.id],
    active: true,
    confirmed: true,
  });
  return user;
}

async function password(page: Page, user: { username: string; password: string }) {
  await page.goto('/');
  await page.locator('input[name=username]').fill(user.username);
  await page.locator('input[name=password]').fill(user.password);
  await page.getByRole('button', { name: 'Iniciar Sesión' }).click();
}

const secretOnPage = async (page: Page) =>
  ((await page.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '');

test('two-factor: enrol from the profile, sign out, sign in with a code', async ({ page, request }) => {
  const token = await apiToken(request);
  const user = await newAdmin(request, token);
  await password(page, user);
  await expect(page).toHaveURL(/\/main\//);

  await page.goto('/admin/users/profile');
  const section = page.getByRole('region', { name: 'Verificación en dos pasos' });
  await expect(section.getByText('Desactivada')).toBeVisible();
  await section.getByRole('button', { name: 'Activar verificación en dos pasos' }).click();
  await expect(
    section.getByRole('img', { name: 'Código QR para la aplicación de autenticación' }),
  ).toBeVisible();
  const secret = await secretOnPage(page);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel('Código de 6 dígitos').fill('000000' === code(secret) ? '111111' : '000000');
  await section.getByRole('button', { name: 'Confirmar' }).click();
  await expect(section.getByText(/El código no es válido/)).toBeVisible();
  await section.getByLabel('Código de 6 dígitos').fill(code(secret));
  await section.getByRole('button', { name: 'Confirmar' }).click();
  await expect(section.getByText('Activada', { exact: true })).toBeVisible();
  const codes = section.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(codes).toHaveCount(8);
  await expect(section.getByText('Códigos de recuperación sin usar:')).toContainText('8');
  await shot(page, 'two-factor-profile-enrolled');

  await page.getByRole('button', { name: 'Menú de usuario' }).click();
  await page.getByRole('menuitem', { name: 'Cerrar Sesión' }).click();
  await expect(page.locator('input[name=username]')).toBeVisible();

  await password(page, user);
  await expect(page.getByText('Verificación en dos pasos')).toBeVisible();
  await expect(page).not.toHaveURL(/\/main\//);
  await page.getByLabel('Código de 6 dígitos').fill(code(secret, 1));
  await shot(page, 'two-factor-login-code');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(/\/main\//);
  await expect(page.getByRole('button', { name: 'Menú de usuario' })).toContainText('Jefa Sistemas');
});

test('two-factor: with the requirement on, an administrator enrols at the first sign-in', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const user = await newAdmin(request, token);
  await api(request, token, 'PUT', '/configurations/save', { TWO_FACTOR_REQUIRED: 'true' });
  try {
    await password(page, user);
    await expect(page.getByText('Los administradores entran con verificación en dos pasos')).toBeVisible();
    await expect(
      page.getByRole('img', { name: 'Código QR para la aplicación de autenticación' }),
    ).toBeVisible();
    await shot(page, 'two-factor-login-setup');
    const secret = await secretOnPage(page);
    await page.getByLabel('Código de 6 dígitos').fill(code(secret));
    await page.getByRole('button', { name: 'Verificar' }).click();
    await expect(
      page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem'),
    ).toHaveCount(8);
    await page.getByRole('button', { name: 'Ya los guardé, continuar' }).click();
    await expect(page).toHaveURL(/\/main\//);
    await page.goto('/admin/users/profile');
    const section = page.getByRole('region', { name: 'Verificación en dos pasos' });
    await expect(
      section.getByText('Es obligatoria para los administradores.', { exact: false }),
    ).toBeVisible();
    await expect(section.getByRole('button', { name: 'Desactivar' })).toHaveCount(0);
  } finally {
    await api(request, token, 'PUT', '/configurations/save', { TWO_FACTOR_REQUIRED: 'false' });
  }
});
