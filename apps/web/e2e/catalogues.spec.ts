// Catalogues as an administrator meets them (issue 16): a payment method renamed in Preferences
// is the name the sale dialog offers (general types loaded once, refreshed when saved); dealers,
// branches and models are searched as typed, a form opening on a sale shows their names, and no
// screen asks for a big catalogue whole (perPage=-1); the send dialog sends the after-sales
// questionnaire; the statistics year picker starts in 2016.
import { expect, type Page, test } from './fixtures';
import { api, apiToken, fillDate, loginForm, shot, uid } from './helpers';

/** Big catalogues (contracts with lookupMode 'search'): never listed whole by a screen. */
const BIG = /\/api\/(dealers|dealer-branches|employees|dealer-contacts|districts|manufacturer-models)\?/;

function watchWholeLists(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = decodeURIComponent(r.url());
    if (BIG.test(url) && url.includes('perPage=-1')) seen.push(url);
  });
  return seen;
}

/** Picks an option of an autocomplete of the dialog by typing part of its name. */
async function search(
  page: Page,
  dialog: ReturnType<Page['getByRole']>,
  label: RegExp,
  typed: string,
  option: string,
) {
  await dialog.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('option', { name: option }).click();
}

test('a general type renamed in Preferences names the sale form; big catalogues are searched; the after-sales survey is sent', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `CT${id}`,
    name: `Catálogo Motors ${id}`,
  });
  await api(request, token, 'POST', '/dealer-branches', {
    dealer_id: dealer.id,
    name: `Sede Catálogo ${id}`,
  });
  const brands = await api<{ id: number; code: string; name: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  const vw = brands.find((b) => b.code === 'V')!;
  await api(request, token, 'POST', '/manufacturer-models', {
    manufacturer_id: vw.id,
    name: `Modelo Catálogo ${id}`,
  });
  const wholeLists = watchWholeLists(page);

  await loginForm(page);

  // 1. Preferences: the administrator renames the payment method 'Efectivo'.
  await page.goto('/preferences');
  await page.getByRole('tab', { name: 'Valores de tipo' }).click();
  await page.getByLabel('Buscar').fill('Efectivo');
  const row = page.getByRole('row').filter({ hasText: 'Formas de pago' }).filter({ hasText: 'Efectivo' });
  await row.getByRole('button', { name: 'Editar' }).click();
  const valueForm = page.getByRole('dialog', { name: 'Editar: Valores de tipo' });
  await valueForm.getByRole('textbox', { name: 'Nombre', exact: true }).fill(`Contado ${id}`);
  await valueForm.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();

  // 2. The sale dialog offers the new name, without reloading the page.
  await page.goto('/sales');
  await page.getByRole('button', { name: 'Nuevo' }).click();
  const form = page.getByRole('dialog', { name: 'Nuevo: CEM' });
  await form.getByRole('combobox', { name: /Forma de Pago/ }).click();
  await expect(page.getByRole('option', { name: `Contado ${id}` })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Efectivo', exact: true })).toHaveCount(0);
  await shot(page, 'catalogues-payment-method-renamed');
  await page.getByRole('option', { name: `Contado ${id}` }).click();

  // 3. Dealer, branch and model are searched as typed (2 characters and more).
  await search(page, form, /Concesionario/, `Catálogo Motors ${id}`, `Catálogo Motors ${id}`);
  await form.getByRole('combobox', { name: /Sede/ }).click();
  await page.getByRole('option', { name: `Sede Catálogo ${id}` }).click();
  // A sale of an earlier year: the other flows count today's sales.
  await fillDate(page, 'Fecha Venta', '2024-06-14');
  await form.getByRole('textbox', { name: 'Factura', exact: true }).fill(`F-${id}`);
  await form.getByRole('textbox', { name: 'Cliente', exact: true }).fill(`Cliente Catálogo ${id}`);
  await form.getByRole('combobox', { name: /Tipo Documento/ }).click();
  await page.getByRole('option', { name: 'DNI', exact: true }).click();
  await form.getByRole('textbox', { name: 'Documento', exact: true }).fill('45678912');
  await form
    .getByRole('textbox', { name: 'Email', exact: true })
    .fill(`catalogo.${id.toLowerCase()}@example.com`);
  const vin = `CAT${id}`.replace(/[IOQ]/g, 'X').padEnd(17, '7').slice(0, 17);
  await form.getByRole('textbox', { name: 'VIN', exact: true }).fill(vin);
  await form.getByRole('textbox', { name: 'Año', exact: true }).fill('2024');
  await form.getByRole('combobox', { name: /Marca/ }).click();
  await page.getByRole('option', { name: vw.name, exact: true }).click();
  await search(page, form, /Modelo del catálogo/, `Modelo Catálogo ${id}`, `Modelo Catálogo ${id}`);
  await form.getByRole('textbox', { name: 'Modelo', exact: true }).fill(`Modelo Catálogo ${id}`);
  await shot(page, 'catalogues-sale-form-searched');
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();

  // 4. Opening the sale shows the names of its dealer, branch and model (each read by its id).
  await page.getByLabel('Buscar').fill(vin);
  const saleRow = page.getByRole('row').filter({ hasText: vin });
  await saleRow.getByRole('button', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editar: CEM' });
  await expect(edit.getByRole('combobox', { name: /Concesionario/ })).toHaveValue(`Catálogo Motors ${id}`);
  await expect(edit.getByRole('combobox', { name: /Sede/ })).toHaveValue(`Sede Catálogo ${id}`);
  await expect(edit.getByRole('combobox', { name: /Modelo del catálogo/ })).toHaveValue(
    `Modelo Catálogo ${id}`,
  );
  await expect(edit.getByRole('combobox', { name: /Forma de Pago/ })).toHaveText(`Contado ${id}`);
  await shot(page, 'catalogues-sale-form-opened');
  await edit.getByRole('button', { name: 'Cancelar' }).click();

  // 5. The after-sales questionnaire, chosen in the send dialog, is the one sent.
  await saleRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Enviar encuestas' }).click();
  const send = page.getByRole('dialog', { name: 'Enviar encuestas' });
  await send.getByRole('combobox', { name: 'Encuesta' }).click();
  await page.getByRole('option', { name: /postventa \(Postventa/i }).click();
  const [sent] = await Promise.all([
    page.waitForRequest((r) => r.url().includes('/api/sales-quiz-request')),
    send.getByRole('button', { name: 'Enviar', exact: true }).click(),
  ]);
  await expect(send.getByText(/Invitaciones: 1\./)).toBeVisible();
  const body = sent.postDataJSON() as { quiz_id?: number; sale_ids?: number[] };
  const quizzes = await api<{ data: { id: number; kind: string }[] }>(
    request,
    token,
    'GET',
    '/quizzes?perPage=50',
  );
  expect(body.quiz_id).toBe(quizzes.data.find((q) => q.kind === 'postventa')!.id);
  await shot(page, 'catalogues-send-postventa');
  await send.getByRole('button', { name: 'Cerrar' }).click();

  // 6. One set of rating labels, the questionnaire's: renamed in its editor, the buyer sees it on
  // the survey page and the back office shows the answer with it.
  const postId = quizzes.data.find((q) => q.kind === 'postventa')!.id;
  await page.goto('/quiz');
  await page.getByRole('tab', { name: 'Encuestas' }).click();
  await page
    .getByRole('row', { name: /Encuesta de satisfacción de postventa/ })
    .getByRole('button', { name: 'Preguntas' })
    .click();
  const editor = page.getByRole('dialog', { name: /Preguntas/ });
  await editor.getByRole('textbox', { name: 'Calificación 4' }).fill(`Excelente ${id}`);
  await editor.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente').first()).toBeVisible();
  const outbox = await api<{ data: { to: string; text: string }[] }>(
    request,
    token,
    'GET',
    `/mail-outbox?perPage=10&query=catalogo.${id.toLowerCase()}`,
  );
  const link = /\/encuesta\?token=([\w-]+)/.exec(outbox.data[0].text)![1];
  const survey = (await (await request.get(`/api/public/quiz/${link}`)).json()).result;
  await page.goto(`/encuesta?token=${link}`);
  for (const q of survey.quiz.questions) {
    const box = page.locator(`#q-${q.id}`);
    if (q.type === 'rating4') await box.getByRole('button', { name: `4 - Excelente ${id}` }).click();
    else if (q.type === 'yesno') await box.getByLabel('Sí', { exact: true }).check();
    else if (q.type === 'choice') await box.getByLabel(q.options[0], { exact: true }).check();
    else await box.getByRole('textbox').fill('Bien');
  }
  await shot(page, 'catalogues-survey-labels');
  await page.getByRole('button', { name: 'Enviar respuestas' }).click();
  await expect(page.getByText('Gracias por responder la encuesta')).toBeVisible();
  await page.goto('/sales');
  await page.getByLabel('Buscar').fill(vin);
  await page.getByRole('row').filter({ hasText: vin }).getByRole('button', { name: 'Respuestas' }).click();
  await expect(page.getByRole('dialog').getByText(`4 - Excelente ${id}`).first()).toBeVisible();
  await shot(page, 'catalogues-responses-labels');
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();
  await api(request, token, 'PUT', `/quizzes/${postId}`, {
    rating_labels: ['Muy insatisfecho', 'Insatisfecho', 'Satisfecho', 'Muy satisfecho'],
  });

  // 7. The statistics year picker starts in 2016 (SPEC §9).
  await page.goto('/quiz');
  await page.getByRole('tab', { name: 'Estadísticas' }).click();
  await page.getByRole('combobox', { name: /^Año \d{4}$/ }).click();
  await expect(page.getByRole('option', { name: '2016', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: '2015', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // No screen of the flow (the shell's dealer selector included) listed a big catalogue whole.
  expect(wholeLists).toEqual([]);

  // The other flows find 'Efectivo' again.
  const renamed = await api<{ data: { id: number }[] }>(
    request,
    token,
    'GET',
    `/type-values?query=Contado%20${id}`,
  );
  await api(request, token, 'PUT', `/type-values/${renamed.data[0].id}`, { name: 'Efectivo' });
});

test('no dialog of a screen lists a big catalogue whole; an opened record names its references', async ({
  page,
  request,
}) => {
  const token = await apiToken(request);
  const id = uid().toUpperCase();
  const dealer = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `CD${id}`,
    name: `Dialogo Motors ${id}`,
  });
  const branch = await api<{ id: number }>(request, token, 'POST', '/dealer-branches', {
    dealer_id: dealer.id,
    name: `Sede Dialogo ${id}`,
  });
  await api(request, token, 'POST', '/employees', {
    dealer_id: dealer.id,
    dealer_branch_id: branch.id,
    first_name: 'Rosa',
    last_name: `Dialogo ${id}`,
  });
  const wholeLists = watchWholeLists(page);
  await loginForm(page);
  // Every screen whose dialog has a reference to a big catalogue: a new record, then an existing one.
  for (const screen of [
    'dealer-branch',
    'employee',
    'dealer-contact',
    'user',
    'dealer',
    'manufacturer-model',
  ]) {
    await page.goto(`/main/${screen}`);
    await page.getByRole('button', { name: 'Nuevo' }).click();
    const dialog = page.getByRole('dialog', { name: /^Nuevo: / });
    await expect(dialog).toBeVisible();
    await page.waitForLoadState('networkidle');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toHaveCount(0);
  }
  await page.goto('/main/employee');
  await page.getByLabel('Buscar').fill(`Dialogo ${id}`);
  await page
    .getByRole('row')
    .filter({ hasText: `Dialogo ${id}` })
    .getByRole('button', { name: 'Editar' })
    .click();
  const edit = page.getByRole('dialog', { name: /^Editar: / });
  await expect(edit.getByRole('combobox', { name: /Concesionario/ })).toHaveValue(`Dialogo Motors ${id}`);
  await expect(edit.getByRole('combobox', { name: /Sede/ })).toHaveValue(`Sede Dialogo ${id}`);
  await shot(page, 'catalogues-employee-opened');
  await edit.getByRole('button', { name: 'Cancelar' }).click();
  expect(wholeLists).toEqual([]);
});
