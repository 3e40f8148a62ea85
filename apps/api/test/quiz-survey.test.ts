// Questionnaires, invitations (outbox without SMTP), the public survey (once per token, even
// when sent twice at once), reminders, low-score alerts and a sale's responses.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_USERNAME,
  api,
  createDealerUser,
  createTestApp,
  login,
  type TestContext,
  uniq,
} from './harness';
import { createDealer, saleObject, vinFactory } from './sales-fixtures';

let t: TestContext;
let admin: string;
let dealerCode: string;
let dealerId: number;
const vin = vinFactory();
const tag = uniq('q').toLowerCase();
const email = (n: number) => `comprador${n}.${tag}@example.com`;

/** The token of the last survey mail sent to an address (read from the outbox). */
async function tokenFor(to: string): Promise<string> {
  const rows = await t.handle.query<{ text: string }>(
    'select text from mail_outbox where "to" = $1 order by id desc limit 1',
    [to],
  );
  const m = /encuesta\?token=([A-Za-z0-9_-]{43})/.exec(rows[0]?.text ?? '');
  if (!m) throw new Error(`sin correo de encuesta para ${to}`);
  return m[1];
}

async function saleId(v: string): Promise<number> {
  const [r] = await t.handle.query<{ id: number }>('select id from sales where vin = $1', [v]);
  return r.id;
}

const vins: string[] = [];
let salesQuiz: {
  id: number;
  questions: { id: number; type: string; required: boolean; options: string[] | null }[];
};

/** A complete valid answer; `rating` for every rating question. */
function answersFor(rating = 4) {
  return salesQuiz.questions.map((q) => ({
    question_id: q.id,
    value:
      q.type === 'rating4'
        ? rating
        : q.type === 'yesno'
          ? 'Si'
          : q.type === 'choice'
            ? q.options![0]
            : 'Todo bien',
  }));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app);
  dealerCode = uniq('QD');
  dealerId = await createDealer(t.app, admin, dealerCode, 'Gamma Motors');
  await api(t.app, 'POST', '/api/dealer-contacts', {
    token: admin,
    body: {
      dealer_id: dealerId,
      name: 'Jefe de Ventas',
      email: `jefe.${tag}@example.com`,
      receives_alerts: true,
    },
  });
  await api(t.app, 'POST', '/api/dealer-contacts', {
    token: admin,
    body: {
      dealer_id: dealerId,
      name: 'Sin alertas',
      email: `otro.${tag}@example.com`,
      receives_alerts: false,
    },
  });
  const rows = [];
  for (let i = 0; i < 6; i++) {
    const v = vin();
    vins.push(v);
    rows.push(saleObject(dealerCode, v, { email: i === 5 ? '' : email(i), buyer_name: `Comprador ${i}` }));
  }
  const res = await api(t.app, 'POST', '/api/sales/batch', { token: admin, body: { rows } });
  expect(res.body.result.saved).toBe(6);
});
afterAll(() => t?.close());

