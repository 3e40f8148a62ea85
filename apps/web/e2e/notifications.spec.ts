// The notifications centre (issue 29): an agreement due in two days and one overdue are told to
// the administrator and to the dealer's user; the bell counts them, its popup lists them, "Ver
// todo" opens the page with filters; a click marks one read and opens its screen; "Marcar todo
// como leído" clears the count. Desktop (1440×900) and phone (390×844).
import { expect, test } from '@playwright/test';
import { api, apiToken, limaDay, loginForm, shot, uid } from './helpers';

test('the bell and the Notificaciones page: see, filter and clear what needs the user', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const token = await apiToken(request);
  const code = `NT${uid()}`.toUpperCase();
  const zone = await api<{ id: number }>(request, token, 'POST', '/zones', { name: `Zona ${code}` });
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code,
    name: `Autos ${code}`,
    zone_id: zone.id,
  });
  await api(request, token, 'POST', '/agreements', {
    zone_id: zone.id,
    dealer_id: dealer.id,
    title: `Capacitar asesores ${code}`,
    level: 'high',
    due_date: limaDay(2),
  });
  await api(request, token, 'POST', '/agreements', {
    zone_id: zone.id,
    dealer_id: dealer.id,
    title: `Renovar letreros ${code}`,
    level: 'medium',
    due_date: limaDay(-3),
  });
  await loginForm(page);
  const bell = page.getByRole('button', { name: /^Notificaciones: \d+ sin leer$/ });
  await expect(bell).toBeVisible();
  await bell.click();
  const popup = page
    .getByRole('presentation')
    .filter({ has: page.getByRole('tab', { name: 'Notificación' }) });
  await expect(popup.getByText(`Acuerdo por vencer: Capacitar asesores ${code}`)).toBeVisible();
  await expect(popup.getByText(`Acuerdo vencido: Renovar letreros ${code}`)).toBeVisible();
  await shot(page, 'notifications-bell');
  await popup.getByRole('link', { name: 'Ver todo' }).click();
  await expect(page).toHaveURL(/\/main\/order$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Notificaciones' })).toBeVisible();
  await expect(main.getByText(`Acuerdo vencido: Renovar letreros ${code}`)).toBeVisible();
  // Filter by kind: only the overdue one.
  await main.getByRole('combobox', { name: 'Tipo' }).click();
  await page.getByRole('option', { name: 'Acuerdo vencido' }).click();
  await expect(main.getByText(`Acuerdo vencido: Renovar letreros ${code}`)).toBeVisible();
  await expect(main.getByText(`Acuerdo por vencer: Capacitar asesores ${code}`)).toHaveCount(0);
  await shot(page, 'notifications-page');
  // A click marks it read and opens Seguimiento.
  await main.getByText(`Acuerdo vencido: Renovar letreros ${code}`).click();
  await expect(page).toHaveURL(/\/agreement/);
  await page.goto('/main/order');
  await main.getByRole('button', { name: 'Leídas', exact: true }).click();
  await expect(main.getByText(`Acuerdo vencido: Renovar letreros ${code}`)).toBeVisible();
  await main.getByRole('button', { name: 'No leídas' }).click();
  await expect(main.getByText(`Acuerdo vencido: Renovar letreros ${code}`)).toHaveCount(0);
  await expect(main.getByText(`Acuerdo por vencer: Capacitar asesores ${code}`)).toBeVisible();
  await main.getByRole('button', { name: 'Marcar todo como leído' }).click();
  await expect(main.getByText('0 sin leer')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notificaciones', exact: true })).toBeVisible();
  await main.getByRole('button', { name: 'Todas', exact: true }).click();
  await shot(page, 'notifications-page-read');
  // The phone: the page and the bell's popup fit 390 px.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/main/order');
  await expect(main.getByText(`Acuerdo por vencer: Capacitar asesores ${code}`)).toBeVisible();
  await shot(page, 'notifications-page-phone');
  await page.getByRole('button', { name: 'Notificaciones', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Ver todo' })).toBeVisible();
  await shot(page, 'notifications-bell-phone');
});
