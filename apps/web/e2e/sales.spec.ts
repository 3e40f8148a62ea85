// CEM from import to ranking: the template filled with rows is imported (a file with one wrong row
// saves nothing), invitations are sent, the buyer opens the link of the captured mail (outbox, no
// SMTP) on a phone screen and answers; the sale shows the answers, /quiz the ranking ('muestra
// insuficiente' apart) and the alert of a rating at 1, which the dealer replies to and closes.
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import { expect, type Page, test } from './fixtures';
import { api, apiToken, fillDate, limaDay, loginForm, shot, uid } from './helpers';

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
function vin(seed: string, n: number): string {
  let s = `${seed.toUpperCase().replace(/[IOQ]/g, 'X')}${n}`;
  while (s.length < 17) s += VIN_CHARS[(s.length * 7 + n) % VIN_CHARS.length];
  return s.slice(0, 17);
}

interface Row {
  dealer: string;
  vin: string;
  email: string;
  brand: string;
  buyer: string;
}

async function templateWith(rows: Row[], date: string, bad?: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Ventas');
  ws.addRow([...SALES_IMPORT_HEADERS]);
  rows.forEach((r, i) => {
    ws.addRow([
      r.dealer,
      '',
      date,
      `F001-${1000 + i}`,
      'DNI',
      String(40000000 + i),
      r.buyer,
      r.email,
      '987654321',
      r.vin,
      i === bad ? 'ZZ' : r.brand,
      'Modelo Uno',
      2025,
      'Vendedor Uno',
      'E',
    ]);
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function importFile(page: Page, name: string, buffer: Buffer) {
  const dialog = page.getByRole('dialog', { name: 'Importar ventas' });
  await dialog.getByLabel('Archivo Excel').setInputFiles({
    name,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await expect(dialog.getByText(name)).toBeVisible();
  await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
  return dialog;
}

test('import, invite, answer on a phone, see the response, the ranking and the alert', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = await apiToken(request);
  const id = uid();
  const brands = await api<{ id: number; code: string; name: string }[]>(
    request,
    token,
    'GET',
    '/manufacturers?perPage=-1',
  );
  expect(brands.length).toBeGreaterThan(0);
  const brand = brands[0];
  const dealerA = await api<{ id: number }>(request, token, 'POST', '/dealers', {
    code: `A${id}`,
    name: `Alfa Motors ${id}`,
    active: true,
  });
  await api(request, token, 'POST', '/dealers', { code: `B${id}`, name: `Beta Autos ${id}`, active: true });
  const rows: Row[] = [];
  for (let i = 0; i < 6; i++)
    rows.push({
      dealer: `A${id}`,
      vin: vin(id, i),
      email: `comprador${i}.${id}@correo.pe`,
      brand: brand.code,
      buyer: `Cliente ${i} ${id}`,
    });
  rows.push({
    dealer: `B${id}`,
    vin: vin(id, 7),
    email: `beta.${id}@correo.pe`,
    brand: brand.code,
    buyer: `Cliente B ${id}`,
  });
  const today = limaDay();

  await loginForm(page);
  await page.goto('/sales');
  await expect(page.getByRole('button', { name: 'Importar ventas' })).toBeVisible();

  // The external sales system is not configured: a clear message, nothing else.
  await page.getByRole('button', { name: 'Importar ventas' }).click();
  await fillDate(page, 'Desde', today);
  await page.getByRole('button', { name: 'Traer del API de ventas' }).click();
  await expect(page.getByRole('dialog').getByText(/El API de ventas no está configurado/)).toBeVisible();

  // A file with one wrong row: the report says which and nothing is saved.
  let dialog = await importFile(page, 'ventas-con-error.xlsx', await templateWith(rows, today, 3));
  await expect(dialog.getByText('1 de 7 filas tienen errores. No se guardó ninguna venta.')).toBeVisible();
  await expect(dialog.getByText('Fila 5')).toContainText('con errores');
  await expect(dialog.getByText(/Marca "ZZ"/)).toBeVisible();
  await shot(page, 'sales-import-error');
  const none = await api<{ total: number }>(request, token, 'GET', `/sales?query=${rows[0].vin}`);
  expect(none.total).toBe(0);

  // The corrected file: every row saved.
  dialog = await importFile(page, 'ventas.xlsx', await templateWith(rows, today));
  await expect(dialog.getByText('Se guardaron 7 de 7 ventas.')).toBeVisible();
  await shot(page, 'sales-import-ok');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await page.getByLabel('Buscar').fill(id);
  await expect(page.getByRole('grid').getByText(rows[0].vin)).toBeVisible();
  await expect(page.getByRole('grid').getByText('Sin enviar').first()).toBeVisible();

  // Invitations for the current filters (the search does not narrow them; the date range does).
  await fillDate(page, 'Fecha Venta desde', today);
  await page.getByRole('button', { name: 'Enviar encuestas' }).click();
  const send = page.getByRole('dialog', { name: 'Enviar encuestas' });
  await expect(send.getByText(`Ventas con fecha ${today}`)).toBeVisible();
  await send.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(send.getByText(/Invitaciones: 7\./)).toBeVisible();
  await shot(page, 'sales-invitations');
  await send.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByRole('grid').getByText('Enviada').first()).toBeVisible();

  // The captured mail: the outbox on screen and through the API.
  await page.getByRole('button', { name: 'Bandeja de salida' }).click();
  const outboxDialog = page.getByRole('dialog', { name: 'Bandeja de salida de correo' });
  await expect(outboxDialog.getByText(rows[0].email)).toBeVisible();
  await shot(page, 'sales-outbox');
  await outboxDialog.getByRole('button', { name: 'Cerrar' }).click();
  const outbox = await api<{ data: { to: string; text: string }[] }>(
    request,
    token,
    'GET',
    '/mail-outbox?perPage=100',
  );
  const linkOf = (email: string) => {
    const mail = outbox.data.find((m) => m.to === email);
    const m = mail && /\/encuesta\?token=([\w-]+)/.exec(mail.text);
    expect(m, `link in the mail to ${email}`).toBeTruthy();
    return m![1];
  };

  // The buyer answers on a phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-PE' });
  const buyer = await phone.newPage();
  const t0 = linkOf(rows[0].email);
  await buyer.goto(`/encuesta?token=${t0}`);
  await expect(buyer.getByRole('heading', { name: 'Encuesta de Satisfacción', exact: true })).toBeVisible();
  await expect(buyer.getByText(`Alfa Motors ${id}`)).toBeVisible();
  await buyer.screenshot({ path: 'test-results/sales-survey-phone.png', fullPage: true });
  // Sending without the required answers: each says so.
  await buyer.getByRole('button', { name: 'Enviar respuestas' }).click();
  await expect(buyer.getByText('Esta pregunta es obligatoria').first()).toBeVisible();
  const pq = (await (await request.get(`/api/public/quiz/${t0}`)).json()).result;
  let first = true;
  for (const q of pq.quiz.questions) {
    const box = buyer.locator(`#q-${q.id}`);
    if (q.type === 'rating4') {
      // The first rating at 1 (raises an alert), the rest at 4.
      await box.getByRole('button', { name: first ? '1 - Muy insatisfecho' : '4 - Muy satisfecho' }).click();
      first = false;
    } else if (q.type === 'yesno') await box.getByLabel('Sí', { exact: true }).check();
    else if (q.type === 'choice') await box.getByLabel(q.options[0], { exact: true }).check();
    else await box.getByRole('textbox').fill('Muy buena atención');
  }
  await buyer.screenshot({ path: 'test-results/sales-survey-phone-filled.png', fullPage: true });
  await buyer.getByRole('button', { name: 'Enviar respuestas' }).click();
  await expect(buyer.getByText('Gracias por responder la encuesta')).toBeVisible();
  await buyer.screenshot({ path: 'test-results/sales-survey-thanks.png' });
  // The link is single use; unknown links have their own page.
  await buyer.goto(`/encuesta?token=${t0}`);
  await expect(buyer.getByText('Esta encuesta ya fue respondida')).toBeVisible();
  await buyer.screenshot({ path: 'test-results/sales-survey-answered.png' });
  await buyer.goto('/encuesta?token=no-existe-este-enlace');
  await expect(buyer.getByText('Encuesta no encontrada')).toBeVisible();
  await buyer.screenshot({ path: 'test-results/sales-survey-unknown.png' });
  await phone.close();

  // Four more buyers of Alfa and the one of Beta answer (API): Alfa reaches the minimum sample.
  const answersOf = (questions: any[]) =>
    questions.map((q: any) => ({
      question_id: q.id,
      value: q.type === 'rating4' ? 4 : q.type === 'yesno' ? 'Si' : q.type === 'choice' ? q.options[0] : 'ok',
    }));
  for (const r of [...rows.slice(1, 5), rows[6]]) {
    const t = linkOf(r.email);
    const res = await request.post(`/api/public/quiz/${t}`, {
      data: { answers: answersOf(pq.quiz.questions) },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
  }

  // A reminder for the chosen sale that has not answered: a new link, only to it.
  await page.getByLabel('Buscar').fill(rows[5].vin);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.getByRole('row').nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Enviar encuestas' }).click();
  await expect(send.getByLabel('Ventas seleccionadas (1)')).toBeChecked();
  await send.getByLabel('Recordatorio: volver a enviar a quienes no respondieron').check();
  await send.getByRole('button', { name: 'Enviar recordatorios' }).click();
  await expect(send.getByText(/Invitaciones: 0\. Recordatorios: 1\. Sin enviar: 0\./)).toBeVisible();
  await send.getByRole('button', { name: 'Cerrar' }).click();
  await page.getByRole('row').nth(1).getByRole('checkbox').uncheck();

  // The sale shows its answers with the question text.
  await page.getByLabel('Buscar').fill(rows[0].vin);
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('grid').getByText('Respondida')).toBeVisible();
  await page.getByRole('button', { name: 'Respuestas' }).click();
  const resp = page.getByRole('dialog');
  await expect(resp.getByText(pq.quiz.questions[0].text)).toBeVisible();
  await expect(resp.getByText('1 - Muy insatisfecho')).toBeVisible();
  // The screenshot once the dialog's fade-in ended (its container fully opaque), not after a guess.
  await expect(page.locator('.MuiDialog-container')).toHaveCSS('opacity', '1');
  await shot(page, 'sales-responses');
  await resp.getByRole('button', { name: 'Cerrar' }).click();

  // The ranking: Alfa ranked, Beta apart with 'muestra insuficiente'.
  await page.goto('/quiz');
  const ranking = page.getByRole('table', { name: 'Ranking' });
  await expect(ranking.getByText(`Alfa Motors ${id}`)).toBeVisible();
  const insufficient = page.getByRole('table', { name: 'Muestra insuficiente' });
  await expect(insufficient.getByText(`Beta Autos ${id}`)).toBeVisible();
  await expect(insufficient.getByText('muestra insuficiente').first()).toBeVisible();
  const cobertura = page.getByRole('table', { name: 'Cobertura' });
  await expect(cobertura.getByRole('row', { name: new RegExp(`Alfa Motors ${id}`) })).toContainText('83.3 %');
  await shot(page, 'quiz-stats');
  // Export: a real workbook with the three sheets.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar a Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^Satisfaccion_\d{4}.*\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(await download.path());
  expect(wb.worksheets.map((w) => w.name)).toEqual(
    expect.arrayContaining(['Cobertura', 'Ranking', 'Postventa']),
  );
  const rankingText = JSON.stringify(wb.getWorksheet('Ranking')!.getSheetValues());
  expect(rankingText).toContain(`Alfa Motors ${id}`);
  await page.getByRole('table', { name: 'Cobertura' }).scrollIntoViewIfNeeded();
  await shot(page, 'quiz-stats-cobertura');

  // The alert of the rating at 1: reply, then close.
  await page.getByRole('tab', { name: 'Alertas' }).click();
  const alertRow = page.getByRole('row', { name: new RegExp(rows[0].buyer) });
  await expect(alertRow).toContainText('Hoy');
  await alertRow.getByRole('button', { name: 'Responder' }).click();
  await page.getByRole('dialog').getByLabel('Respuesta').fill('Se llamó al cliente y se agendo una visita');
  await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
  await expect(alertRow).toContainText('Se llamó al cliente');
  await shot(page, 'quiz-alerts');
  await alertRow.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByRole('row', { name: new RegExp(rows[0].buyer) })).toHaveCount(0);
  const closed = await api<any[]>(
    request,
    token,
    'GET',
    `/quiz-alerts?status=closed&dealer_id=${dealerA.id}`,
  );
  expect(closed[0].reply).toBe('Se llamó al cliente y se agendo una visita');
});

test('questionnaire editor: add a choice question, reorder, save in order', async ({ page, request }) => {
  const token = await apiToken(request);
  const id = uid();
  const quiz = await api<{ id: number }>(request, token, 'POST', '/quizzes', {
    title: `Encuesta prueba ${id}`,
    kind: 'sales',
    active: false,
    questions: [{ text: 'Primera', type: 'rating4', required: true }],
  });
  await loginForm(page);
  await page.goto('/quiz');
  await page.getByRole('tab', { name: 'Encuestas' }).click();
  // Searching the list keeps the tab; a reload too.
  await page.getByLabel('Buscar').fill(`prueba ${id}`);
  await expect(page.getByRole('row')).toHaveCount(2);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Encuestas' })).toHaveAttribute('aria-selected', 'true');
  const row = page.getByRole('row', { name: new RegExp(`Encuesta prueba ${id}`) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Preguntas' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Pregunta', { exact: true }).first()).toHaveValue('Primera');
  await dialog.getByRole('button', { name: 'Agregar pregunta' }).click();
  const second = dialog.getByRole('group', { name: 'Pregunta 2' });
  await second.getByLabel('Pregunta', { exact: true }).fill('¿Volveria a comprar?');
  await second.getByLabel('Tipo').click();
  await page.getByRole('option', { name: 'Opción única' }).click();
  await second.getByLabel('Opciones (una por línea)').fill('Si');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog.getByText(/al menos 2 opciones/)).toBeVisible();
  await second.getByLabel('Opciones (una por línea)').fill('Si\nNo\nTal vez');
  await dialog.getByRole('button', { name: 'Subir pregunta 2' }).click();
  await expect(dialog.getByLabel('Pregunta', { exact: true }).first()).toHaveValue('¿Volveria a comprar?');
  await shot(page, 'quiz-questions-editor');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Guardado Correctamente')).toBeVisible();
  const saved = await api<any>(request, token, 'GET', `/quizzes/get/${quiz.id}`);
  expect(saved.questions.map((q: any) => [q.text, q.type, q.options])).toEqual([
    ['¿Volveria a comprar?', 'choice', ['Si', 'No', 'Tal vez']],
    ['Primera', 'rating4', null],
  ]);
});
