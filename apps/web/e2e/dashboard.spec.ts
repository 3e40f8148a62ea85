// The home tab as a manager and a dealer use it: the cards for the dealer in the address, the
// month chosen kept in the address, a chart read as a table, the link to the sales behind the
// number, and a dealer user who sees its own dealer whatever the address says.
import { expect, test } from './fixtures';
import { api, apiToken, limaDay, limaNow, loginForm, shot, uid } from './helpers';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
const vin = (prefix: string, n: number) =>
  `${prefix}${String(n).padStart(17 - prefix.length, '0')}`.replace(/[IOQ]/g, 'X').slice(0, 17);

test('dashboard: cards, month in the address, table view, link to the sales, and a dealer user', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const now = limaNow();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const pad = (n: number) => String(n).padStart(2, '0');
  const today = limaDay();
  const firstOfMonth = `${year}-${pad(month)}-01`;

  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `DS${id}`,
    name: `Tablero Motors ${id}`,
  });
  const other = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `DO${id}`,
    name: `Otro Tablero ${id}`,
  });
  const prefix = `${[...id].map((c) => (VIN_CHARS.includes(c) ? c : 'A')).join('')}D`;
  const sale = (n: number, date: string) => ({
    dealer_code: `DS${id}`,
    sale_date: date,
    invoice: `F001-${pad(n)}`,
    document_type: 'DNI',
    document_number: `4567891${n}`,
    buyer_name: `Cliente ${n}`,
    email: `cliente${n}@example.com`,
    phone: '987654321',
    vin: vin(prefix, n),
    brand: 'V',
    model: 'Modelo Uno',
    year,
    seller: 'José Ramos',
    payment_method: 'E',
  });
  // Three sales this month (or the first day of it), one in January when this is not January.
  const rows = [sale(1, firstOfMonth), sale(2, today), sale(3, today)];
  if (month > 1) rows.push(sale(4, `${year}-01-15`));
  const saved = await api<{ saved: number }>(request, token, 'POST', '/sales/batch', { rows });
  expect(saved.saved ?? rows.length).toBe(rows.length);
  await api(request, token, 'POST', '/sales/batch', {
    rows: [{ ...sale(9, today), dealer_code: `DO${id}`, vin: vin(`${prefix}O`, 9) }],
  });

  // The flows share one database: these sales go when the test ends (other flows count today's).
  try {
    const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
    const dealerRole = roles.find((r) => r.name === 'Concesionario')!;
    await api(request, token, 'POST', '/users', {
      username: `ds${id.toLowerCase()}`,
      full_name: `Usuario Tablero ${id}`,
      email: `ds${id.toLowerCase()}@example.com`,
      password: 'Tablero-2026',
      dealer_id: dealer.id,
      roles: [dealerRole.id],
      active: true,
    });

    // The manager, on the address a colleague shared: the dealer of the address in the toolbar.
    await loginForm(page);
    await page.goto(`/main/home?year=${year}&dealer_id=${dealer.id}`);
    const sales = page.getByRole('region', { name: 'Ventas CEM', exact: true });
    await expect(sales.getByTestId('card-value')).toHaveText(String(rows.length));
    await expect(page).toHaveURL(new RegExp(`dealer_id=${dealer.id}`));
    await expect(page.getByText('Concesionario y marca: los elegidos en la barra superior.')).toBeVisible();
    // The whole year's dispatched units open the Resumen tab, whose Total row is that number (the
    // Objetivos tab shows one month).
    await expect(
      page
        .getByRole('region', { name: 'Unidades despachadas', exact: true })
        .getByRole('link', { name: /Ver detalle/i }),
    ).toHaveAttribute('href', new RegExp(`/main/dispatches\\?tab=summary&year=${year}$`));

    // The month: kept in the address, the card counts only its sales.
    await page.getByRole('combobox', { name: 'Mes' }).click();
    const monthName = new Intl.DateTimeFormat('es-PE', { month: 'long' }).format(now);
    await page.getByRole('option', { name: new RegExp(`^${monthName}$`, 'i') }).click();
    await expect(page).toHaveURL(new RegExp(`month=${month}(&|$)`));
    await expect(sales.getByTestId('card-value')).toHaveText('3');
    await shot(page, 'dashboard-manager-month');

    // The chart as a table (its accessible view), back to the year.
    await page.getByRole('combobox', { name: 'Mes' }).click();
    await page.getByRole('option', { name: 'Todo el año' }).click();
    const chart = page.getByRole('region', { name: 'Ventas CEM por mes' });
    await chart.getByRole('button', { name: 'Tabla' }).click();
    const monthRow = chart.getByRole('row', { name: new RegExp(monthName, 'i') });
    await expect(monthRow.getByRole('cell').nth(1)).toHaveText('3');
    await shot(page, 'dashboard-manager-table');

    // The number's link: the CEM list of the same dates and dealer shows the same sales.
    await sales.getByRole('link', { name: 'Ver detalle' }).click();
    await expect(page).toHaveURL(/\/sales/);
    for (const r of rows)
      await expect(page.getByRole('gridcell', { name: r.buyer_name, exact: true })).toBeVisible();
    await expect(page.getByRole('gridcell', { name: 'Cliente 9', exact: true })).toHaveCount(0);

    // A dealer user: its own dealer, whatever the address asks for.
    const context = await browser.newContext();
    const dealerPage = await context.newPage();
    await loginForm(dealerPage, { username: `ds${id.toLowerCase()}`, password: 'Tablero-2026' });
    await dealerPage.goto(`/main/home?year=${year}&dealer_id=${other.id}`);
    await expect(
      dealerPage.getByRole('region', { name: 'Ventas CEM', exact: true }).getByTestId('card-value'),
    ).toHaveText(String(rows.length));
    await expect(dealerPage).toHaveURL(new RegExp(`dealer_id=${dealer.id}`));
    await shot(dealerPage, 'dashboard-dealer');
    await context.close();
  } finally {
    for (const d of [dealer.id, other.id]) {
      const list = await api<{ data: { id: number }[] }>(
        request,
        token,
        'GET',
        `/sales?perPage=50&filter[dealer_id]=${d}`,
      );
      for (const row of list.data) await api(request, token, 'DELETE', `/sales/${row.id}`);
    }
  }
});
