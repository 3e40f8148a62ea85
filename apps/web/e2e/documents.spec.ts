// The extranet as the manufacturer and two dealers use it: the manufacturer publishes a document
// with a real PDF uploaded in the dialog (an executable renamed .pdf is refused on the spot) for
// one chosen dealer; that dealer finds it unread in its category, downloads the PDF (the name and
// the bytes) and sees it marked read; another dealer never sees it.
import { readFileSync } from 'node:fs';
import { samplePdf } from '../../api/src/modules/documents/documents.samples';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, limaDay, loginForm, shot, uid } from './helpers';

async function dealerWithUser(
  request: Parameters<typeof apiToken>[0],
  token: string,
  code: string,
  name: string,
) {
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', { code, name });
  const roles = await api<{ id: number; name: string }[]>(request, token, 'GET', '/roles?perPage=-1');
  const user = { username: code.toLowerCase(), password: 'Extranet-123' };
  await api(request, token, 'POST', '/users', {
    ...user,
    email: `${user.username}@example.com`,
    full_name: `Usuario ${name}`,
    dealer_id: dealer.id,
    roles: [roles.find((r) => r.name === 'Concesionario')!.id],
  });
  return { ...dealer, user };
}

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByRole('dialog', { name: 'Nuevo documento' }).getByLabel(label).click();
  await page.getByRole('option', { name: option }).click();
}

