// Scheduled reports by mail (issue 29): the administrator turns on the monthly Resumen Comparativo
// in Preferencias → Correos programados; a dealer confirms a month; the tab then shows the mailing
// and the outbox holds one mail per active contact of that dealer, with the .xlsx attached (no
// SMTP in this suite, so nothing is lost: it waits in the outbox).
import { expect, test } from './fixtures';
import { api, apiToken, limaNow, loginForm, shot, uid } from './helpers';

test('the monthly Resumen by mail: turned on in Preferencias, sent to the contacts when a month is confirmed', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `MS${id}`,
    name: `Correo Motor ${id}`,
  });
  const email = `gerencia.${id.toLowerCase()}@concesionario.pe`;
  await api(request, token, 'POST', '/dealer-contacts', {
    dealer_id: dealer.id,
    name: `Ana Gerente ${id}`,
    email,
    active: true,
  });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const dealerUser = { username: `correo${id.toLowerCase()}`, password: 'Correo-12345' };
  await api(request, token, 'POST', '/users', {
    ...dealerUser,
    email: `${dealerUser.username}@example.com`,
    full_name: `Jefe ${id}`,
    dealer_id: dealer.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });

  await loginForm(page);
  await page.goto('/preferences');
  await page.getByRole('tab', { name: 'Correos programados' }).click();
  const monthly = page.getByRole('region', { name: 'Resumen Comparativo mensual' });
  await expect(monthly.getByText('Destinatarios:')).toBeVisible();
  const active = monthly.getByRole('switch', { name: 'Activo' });
  if (!(await active.isChecked())) await active.check();
  await monthly.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();

  // Last year's March, enabled by the manufacturer and confirmed by the dealer.
  const year = limaNow().getUTCFullYear() - 1;
  await api(request, token, 'POST', '/figures/enable', { year, month: 3, dealer_ids: [dealer.id] });
  const dealerToken = await apiToken(request, dealerUser);
  await api(request, dealerToken, 'POST', '/figures/confirm', { year, month: 3 });

  await page.reload();
  await page.getByRole('tab', { name: 'Correos programados' }).click();
  await expect(
    page
      .getByRole('table', { name: 'Últimos envíos: Resumen Comparativo mensual' })
      .getByText(`Correo Motor ${id}`),
  ).toBeVisible();
  const outbox = page.getByRole('table', { name: 'Bandeja de salida' });
  const mail = outbox.getByRole('row').filter({ hasText: email });
  await expect(mail).toHaveCount(1);
  await expect(mail).toContainText(`Resumen Comparativo de Marzo ${year}`);
  await expect(mail).toContainText(/Resumen_Comparativo_\d{4}_03_\w+\.xlsx/);
  await shot(page, 'mail-schedules');
});