describe('questionnaires', () => {
  it('a fresh install has a sales and an after-sales questionnaire, with questions in order', async () => {
    const list = await api(t.app, 'GET', '/api/quizzes?perPage=50', { token: admin });
    expect(list.status).toBe(200);
    const kinds = list.body.result.data.map((q: { kind: string }) => q.kind).sort();
    expect(kinds).toEqual(['postventa', 'sales']);
    const sales = list.body.result.data.find((q: { kind: string }) => q.kind === 'sales');
    const one = await api(t.app, 'GET', `/api/quizzes/get/${sales.id}`, { token: admin });
    salesQuiz = one.body.result;
    expect(salesQuiz.questions.length).toBeGreaterThanOrEqual(4);
    expect(salesQuiz.questions.map((q: { type: string }) => q.type)).toContain('rating4');
    expect(one.body.result.questions.map((q: { order: number }) => q.order)).toEqual(
      salesQuiz.questions.map((_, i) => i + 1),
    );
  });

  it('creates and edits a questionnaire with its questions', async () => {
    const created = await api(t.app, 'POST', '/api/quizzes', {
      token: admin,
      body: {
        title: 'Encuesta de prueba',
        kind: 'sales',
        manufacturer_id: 0,
        active: false,
        questions: [
          { text: 'Atención', type: 'rating4', required: true },
          { text: 'Color preferido', type: 'choice', options: ['Rojo', 'Azul'], required: false },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.result.id;
    const got = await api(t.app, 'GET', `/api/quizzes/get/${id}`, { token: admin });
    expect(got.body.result.questions.map((q: { text: string }) => q.text)).toEqual([
      'Atención',
      'Color preferido',
    ]);
    const keep = got.body.result.questions[1];
    const updated = await api(t.app, 'PUT', `/api/quizzes/${id}`, {
      token: admin,
      body: {
        questions: [
          { id: keep.id, text: 'Color favorito', type: 'choice', options: ['Rojo', 'Azul', 'Gris'] },
          { text: 'Comentarios', type: 'text', required: false },
        ],
      },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const again = await api(t.app, 'GET', `/api/quizzes/get/${id}`, { token: admin });
    expect(
      again.body.result.questions.map((q: { id: number; text: string; order: number }) => [q.text, q.order]),
    ).toEqual([
      ['Color favorito', 1],
      ['Comentarios', 2],
    ]);
    expect(again.body.result.questions[0].id).toBe(keep.id);
    const bad = await api(t.app, 'POST', '/api/quizzes', {
      token: admin,
      body: {
        title: 'Mala',
        kind: 'sales',
        questions: [{ text: 'Elija', type: 'choice', options: ['Solo una'] }],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors[0].message).toBe(
      'Una pregunta de opción única necesita al menos 2 opciones',
    );
    const noTitle = await api(t.app, 'POST', '/api/quizzes', { token: admin, body: { kind: 'sales' } });
    expect(noTitle.status).toBe(422);
    expect(noTitle.body.error.validationErrors[0].message).toBe('Título es obligatorio');
  });
});

describe('invitations without SMTP', () => {
  it('invites each sale once; the mail waits in the outbox; sales without email are reported', async () => {
    const ids = await Promise.all(vins.map(saleId));
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [...ids, 999999] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.result.invited).toBe(5);
    expect(res.body.result.reminded).toBe(0);
    expect(res.body.result.skipped).toEqual([
      { sale_id: 999999, reason: 'Venta no encontrada' },
      { sale_id: ids[5], buyer: 'Comprador 5', reason: 'La venta no tiene Email' },
    ]);
    const outbox = await t.handle.query<{ to: string; status: string; subject: string }>(
      'select "to", status, subject from mail_outbox where "to" like $1 order by id',
      [`comprador%.${tag}@example.com`],
    );
    expect(outbox).toHaveLength(5);
    expect(outbox.every((m) => m.status === 'pending')).toBe(true);
    expect(outbox[0].subject).toContain('Encuesta de Satisfacción');
    const listed = await api(t.app, 'GET', '/api/mail-outbox?status=pending&perPage=100', { token: admin });
    expect(listed.body.result.total).toBeGreaterThanOrEqual(5);
    expect(listed.body.result.data.some((m: { to: string }) => m.to === email(0))).toBe(true);
    const token = await tokenFor(email(0));
    expect(token).toHaveLength(43);
    const stored = await t.handle.query<{ token_hash: string; expires_at: Date }>(
      'select token_hash, expires_at from quiz_invitations where sale_id = $1',
      [ids[0]],
    );
    expect(stored[0].token_hash).not.toContain(token);
    const days = (new Date(stored[0].expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59.9);
    expect(days).toBeLessThanOrEqual(60);
    const sale = await api(t.app, 'GET', `/api/sales/get/${ids[0]}`, { token: admin });
    expect(sale.body.result.survey_status).toBe('enviada');
    const again = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [ids[0]] },
    });
    expect(again.body.result).toEqual({
      invited: 0,
      reminded: 0,
      skipped: [{ sale_id: ids[0], buyer: 'Comprador 0', reason: 'Ya fue invitada a esta encuesta' }],
    });
  });

  it('accepts the list filters instead of ids, and refuses a body with neither', async () => {
    const none = await api(t.app, 'POST', '/api/sales-quiz-request', { token: admin, body: {} });
    expect(none.status).toBe(422);
    const byFilter = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { filters: { dealer_id: dealerId, date_from: '2025-03-01', date_to: '2025-03-31' } },
    });
    expect(byFilter.status).toBe(200);
    expect(byFilter.body.result.invited).toBe(0);
    expect(byFilter.body.result.skipped).toHaveLength(6);
  });

  it("a dealer user invites its own dealer's sales only; naming another dealer answers 404", async () => {
    const du = await createDealerUser(t.app, admin);
    // A dealer user whose role may send surveys: only the dealer scope stands in its way.
    const roles = await api(t.app, 'GET', '/api/roles?perPage=-1', { token: admin });
    const all = roles.body.result.find((r: { name: string }) => r.name === 'Administrador');
    const username = uniq('qi').toLowerCase();
    const made = await api(t.app, 'POST', '/api/users', {
      token: admin,
      body: {
        username,
        email: `${username}@example.com`,
        full_name: 'Ventas del concesionario',
        password: 'Dealer-Pass-1',
        dealer_id: du.dealerId,
        roles: [all.id],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const token = await login(t.app, username, 'Dealer-Pass-1');
    const [{ code }] = await t.handle.query<{ code: string }>('select code from dealers where id = $1', [
      du.dealerId,
    ]);
    const own = vin();
    const saved = await api(t.app, 'POST', '/api/sales/batch', {
      token: admin,
      body: { rows: [saleObject(code, own, { email: `propio.${tag}@example.com`, buyer_name: 'Propio' })] },
    });
    expect(saved.body.result.saved).toBe(1);
    const before = await t.handle.query<{ n: number }>('select count(*)::int as n from quiz_invitations');
    // Another dealer named in the filters: 404, as the reports' dealer, and nothing is sent.
    const foreign = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token,
      body: { filters: { dealer_id: dealerId } },
    });
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(404);
    expect(foreign.body.error.message).toBe('El concesionario no existe');
    const after = await t.handle.query<{ n: number }>('select count(*)::int as n from quiz_invitations');
    expect(after[0].n).toBe(before[0].n);
    // Its own dealer, named or not: its own sale only (the other dealer's sales are not skipped, not seen).
    for (const filters of [{ dealer_id: du.dealerId }, {}]) {
      const mine = await api(t.app, 'POST', '/api/sales-quiz-request', {
        token,
        body: { filters, reminder: true },
      });
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const seen = mine.body.result.invited + mine.body.result.reminded + mine.body.result.skipped.length;
      expect(seen).toBe(1);
    }
    const sent = await t.handle.query<{ dealer_id: number }>(
      'select s.dealer_id from quiz_invitations i join sales s on s.id = i.sale_id where s.vin = $1',
      [own],
    );
    expect(sent).toEqual([{ dealer_id: du.dealerId }]);
  });

  it('the mail outbox is for administrators', async () => {
    const du = await createDealerUser(t.app, admin);
    const res = await api(t.app, 'GET', '/api/mail-outbox', { token: du.token });
    expect(res.status).toBe(403);
  });
});

describe('public survey', () => {
  it('shows the questionnaire, the dealer and the vehicle without login', async () => {
    const res = await api(t.app, 'GET', `/api/public/quiz/${await tokenFor(email(0))}`);
    expect(res.status).toBe(200);
    expect(res.body.result.dealer).toEqual({ name: 'Gamma Motors' });
    expect(res.body.result.vehicle).toMatchObject({
      model: 'Modelo Uno',
      year: 2025,
      vin: `***********${vins[0].slice(-6)}`,
    });
    expect(res.body.result.quiz.questions.map((q: { id: number }) => q.id)).toEqual(
      salesQuiz.questions.map((q) => q.id),
    );
  });

  it('unknown and expired links get their own message', async () => {
    const unknown = await api(t.app, 'GET', `/api/public/quiz/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Encuesta no encontrada');
    const junk = await api(t.app, 'GET', '/api/public/quiz/xyz');
    expect(junk.status).toBe(404);
    await t.handle.query(
      `update quiz_invitations set expires_at = now() - interval '1 day' where sale_id = $1`,
      [await saleId(vins[4])],
    );
    const token = await tokenFor(email(4));
    const expired = await api(t.app, 'GET', `/api/public/quiz/${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.error.message).toBe('El enlace de la encuesta ha expirado');
    const post = await api(t.app, 'POST', `/api/public/quiz/${token}`, { body: { answers: answersFor() } });
    expect(post.status).toBe(410);
  });

  it('checks required questions and values with Spanish messages', async () => {
    const token = await tokenFor(email(1));
    const required = salesQuiz.questions.filter((q) => q.required);
    const res = await api(t.app, 'POST', `/api/public/quiz/${token}`, { body: { answers: [] } });
    expect(res.status).toBe(422);
    expect(res.body.error.validationErrors).toHaveLength(required.length);
    expect(res.body.error.validationErrors[0].message).toMatch(/^La pregunta ".+" es obligatoria$/);
    const rating = salesQuiz.questions.find((q) => q.type === 'rating4')!;
    const bad = await api(t.app, 'POST', `/api/public/quiz/${token}`, {
      body: { answers: answersFor().map((a) => (a.question_id === rating.id ? { ...a, value: 7 } : a)) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.validationErrors[0].message).toContain('elija una calificación de 1 a 4');
    const [{ n }] = await t.handle.query<{ n: number }>('select count(*)::int as n from quiz_responses');
    expect(n).toBe(0);
  });

  it('saves one answer per link: two submits at once give one 200 and one 409, one response', async () => {
    const token = await tokenFor(email(1));
    const send = () => api(t.app, 'POST', `/api/public/quiz/${token}`, { body: { answers: answersFor(3) } });
    const results = await Promise.all([send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect(refused.body.error.message).toBe('Esta encuesta ya fue respondida');
    const id = await saleId(vins[1]);
    const [{ n }] = await t.handle.query<{ n: number }>(
      'select count(*)::int as n from quiz_responses where sale_id = $1',
      [id],
    );
    expect(n).toBe(1);
    const later = await send();
    expect(later.status).toBe(409);
    const view = await api(t.app, 'GET', `/api/public/quiz/${token}`);
    expect(view.status).toBe(409);
    const sale = await api(t.app, 'GET', `/api/sales/get/${id}`, { token: admin });
    expect(sale.body.result.survey_status).toBe('respondida');
  });

  it("shows a sale's responses enriched with their questions", async () => {
    const id = await saleId(vins[1]);
    const res = await api(t.app, 'GET', `/api/sales/${id}/responses`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.result.invitations).toHaveLength(1);
    const [resp] = res.body.result.responses;
    expect(resp.answers).toHaveLength(salesQuiz.questions.length);
    const first = salesQuiz.questions[0] as unknown as { id: number; text: string };
    expect(resp.answers[0]).toMatchObject({
      question_id: first.id,
      question: first.text,
      value: '3',
      rating: 3,
    });
    const other = await createDealerUser(t.app, admin);
    const hidden = await api(t.app, 'GET', `/api/sales/${id}/responses`, { token: other.token });
    expect(hidden.status).toBe(404);
    const list = await api(t.app, 'GET', `/api/quiz-responses?quiz_id=${salesQuiz.id}&year=2025`, {
      token: admin,
    });
    expect(list.status).toBe(200);
    expect(list.body.result.total).toBe(1);
    expect(list.body.result.data[0]).toMatchObject({
      sale_id: id,
      dealer_name: 'Gamma Motors',
      vin: vins[1],
    });
    expect(list.body.result.data[0].answers[0]).toMatchObject({ question: first.text, rating: 3 });
    const none = await api(t.app, 'GET', '/api/quiz-responses', { token: other.token });
    expect(none.body.result).toEqual({ total: 0, data: [] });
  });
});

describe('one set of rating labels, from the questionnaire', () => {
  it("the public survey and a sale's responses name the ratings with the questionnaire's labels", async () => {
    const token = await tokenFor(email(2));
    const before = await api(t.app, 'GET', `/api/public/quiz/${token}`);
    expect(before.body.result.quiz.rating_labels).toEqual([
      'Muy insatisfecho',
      'Insatisfecho',
      'Satisfecho',
      'Muy satisfecho',
    ]);
    const labels = ['Pésimo', 'Regular', 'Bien', 'Excelente'];
    const put = await api(t.app, 'PUT', `/api/quizzes/${salesQuiz.id}`, {
      token: admin,
      body: { rating_labels: labels },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = await api(t.app, 'GET', `/api/public/quiz/${token}`);
    expect(after.body.result.quiz.rating_labels).toEqual(labels);
    const answered = await api(t.app, 'GET', `/api/sales/${await saleId(vins[1])}/responses`, {
      token: admin,
    });
    expect(answered.body.result.responses[0].rating_labels).toEqual(labels);
    const three = await api(t.app, 'PUT', `/api/quizzes/${salesQuiz.id}`, {
      token: admin,
      body: { rating_labels: ['a', 'b', 'c'] },
    });
    expect(three.status).toBe(422);
    expect(three.body.error.validationErrors[0].message).toBe('Indique las 4 etiquetas de calificación');
    await api(t.app, 'PUT', `/api/quizzes/${salesQuiz.id}`, {
      token: admin,
      body: { rating_labels: before.body.result.quiz.rating_labels },
    });
  });
});

describe('choosing the questionnaire', () => {
  it('the after-sales questionnaire is sent when asked by quiz_id', async () => {
    const list = await api(t.app, 'GET', '/api/quizzes?perPage=50', { token: admin });
    const post = list.body.result.data.find((q: { kind: string }) => q.kind === 'postventa');
    const id = await saleId(vins[3]);
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: [id], quiz_id: post.id },
    });
    expect(res.body.result).toMatchObject({ invited: 1, skipped: [] });
    const inv = await t.handle.query<{ quiz_id: number }>(
      'select quiz_id from quiz_invitations where sale_id = $1 order by id',
      [id],
    );
    expect(inv.map((i) => i.quiz_id)).toContain(post.id);
  });
});

describe('reminders', () => {
  it('go only to invitations neither answered nor expired, with a new link', async () => {
    const ids = await Promise.all(vins.slice(0, 5).map(saleId));
    const oldToken = await tokenFor(email(2));
    const res = await api(t.app, 'POST', '/api/sales-quiz-request', {
      token: admin,
      body: { sale_ids: ids, reminder: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.invited).toBe(0);
    expect(res.body.result.reminded).toBe(3); // 0, 2, 3
    // Each sale not sent names its buyer (the screen shows the name, not 'Venta #31').
    expect(res.body.result.skipped).toEqual([
      { sale_id: ids[1], buyer: 'Comprador 1', reason: 'Ya respondió la encuesta' },
      { sale_id: ids[4], buyer: 'Comprador 4', reason: 'La invitación expiró' },
    ]);
    const [reminder] = await t.handle.query<{ subject: string; text: string; expires_at: Date }>(
      `select m.subject, m.text, i.expires_at from mail_outbox m
       join quiz_invitations i on i.email = m."to" where m."to" = $1 order by m.id desc limit 1`,
      [email(2)],
    );
    expect(reminder.subject).toMatch(/^Recordatorio: /);
    // The expiry date of the mail is Lima's (dd/mm/aaaa), not the UTC date of the instant.
    const lima = new Date(new Date(reminder.expires_at).getTime() - 5 * 3_600_000).toISOString().slice(0, 10);
    const [y, m, d] = lima.split('-');
    expect(reminder.text).toContain(`válido hasta el ${d}/${m}/${y}`);
    const newToken = await tokenFor(email(2));
    expect(newToken).not.toBe(oldToken);
    expect((await api(t.app, 'GET', `/api/public/quiz/${newToken}`)).status).toBe(200);
    expect((await api(t.app, 'GET', `/api/public/quiz/${oldToken}`)).status).toBe(404);
  });
});

describe('alerts', () => {
  let alertId: number;
  it('a lowest rating opens an alert and mails the dealer contacts that receive alerts', async () => {
    const token = await tokenFor(email(3));
    const res = await api(t.app, 'POST', `/api/public/quiz/${token}`, { body: { answers: answersFor(1) } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mails = await t.handle.query<{ to: string; subject: string }>(
      `select "to", subject from mail_outbox where subject like 'Alerta de satisfacción%' and "to" like $1`,
      [`%.${tag}@example.com`],
    );
    expect(mails.map((m) => m.to)).toEqual([`jefe.${tag}@example.com`]);
    const list = await api(t.app, 'GET', `/api/quiz-alerts?dealer_id=${dealerId}`, { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.result).toHaveLength(1);
    const alert = list.body.result[0];
    expect(alert).toMatchObject({
      dealer_id: dealerId,
      dealer_name: 'Gamma Motors',
      age_days: 0,
      closed_at: null,
    });
    expect(alert.detail).toContain(
      salesQuiz.questions[0] && (salesQuiz.questions[0] as unknown as { text: string }).text,
    );
    alertId = alert.id;
    // The alert is in the notifications centre, in the transaction that opened it (issue 29).
    const notes = await api(t.app, 'GET', '/api/notifications?kind=quiz_alert', { token: admin });
    expect(notes.body.result.data).toHaveLength(1);
    expect(notes.body.result.data[0]).toMatchObject({
      kind: 'quiz_alert',
      dealer_id: dealerId,
      link: '/quiz',
    });
    expect(notes.body.result.data[0].body).toMatch(/^Gamma Motors · calificación mínima en: /);
    // An answer at 3 opened no alert.
    const [{ n }] = await t.handle.query<{ n: number }>('select count(*)::int as n from quiz_alerts');
    expect(n).toBe(1);
  });

  it('shows its age in days', async () => {
    await t.handle.query(
      `update quiz_alerts set opened_at = now() - interval '3 days 2 hours' where id = $1`,
      [alertId],
    );
    const list = await api(t.app, 'GET', '/api/quiz-alerts', { token: admin });
    expect(list.body.result.find((a: { id: number }) => a.id === alertId).age_days).toBe(3);
  });

  it('is seen, answered and closed only by its dealer (or the manufacturer)', async () => {
    const other = await createDealerUser(t.app, admin);
    const hidden = await api(t.app, 'GET', '/api/quiz-alerts', { token: other.token });
    expect(hidden.body.result).toEqual([]);
    const foreign = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/reply`, {
      token: other.token,
      body: { reply: 'x' },
    });
    expect(foreign.status).toBe(404);
    const early = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/close`, { token: admin });
    expect(early.status).toBe(422);
    expect(early.body.error.message).toBe('Responda la alerta antes de cerrarla');
    const empty = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/reply`, {
      token: admin,
      body: { reply: ' ' },
    });
    expect(empty.status).toBe(422);
    const reply = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/reply`, {
      token: admin,
      body: { reply: 'Llamamos al cliente y coordinamos una visita' },
    });
    expect(reply.status).toBe(200);
    const close = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/close`, { token: admin });
    expect(close.status).toBe(200);
    expect(close.body.result.closed_at).toBeTruthy();
    const open = await api(t.app, 'GET', '/api/quiz-alerts', { token: admin });
    expect(open.body.result.find((a: { id: number }) => a.id === alertId)).toBeUndefined();
    const closed = await api(t.app, 'GET', '/api/quiz-alerts?status=closed', { token: admin });
    expect(closed.body.result.find((a: { id: number }) => a.id === alertId).reply).toBe(
      'Llamamos al cliente y coordinamos una visita',
    );
    const twice = await api(t.app, 'PUT', `/api/quiz-alerts/${alertId}/close`, { token: admin });
    expect(twice.status).toBe(409);
  });

  it('the reply and the close each write one audit row: who, and which alert', async () => {
    const res = await api(
      t.app,
      'GET',
      `/api/audit-logs?filter[resource]=quiz-alerts&filter[record_id]=${alertId}&sort=id&order=asc`,
      { token: admin },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = res.body.result.data as { action: string; username: string; record_id: number }[];
    // The refused calls (another dealer's reply, an empty reply, a close before the reply, a
    // second close) wrote nothing.
    expect(rows.map((r) => r.action)).toEqual(['reply', 'close']);
    for (const r of rows) expect(r).toMatchObject({ username: ADMIN_USERNAME, record_id: alertId });
    const [{ n }] = await t.handle.query<{ n: number }>(
      `select count(*)::int as n from audit_logs where resource = 'quiz-alerts' and record_id = $1
         and user_id = (select id from users where username = $2)`,
      [alertId, ADMIN_USERNAME],
    );
    expect(n).toBe(2);
  });
});

describe('deleting what the survey uses', () => {
  it('a sale with an answered survey and a questionnaire already sent cannot be deleted', async () => {
    const answered = await api(t.app, 'DELETE', `/api/sales/${await saleId(vins[1])}`, { token: admin });
    expect(answered.status).toBe(409);
    expect(answered.body.error.message).toBe('No se puede eliminar: la venta tiene una encuesta respondida');
    const quiz = await api(t.app, 'DELETE', `/api/quizzes/${salesQuiz.id}`, { token: admin });
    expect(quiz.status).toBe(409);
    expect(quiz.body.error.message).toContain('en uso');
    // A sale invited but not answered can go (its invitation goes with it).
    const pending = await api(t.app, 'DELETE', `/api/sales/${await saleId(vins[2])}`, { token: admin });
    expect(pending.status).toBe(200);
  });
});

/** The ids of the first sheet of an .xlsx answer (first column, after the header). */
async function sheetIds(raw: unknown): Promise<number[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as ArrayBuffer);
  const ids: number[] = [];
  wb.worksheets[0].eachRow((row, n) => {
    if (n > 1) ids.push(Number(row.getCell(1).value));
  });
  return ids;
}

describe('alerts, responses and the outbox are declared lists', () => {
  it('alerts: paged with page/perPage, searched, filtered by status, exported', async () => {
    const [{ id: alertId }] = await t.handle.query<{ id: number }>(
      'select id from quiz_alerts where dealer_id = $1',
      [dealerId],
    );
    const paged = await api(t.app, 'GET', '/api/quiz-alerts?status=all&page=1&perPage=5', { token: admin });
    expect(paged.status).toBe(200);
    expect(paged.body.result.total).toBeGreaterThanOrEqual(1);
    expect(paged.body.result.data.map((a: { id: number }) => a.id)).toContain(alertId);
    const found = await api(t.app, 'GET', `/api/quiz-alerts?status=closed&perPage=5&query=${vins[3]}`, {
      token: admin,
    });
    expect(found.body.result).toMatchObject({ total: 1, data: [{ id: alertId, vin: vins[3] }] });
    const none = await api(t.app, 'GET', `/api/quiz-alerts?perPage=5&query=${vins[3]}`, { token: admin });
    expect(none.body.result).toEqual({ total: 0, data: [] });
    const bad = await api(t.app, 'GET', '/api/quiz-alerts?status=pendiente', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('Estado no es válido (open, closed, all)');
    const one = await api(t.app, 'GET', `/api/quiz-alerts/get/${alertId}`, { token: admin });
    expect(one.body.result).toMatchObject({ id: alertId, dealer_name: 'Gamma Motors', age_days: 3 });
    const file = await api(
      t.app,
      'GET',
      `/api/quiz-alerts/export?status=closed&query=${vins[3]}&columns=id,reply`,
      {
        token: admin,
      },
    );
    expect(file.status).toBe(200);
    expect(await sheetIds(file.raw)).toEqual([alertId]);
  });

  it('responses: paged and searched with their answers, exported', async () => {
    const id = await saleId(vins[1]);
    const res = await api(t.app, 'GET', `/api/quiz-responses?page=1&perPage=5&query=${vins[1]}`, {
      token: admin,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.total).toBe(1);
    expect(res.body.result.data[0]).toMatchObject({
      sale_id: id,
      vin: vins[1],
      quiz_title: expect.any(String),
    });
    expect(res.body.result.data[0].answers).toHaveLength(salesQuiz.questions.length);
    const bySale = await api(t.app, 'GET', `/api/quiz-responses?sale_id=${id}`, { token: admin });
    expect(bySale.body.result.data.map((r: { sale_id: number }) => r.sale_id)).toEqual([id]);
    const badYear = await api(t.app, 'GET', '/api/quiz-responses?year=1999', { token: admin });
    expect(badYear.status).toBe(422);
    expect(badYear.body.error.message).toBe('Año no es válido');
    const file = await api(t.app, 'GET', `/api/quiz-responses/export?query=${vins[1]}&columns=id,vin`, {
      token: admin,
    });
    expect(file.status).toBe(200);
    expect(await sheetIds(file.raw)).toEqual([res.body.result.data[0].id]);
  });

  it('the outbox: paged, searched, filtered by status (both forms), exported; an unknown status is refused', async () => {
    const res = await api(t.app, 'GET', `/api/mail-outbox?perPage=5&query=${email(0)}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.result.total).toBeGreaterThanOrEqual(2);
    for (const m of res.body.result.data) expect(m.to).toBe(email(0));
    expect(res.body.result.data[0]).not.toHaveProperty('html');
    const plain = await api(t.app, 'GET', `/api/mail-outbox?status=pending&perPage=100&query=${tag}`, {
      token: admin,
    });
    const bracket = await api(
      t.app,
      'GET',
      `/api/mail-outbox?filter[status]=pending&perPage=100&query=${tag}`,
      {
        token: admin,
      },
    );
    expect(plain.body.result.total).toBeGreaterThan(0);
    expect(bracket.body.result).toEqual(plain.body.result);
    const bad = await api(t.app, 'GET', '/api/mail-outbox?status=perdido', { token: admin });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toBe('Estado no es válido (pending, sent, failed)');
    const file = await api(t.app, 'GET', `/api/mail-outbox/export?query=${email(0)}&columns=id,to,status`, {
      token: admin,
    });
    expect(file.status).toBe(200);
    expect(await sheetIds(file.raw)).toEqual(res.body.result.data.map((m: { id: number }) => m.id));
  });

  it('/api/docs documents the body of each survey action', async () => {
    const docs = await api(t.app, 'GET', '/api/docs/json');
    const { paths } = docs.body as unknown as { paths: Record<string, Record<string, object>> };
    expect(paths['/api/sales-quiz-request'].post).toHaveProperty('requestBody');
    expect(paths['/api/public/quiz/{token}'].post).toHaveProperty('requestBody');
    expect(paths['/api/quiz-alerts/{id}/reply'].put).toHaveProperty('requestBody');
  });
});
