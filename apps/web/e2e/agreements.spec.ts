// Seguimiento as people use it: the manufacturer records an agreement already past its due date
// (marked with its age), mails it to the dealer's contacts, the dealer user sees only its own
// agreements, comments and moves it to 'En proceso' (history with who and when), and the
// manufacturer filters the overdue ones and exports them.
import { expect, type Page, test } from './fixtures';
import { api, apiToken, fillDate, limaDay, loginForm, shot, uid } from './helpers';

const day = limaDay;

async function chooseDealer(page: Page, dealerId: number) {
  await page.addInitScript((id) => localStorage.setItem('filter-dealer', String(id)), dealerId);
}

test('an overdue agreement is recorded, notified, commented by its dealer and exported', async ({
  browser,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const zone = await api(request, token, 'POST', '/zones', { name: `Zona Seguimiento ${id}` });
  const dealer = await api(request, token, 'POST', '/dealers', {
    code: `AG${id}`,
    name: `Seguimiento Motor ${id}`,
    zone_id: zone.id,
  });
  const other = await api(request, token, 'POST', '/dealers', {
    code: `AX${id}`,
    name: `Otro Motor ${id}`,
    zone_id: zone.id,
  });
  for (const c of [
    { name: 'Ana Gerente', email: `ana.${id.toLowerCase()}@example.com`, position: 'Gerente general' },
    {
      name: 'Bruno Postventa',
      email: `bruno.${id.toLowerCase()}@example.com`,
      position: 'Jefe de postventa',
    },
  ])
    await api(request, token, 'POST', '/dealer-contacts', { dealer_id: dealer.id, ...c });
  await api(request, token, 'POST', '/agreements', {
    dealer_id: other.id,
    title: `Acuerdo ajeno ${id}`,
    level: 'low',
    due_date: day(20),
  });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const dealerUser = { username: `seg${id.toLowerCase()}`, password: 'Seguimiento-123' };
  await api(request, token, 'POST', '/users', {
    ...dealerUser,
    email: `${dealerUser.username}@example.com`,
    full_name: `Jefe de Taller ${id}`,
    dealer_id: dealer.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });

  // 1. The manufacturer records the agreement (dealer from the toolbar), due 12 days ago.
  const admin = await (await browser.newContext()).newPage();
  await chooseDealer(admin, dealer.id);
  await loginForm(admin);
  await admin.goto('/agreement');
  await expect(admin.getByText('Abiertos:')).toBeVisible();
  await admin.getByRole('button', { name: 'Nuevo' }).click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog.getByRole('combobox', { name: 'Concesionario', exact: true })).toHaveValue(dealer.name);
  // The zone is the dealer's, shown and not chosen (issue 27).
  const zoneBox = dialog.getByRole('combobox', { name: /^Zona/ });
  await expect(zoneBox).toHaveText(zone.name);
  await zoneBox.click();
  await expect(admin.getByRole('listbox')).toHaveCount(0);
  await dialog.getByRole('textbox', { name: 'Título', exact: true }).fill(`Reducir tiempos de entrega ${id}`);
  await dialog.getByRole('textbox', { name: 'Detalle', exact: true }).fill('Entregar en 5 días hábiles');
  await dialog.getByRole('combobox', { name: /^Nivel/ }).click();
  await admin.getByRole('option', { name: 'Alto' }).click();
  await fillDate(admin, 'Fecha límite', day(-12));
  await dialog.getByRole('textbox', { name: 'Responsable', exact: true }).fill('Ana Gerente');
  await shot(admin, 'agreements-1-form');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(admin.getByText('Guardado Correctamente')).toBeVisible();
  const row = admin.getByRole('row', { name: new RegExp(`Reducir tiempos de entrega ${id}`) });
  await expect(row.getByText('12 días')).toBeVisible();
  await expect(row.getByText('Pendiente')).toBeVisible();
  await shot(admin, 'agreements-2-list-overdue');

  // 2. ...and mails it to the dealer's contacts.
  await row.getByRole('button', { name: 'Notificar' }).click();
  const notify = admin.getByRole('dialog', { name: 'Notificar al concesionario' });
  await expect(notify.getByText(/Ana Gerente/)).toBeVisible();
  await notify.getByRole('textbox', { name: 'Mensaje (opcional)' }).fill('Revisar antes del comite');
  await notify.getByRole('button', { name: 'Enviar' }).click();
  await expect(notify.getByText(/Acuerdo enviado a Ana Gerente/)).toBeVisible();
  await shot(admin, 'agreements-3-notified');
  await notify.getByRole('button', { name: 'Cerrar' }).click();

  // 3. The dealer user sees its own agreement only, comments and moves it to 'En proceso'.
  const page = await (await browser.newContext()).newPage();
  await loginForm(page, dealerUser);
  await page.goto('/agreement');
  const own = page.getByRole('row', { name: new RegExp(`Reducir tiempos de entrega ${id}`) });
  await expect(own).toBeVisible();
  await expect(page.getByText(`Acuerdo ajeno ${id}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Nuevo' })).toHaveCount(0);
  await own.getByRole('button', { name: 'Historial' }).click();
  const history = page.getByRole('dialog', { name: /Historial/ });
  await expect(history.getByText(/Envió el acuerdo por correo a Ana Gerente/)).toBeVisible();
  await history.getByRole('textbox', { name: 'Comentario' }).fill('Se contrato un gestor de placas');
  await history.getByRole('combobox', { name: /^Nuevo estado/ }).click();
  await page.getByRole('option', { name: 'En proceso' }).click();
  await history.getByRole('button', { name: 'Agregar comentario' }).click();
  await expect(history.getByText('“Se contrato un gestor de placas”')).toBeVisible();
  await expect(history.getByText('Cambió el estado de Pendiente a En proceso')).toBeVisible();
  await expect(history.getByText(new RegExp(`Jefe de Taller ${id}`)).first()).toBeVisible();
  await shot(page, 'agreements-4-dealer-history');
  await history.getByRole('button', { name: 'Cerrar' }).click();
  await expect(own.getByText('En proceso')).toBeVisible();
  await shot(page, 'agreements-5-dealer-list');

  // 4. The manufacturer filters the overdue ones and exports them.
  await admin.reload();
  await admin.getByLabel('Solo vencidos').check();
  await expect(
    admin.getByRole('row', { name: new RegExp(`Reducir tiempos de entrega ${id}`) }),
  ).toBeVisible();
  await expect(
    admin.getByRole('row', { name: new RegExp(`Reducir tiempos de entrega ${id}`) }).getByText('En proceso'),
  ).toBeVisible();
  await shot(admin, 'agreements-6-overdue-filter');
  const [file] = await Promise.all([
    admin.waitForEvent('download'),
    admin.getByRole('button', { name: /Exportar/ }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^Seguimiento.*\.xlsx$/);
});
