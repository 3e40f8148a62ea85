// Issue 27: a dealer user exports its own Cuotas, Resumen Comparativo and Despachos from their
// screens (the server scopes each file to its dealer: api test/dealer-exports.test.ts). File
// names carry no space.
import ExcelJS from 'exceljs';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, limaNow, loginForm, shot, uid } from './helpers';

/** Clicks a button that downloads, and answers the file's name and texts. */
async function download(page: Page, button: string): Promise<{ name: string; texts: string[] }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await file.path());
  const texts: string[] = [];
  wb.worksheets[0].eachRow((row) => {
    row.eachCell((c) => {
      if (typeof c.value === 'string') texts.push(c.value);
    });
  });
  return { name: file.suggestedFilename(), texts };
}

test('a dealer user exports its own Cuotas, Resumen Comparativo and Despachos', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const year = limaNow().getUTCFullYear();
  const brands = await api<{ id: number; code: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  const v = brands.find((b) => b.code === 'V')!;
  const dealerA = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `XA${id}`,
    name: `Alfa Exporta ${id}`,
  });
  const dealerB = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `XB${id}`,
    name: `Beta Exporta ${id}`,
  });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const user = { username: `xa${id.toLowerCase()}`, password: 'Dealer-Pass-1' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `${user.username}@example.com`,
    full_name: `Usuario Alfa ${id}`,
    dealer_id: dealerA.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });
  for (const [dealer, n] of [
    [dealerA, 1],
    [dealerB, 2],
  ] as const)
    await api(request, token, 'POST', '/transactions', {
      dealer_id: dealer.id,
      manufacturer_id: v.id,
      model_name: `Polo ${id}`,
      vin: `9E2X${id.replace(/[IOQ]/g, 'X').padEnd(5, 'X').slice(0, 5)}${String(n).padStart(8, '0')}`,
      dispatch_date: `${year}-01-10`,
      units: n,
    });

  await loginForm(page, user);

  await page.goto('/main/fee');
  const fees = await download(page, 'Exportar');
  expect(fees.name).toMatch(/^Cuotas_\d{4}_XA.*\.xlsx$/);
  expect(fees.texts).toContain(`XA${id}`);
  expect(fees.texts).not.toContain(`XB${id}`);
  await shot(page, 'dealer-exports-fees');

  await page.goto('/main/resumen');
  const resumen = await download(page, 'Exportar');
  expect(resumen.name).toMatch(new RegExp(`^Resumen_Comparativo_\\d{4}_\\d{2}_XA${id}\\.xlsx$`));
  await shot(page, 'dealer-exports-resumen');

  await page.goto(`/main/dispatches?year=${year}`);
  const report = await download(page, 'Reporte de despachos');
  expect(report.name).not.toMatch(/\s/);
  expect(report.texts).toContain(`Alfa Exporta ${id}`);
  expect(report.texts).not.toContain(`Beta Exporta ${id}`);
  await shot(page, 'dealer-exports-dispatches');
});