test('the manufacturer publishes a PDF to one dealer; that dealer downloads it and sees it read; another does not see it', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const posventa = await api<{ id: number }>(request, token, 'POST', '/categories', {
    name: `Posventa ${id}`,
  });
  await api(request, token, 'POST', '/categories', { name: `Boletines ${id}`, parent_id: posventa.id });
  await api(request, token, 'POST', '/categories', { name: `Marketing ${id}` });
  const alfa = await dealerWithUser(request, token, `EA${id}`, `Alfa Extranet ${id}`);
  const beta = await dealerWithUser(request, token, `EB${id}`, `Beta Extranet ${id}`);

  // 1. The manufacturer opens the extranet and a new document.
  await loginForm(page);
  await page.goto('/extranet');
  await expect(page.getByRole('list', { name: 'Categorías' }).getByText(`Boletines ${id}`)).toBeVisible();
  await page.getByRole('button', { name: 'Nuevo documento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nuevo documento' });
  await dialog.getByLabel('Título').fill(`Boletín de frenos ${id}`);
  await pick(page, 'Categoría', `Boletines ${id}`);
  await dialog
    .getByLabel('Descripción')
    .fill('Revisión de pastillas y discos delanteros en la próxima visita.');

  // An executable renamed .pdf is refused by its content, with the server's message.
  const exe = Buffer.alloc(2048);
  exe.write('MZ', 0, 'latin1');
  await dialog
    .getByLabel('Archivos a subir')
    .setInputFiles({ name: 'boletin.pdf', mimeType: 'application/pdf', buffer: exe });
  await expect(dialog.getByText(/boletin\.pdf: El archivo es un programa ejecutable/)).toBeVisible();
  await shot(page, 'documents-1-exe-refused');

  // The real PDF is uploaded and listed.
  const pdf = samplePdf(`Boletín de frenos ${id}`, ['Revisión de pastillas y discos delanteros']);
  await dialog
    .getByLabel('Archivos a subir')
    .setInputFiles({ name: 'Boletín frenos.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(
    dialog.getByRole('list', { name: 'Archivos del documento' }).getByText('Boletín frenos.pdf'),
  ).toBeVisible();

  // Only for Alfa.
  await dialog.getByLabel('Visible para todos los concesionarios').click();
  // Dealers are a searched catalogue (SPEC §5): two letters or more, then the option.
  await dialog.getByRole('combobox', { name: 'Concesionarios que lo verán' }).fill(`Alfa Extranet ${id}`);
  await page.getByRole('option', { name: new RegExp(`Alfa Extranet ${id}`) }).click();
  await expect(dialog.getByRole('button', { name: new RegExp(`Alfa Extranet ${id}`) })).toBeVisible();
  await shot(page, 'documents-2-dialog');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  const item = page.getByRole('listitem', { name: `Boletín de frenos ${id}` });
  await expect(item).toBeVisible();
  await expect(item.getByText('1 concesionario')).toBeVisible();
  await expect(item.getByText('Publicado', { exact: true })).toBeVisible();

  // A second document for every dealer (by the API), in another category.
  const up = await request.fetch('/api/documents/upload', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' },
    multipart: { file: { name: 'Campaña.pdf', mimeType: 'application/pdf', buffer: samplePdf('Campaña') } },
  });
  expect(up.ok()).toBeTruthy();
  const marketing = (
    await api<{ id: number; name: string }[]>(request, token, 'GET', '/categories?perPage=-1')
  ).find((c) => c.name === `Marketing ${id}`)!;
  await api(request, token, 'POST', '/documents', {
    title: `Campaña de verano ${id}`,
    category_id: marketing.id,
    published_at: limaDay(),
    file_ids: [(await up.json()).result.id],
  });
  await page.getByRole('textbox', { name: 'Buscar documentos' }).fill(id);
  await expect(page.getByRole('listitem', { name: `Campaña de verano ${id}` })).toBeVisible();
  await shot(page, 'documents-3-manufacturer-library');

  // 2. Alfa sees both, unread, and its category counts.
  const alfaContext = await browser.newContext();
  const alfaPage = await alfaContext.newPage();
  await loginForm(alfaPage, alfa.user);
  await alfaPage.goto('/extranet');
  await alfaPage.getByRole('textbox', { name: 'Buscar documentos' }).fill(id);
  const alfaItem = alfaPage.getByRole('listitem', { name: `Boletín de frenos ${id}` });
  await expect(alfaItem).toBeVisible();
  await expect(alfaItem.getByText('Nuevo')).toBeVisible();
  await expect(alfaItem.getByText('Sin leer')).toBeVisible();
  await expect(alfaPage.getByRole('listitem', { name: `Campaña de verano ${id}` })).toBeVisible();
  await expect(alfaPage.getByRole('button', { name: 'Nuevo documento' })).toHaveCount(0);
  await shot(alfaPage, 'documents-4-dealer-unread');

  // Its category (Boletines under Posventa) narrows the list.
  await alfaPage.getByRole('list', { name: 'Categorías' }).getByText(`Boletines ${id}`).click();
  await expect(alfaPage.getByRole('listitem', { name: `Campaña de verano ${id}` })).toHaveCount(0);
  await expect(alfaItem).toBeVisible();

  // Download: the file's name and bytes; then it is marked read.
  const [download] = await Promise.all([
    alfaPage.waitForEvent('download'),
    alfaItem.getByLabel('Descargar Boletín frenos.pdf').click(),
  ]);
  expect(download.suggestedFilename()).toBe('Boletín frenos.pdf');
  const saved = readFileSync((await download.path())!);
  expect(saved.equals(pdf)).toBe(true);
  await expect(alfaItem.getByText(/^Leído /)).toBeVisible();
  await expect(alfaItem.getByText('Nuevo')).toHaveCount(0);
  await shot(alfaPage, 'documents-5-dealer-read');
  await alfaContext.close();

  // 3. Beta sees the campaign only.
  const betaContext = await browser.newContext();
  const betaPage = await betaContext.newPage();
  await loginForm(betaPage, beta.user);
  await betaPage.goto('/extranet');
  await betaPage.getByRole('textbox', { name: 'Buscar documentos' }).fill(id);
  await expect(betaPage.getByRole('listitem', { name: `Campaña de verano ${id}` })).toBeVisible();
  await expect(betaPage.getByRole('listitem', { name: `Boletín de frenos ${id}` })).toHaveCount(0);
  await expect(betaPage.getByText('1 documento', { exact: true })).toBeVisible();
  await shot(betaPage, 'documents-6-other-dealer');
  await betaContext.close();

  // 4. The manufacturer sees who has opened it.
  await page.reload();
  await page.getByRole('textbox', { name: 'Buscar documentos' }).fill(id);
  await expect(item.getByText('Leído por 1 usuario de concesionarios')).toBeVisible();
  await expect(
    page
      .getByRole('listitem', { name: `Campaña de verano ${id}` })
      .getByText('Aún no lo lee ningún concesionario'),
  ).toBeVisible();
  await shot(page, 'documents-7-manufacturer-readers');
});
