// The administrator's everyday screens of the organisation: preferences merged at once, a
// password reset, the audit trail with before/after values, brand models filtered by the brand
// selector, and the ubigeo lists searchable.
import { expect, test } from './fixtures';
import { api, apiToken, fillDate, limaDay, loginForm, shot, uid } from './helpers';

test('preferences, password reset and the audit trail', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const before = await api<Record<string, string>>(request, token, 'GET', '/getUserConfigurations');
  const user = { username: `reset${id.toLowerCase()}`, password: 'Inicial-123' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `${user.username}@example.com`,
    full_name: `Usuario Reset ${id}`,
  });

  await loginForm(page);
  try {
    // Preferences: saving merges into the client's settings at once (the footer names the company).
    await page.goto('/preferences');
    await page.getByRole('tab', { name: 'General', exact: true }).click();
    const company = page.getByRole('textbox', { name: 'Nombre de la empresa' });
    await expect(company).toHaveValue(before.COMPANY_NAME);
    await company.fill(`Importadora ${id}`);
    await page.getByRole('textbox', { name: 'Días de vigencia de la encuesta' }).fill('0');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Días de vigencia de la encuesta el valor mínimo es 1')).toBeVisible();
    await page.getByRole('textbox', { name: 'Días de vigencia de la encuesta' }).fill('45');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Guardado Correctamente')).toBeVisible();
    await expect(page.locator('footer, body').getByText(`Importadora ${id}`).first()).toBeVisible();
    await shot(page, 'organization-preferences');
    const after = await api<Record<string, string>>(request, token, 'GET', '/getUserConfigurations');
    expect(after).toMatchObject({ COMPANY_NAME: `Importadora ${id}`, SURVEY_EXPIRY_DAYS: '45' });

    // Values of a general type.
    await page.getByRole('tab', { name: 'Tipos generales' }).click();
    await page.getByLabel('Buscar').fill('LICENSE');
    await page
      .getByRole('row')
      .filter({ hasText: 'LICENSE_CATEGORIES' })
      .getByRole('button', { name: 'Valores' })
      .click();
    await expect(page.getByRole('gridcell', { name: 'A-IIIc' }).first()).toBeVisible();
    await shot(page, 'organization-type-values');

    // An administrator resets a user's password; the new one works.
    await page.goto('/main/user');
    await page.getByLabel('Buscar').fill(user.username);
    const row = page.getByRole('row').filter({ hasText: user.username });
    await row.getByRole('button', { name: 'Restablecer contraseña' }).click();
    await page.getByLabel('Nueva contraseña').fill('corta');
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Mínimo 8 caracteres')).toBeVisible();
    await page.getByLabel('Nueva contraseña').fill('Nueva-Clave-9');
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('Guardado Correctamente')).toBeVisible();
    const relogin = await request.post('/api/auth/login', {
      data: { username: user.username, password: 'Nueva-Clave-9' },
    });
    expect(relogin.status()).toBe(200);
    const old = await request.post('/api/auth/login', { data: user });
    expect(old.status()).toBe(401);

    // The audit trail: filter by resource, open the change with its before and after values.
    await page.goto('/main/audit');
    await page.getByRole('combobox', { name: 'Recurso' }).fill('Configuraciones');
    await page.getByRole('option', { name: 'Configuraciones' }).click();
    // The date filter (kit date input, YYYY-MM-DD): today's change is still listed.
    await fillDate(page, 'Desde', limaDay());
    const entry = page.getByRole('row').filter({ hasText: 'Guardó' }).first();
    await expect(entry).toBeVisible();
    await entry.getByRole('button', { name: 'Ver cambios' }).click();
    const changes = page.getByRole('table', { name: 'Cambios' });
    const companyRow = changes.getByRole('row').filter({ hasText: 'COMPANY_NAME' });
    await expect(companyRow).toContainText(before.COMPANY_NAME);
    await expect(companyRow).toContainText(`Importadora ${id}`);
    await shot(page, 'organization-audit');
    await page.getByRole('button', { name: 'Cerrar' }).click();
    // The password reset is in the trail too, under Usuarios.
    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await expect(
      page.getByRole('row').filter({ hasText: 'Restableció la contraseña' }).first(),
    ).toBeVisible();
    // The user filter searches the users as typed; the trail never loads them whole.
    const wholeUsers: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/users\?/.test(r.url()) && decodeURIComponent(r.url()).includes('perPage=-1'))
        wholeUsers.push(r.url());
    });
    await page.getByRole('combobox', { name: 'Usuario' }).fill('admi');
    await page.getByRole('option', { name: 'admin - Administrador' }).click();
    await expect(page.getByRole('combobox', { name: 'Usuario' })).toHaveValue('admin - Administrador');
    await expect(
      page.getByRole('row').filter({ hasText: 'Restableció la contraseña' }).first(),
    ).toBeVisible();
    await page.getByRole('combobox', { name: 'Usuario' }).fill(`reset${id.toLowerCase()}`);
    await page.getByRole('option', { name: new RegExp(`^reset${id.toLowerCase()} - `) }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Restableció la contraseña' })).toHaveCount(0);
    expect(wholeUsers).toEqual([]);
  } finally {
    await api(request, token, 'PUT', '/configurations/save', {
      COMPANY_NAME: before.COMPANY_NAME,
      SURVEY_EXPIRY_DAYS: before.SURVEY_EXPIRY_DAYS ?? '60',
    });
  }
});

test('brand models follow the brand selector; ubigeo lists are searchable', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const brands = await api<{ id: number; code: string; name: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  const [first, second] = brands;
  await api(request, token, 'POST', '/manufacturer-models', {
    manufacturer_id: first.id,
    name: `Modelo A ${id}`,
  });
  await api(request, token, 'POST', '/manufacturer-models', {
    manufacturer_id: second.id,
    name: `Modelo B ${id}`,
  });
  // SPEC §7: the models list answers items and totalCount.
  const listed = await api(request, token, 'GET', `/manufacturer-models?query=${id}`);
  expect(listed.totalCount).toBe(2);
  expect(listed.items).toHaveLength(2);

  await loginForm(page);
  await page.goto('/main/manufacturer-model');
  await page.getByLabel('Buscar').fill(id);
  await expect(page.getByRole('grid').getByText(`Modelo B ${id}`)).toBeVisible();
  await page.getByRole('combobox', { name: 'Marca' }).click();
  await page.getByRole('option', { name: first.name, exact: true }).click();
  await expect(page.getByRole('grid').getByText(`Modelo A ${id}`)).toBeVisible();
  await expect(page.getByRole('grid').getByText(`Modelo B ${id}`)).toHaveCount(0);
  await shot(page, 'organization-models-by-brand');
  // Back to every brand for the other flows.
  await page.getByRole('combobox', { name: 'Marca' }).click();
  await page.getByRole('option', { name: 'Todas' }).click();

  await page.goto('/main/district');
  await page.getByLabel('Buscar').fill('CAYMA');
  await expect(page.getByRole('grid').getByText('CAYMA', { exact: true })).toBeVisible();
  await shot(page, 'organization-districts-search');
});
