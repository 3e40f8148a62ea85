// A big sales file imported as a background job: the shared "in progress" component of the upload
// dialog shows the bar, the step and the rows, the dialog can be closed and opened again while it
// runs, and the per-row result shows when it ends; the job's owner is told in the notifications.
// Then the export of those rows, past E2E_EXPORT_JOB_ROWS, is a job whose file the dialog offers.
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { E2E_IMPORT_JOB_BYTES } from '../playwright.config';
import { expect, test } from './fixtures';
import { api, apiToken, limaDay, loginForm, shot, uid } from './helpers';

const ROWS = 6000;

/** The column number of a header in the sheet's first row. */
function headerIndex(sheet: ExcelJS.Worksheet, header: string): number {
  const values = sheet.getRow(1).values as unknown[];
  const i = values.indexOf(header);
  if (i < 1) throw new Error(`Falta la columna ${header}`);
  return i;
}

async function bigFile(dealer: string, prefix: string, date: string): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Ventas');
  ws.addRow([...SALES_IMPORT_HEADERS]);
  for (let i = 0; i < ROWS; i++) {
    ws.addRow([
      dealer,
      '',
      date,
      `F002-${100000 + i}`,
      'DNI',
      String(41000000 + i),
      `Cliente ${i}`,
      `cliente.${i}@correo.pe`,
      '987654321',
      `${prefix}${String(i).padStart(17 - prefix.length, '0')}`,
      'V',
      'Modelo Uno',
      2025,
      'Vendedor Uno',
      'E',
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('a big sales import runs as a job: progress, leave and come back, the report', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await apiToken(request);
  const id = uid();
  const dealer = `J${id}`;
  const dealerRow = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: dealer,
    name: `Concesionario ${dealer}`,
  });
  const prefix = `JB${id.toUpperCase().replace(/[^A-HJ-NPR-Z0-9]/g, 'X')}`.slice(0, 6);
  // Three days back: the sales spec counts the invitations of the sales dated today.
  const file = await bigFile(dealer, prefix, limaDay(-3));
  expect(file.length).toBeGreaterThan(E2E_IMPORT_JOB_BYTES);

  await loginForm(page);
  await page.goto('/sales');
  await page.getByRole('button', { name: 'Importar ventas' }).click();
  const dialog = page.getByRole('dialog', { name: 'Importar ventas' });
  await dialog.getByLabel('Archivo Excel').setInputFiles({
    name: 'ventas-grande.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: file,
  });
  await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
  const progress = dialog.getByTestId('job-progress');
  await expect(progress.getByText('Carga de ventas')).toBeVisible();
  await expect(progress.getByText(/Puede cerrar esta ventana/)).toBeVisible();
  await shot(page, 'jobs-import-progress');

  // Leave while it runs, come back: the dialog finds the job again (running or just ended).
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Importar ventas' }).click();
  await expect(dialog.getByText(`Se guardaron ${ROWS} de ${ROWS} ventas.`)).toBeVisible({ timeout: 180_000 });
  await shot(page, 'jobs-import-done');
  const saved = await api<{ total: number }>(request, token, 'GET', `/sales?query=${prefix}`);
  expect(saved.total).toBeGreaterThan(0);

  // Its 6,000 rows exported: more than E2E_EXPORT_JOB_ROWS, so the export is a job too; the
  // dialog follows it and offers the file when it is ready.
  // A sale the search does not find, and "Exportar" clicked at once after typing (before the
  // box's 400 ms wait ends): the file still holds the searched rows only.
  const brands = await api<{ id: number; code: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  await api(request, token, 'POST', '/sales', {
    dealer_id: dealerRow.id,
    sale_date: limaDay(-3),
    invoice: `F003-${id}`,
    buyer_name: 'Otra Compradora',
    document_type: 'DNI',
    document_number: '87654321',
    vin: `ZTRA${'0'.repeat(13)}`,
    manufacturer_id: brands.find((b) => b.code === 'V')!.id,
    model_name: 'Compacto',
    year: 2025,
    payment_method: 'E',
  });
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await page.getByLabel('Buscar').fill(prefix);
  await page.getByRole('button', { name: 'Exportar a Excel' }).click();
  const exporting = page.getByRole('dialog', { name: 'Exportación de CEM' });
  await expect(exporting.getByText(/se prepara en segundo plano/)).toBeVisible();
  await expect(exporting.getByText(/El archivo está listo\. CEM_/)).toBeVisible({ timeout: 180_000 });
  await shot(page, 'jobs-export-ready');
  const download = page.waitForEvent('download');
  await exporting.getByRole('button', { name: 'Descargar' }).click();
  const exported = await download;
  expect(exported.suggestedFilename()).toMatch(/^CEM_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await exported.path())!);
  // The header and exactly the searched rows: the job's 6,000 (the search is applied even when
  // "Exportar" is clicked before the box's 400 ms wait ends: CI once exported all 6,002 sales).
  expect(saved.total).toBe(ROWS);
  const sheet = wb.worksheets[0]!;
  expect(sheet.rowCount).toBe(saved.total + 1);
  const vins = sheet.getColumn(headerIndex(sheet, 'VIN')).values.slice(2).map(String);
  expect(vins.filter((v) => v.startsWith(prefix))).toHaveLength(ROWS);
  await exporting.getByRole('button', { name: 'Cerrar' }).click();
  await expect(exporting).toBeHidden();
});
