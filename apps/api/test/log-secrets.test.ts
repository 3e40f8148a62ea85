// Secrets never reach the log: the server logs at info level (every request line) while users
// sign in with right and wrong passwords, change and reset passwords, call with their token and
// download with the encrypted token in the address, buyers open and answer the survey by its
// token, and mail fails against an SMTP URL that carries a user and password. The log lines are
// read back: none holds any of those values.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, createTestApp, login, type TestContext } from './harness';
import { createDealer, saleObject, vinFactory } from './sales-fixtures';

const SMTP_PASSWORD = 'Clave-Smtp-Secreta-913';
const SMTP_URL = `smtp://usuario.correo:${SMTP_PASSWORD}@127.0.0.1:1`;
const WRONG_PASSWORD = 'Incorrecta-Contrasena-77';
const NEW_PASSWORD = 'Nueva-Contrasena-2026x';
const RESET_PASSWORD = 'Reseteada-Contrasena-55';

const lines: string[] = [];
let t: TestContext;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp(
    { smtpUrl: SMTP_URL },
    { logger: true, logStream: { write: (l) => lines.push(l) } },
  );
});
afterAll(() => t?.close());

it('no password, token, survey token or SMTP credential in any log line', async () => {
  // Sign-ins: right, wrong, unknown user.
  const admin = await login(t.app);
  secrets.adminToken = admin;
  await api(t.app, 'POST', '/api/auth/login', { body: { username: 'admin', password: WRONG_PASSWORD } });
  await api(t.app, 'POST', '/api/auth/login', { body: { username: 'nadie', password: WRONG_PASSWORD } });
  // A body that is not JSON, holding a password.
  await api(t.app, 'POST', '/api/auth/login', {
    rawBody: `{"username":"admin","password":"${WRONG_PASSWORD}"`,
  });

  // A user, its password changed by itself and reset by the administrator.
  const created = await api(t.app, 'POST', '/api/users', {
    token: admin,
    body: {
      username: 'registro',
      email: 'registro@example.com',
      full_name: 'Registro',
      password: 'Inicial-Pass-1',
    },
  });
  const userId = created.body.result.id;
  const own = await login(t.app, 'registro', 'Inicial-Pass-1');
  const changed = await api(t.app, 'PUT', `/api/user/${userId}`, {
    token: own,
    body: { current_password: 'Inicial-Pass-1', password: NEW_PASSWORD },
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  const reset = await api(t.app, 'PUT', `/api/users/${userId}/reset-password`, {
    token: admin,
    body: { password: RESET_PASSWORD },
  });
  expect(reset.status, JSON.stringify(reset.body)).toBe(200);

  // Calls with the token, a download with the encrypted token in the address, an old token.
  const session = await api(t.app, 'POST', '/api/auth/login', {
    body: { username: 'admin', password: 'Admin-Test-123' },
  });
  secrets.encrypted = session.body.result.encrypted_access_token;
  // An old link with the session in its address (refused), then a download ticket's link.
  const old = await api(
    t.app,
    'GET',
    `/api/dealers/export?enc_auth_token=${encodeURIComponent(secrets.encrypted)}`,
  );
  expect(old.status).toBe(401);
  const ticket = await api(t.app, 'POST', '/api/auth/download-ticket', {
    token: admin,
    body: { path: '/api/dealers/export' },
  });
  secrets.ticket = ticket.body.result.ticket;
  const file = await api(t.app, 'GET', ticket.body.result.url);
  expect(file.status).toBe(200);
  await api(t.app, 'GET', '/api/dealers?perPage=5', { token: admin });
  await api(t.app, 'GET', '/api/dealers?perPage=5', { token: `${admin}x` });

  // The SMTP URL as a setting too, then a survey mail that fails against it.
  await api(t.app, 'PUT', '/api/configurations/save', { token: admin, body: { SMTP_URL } });
  const code = 'LOGS1';
  await createDealer(t.app, admin, code);
  const vin = vinFactory()();
  await api(t.app, 'POST', '/api/sales/batch', {
    token: admin,
    body: { rows: [saleObject(code, vin, { email: 'comprador.logs@example.com' })] },
  });
  const [sale] = await t.handle.query<{ id: number }>('select id from sales where vin = $1', [vin]);
  const invited = await api(t.app, 'POST', '/api/sales-quiz-request', {
    token: admin,
    body: { sale_ids: [sale.id] },
  });
  expect(invited.body.result.invited).toBe(1);
  const [mail] = await t.handle.query<{ text: string; status: string; error: string }>(
    'select text, status, error from mail_outbox where "to" = $1',
    ['comprador.logs@example.com'],
  );
  expect(mail.status).toBe('failed');
  expect(mail.error).not.toContain(SMTP_PASSWORD);
  const surveyToken = /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  secrets.survey = surveyToken;

  // The buyer opens and answers the survey; a wrong token too.
  const quiz = await api(t.app, 'GET', `/api/public/quiz/${surveyToken}`);
  const answers = quiz.body.result.quiz.questions.map(
    (q: { id: number; type: string; options: string[] | null }) => ({
      question_id: q.id,
      value:
        q.type === 'rating4' ? 4 : q.type === 'yesno' ? 'Si' : q.type === 'choice' ? q.options![0] : 'Bien',
    }),
  );
  expect((await api(t.app, 'POST', `/api/public/quiz/${surveyToken}`, { body: { answers } })).status).toBe(
    200,
  );
  await api(t.app, 'POST', `/api/public/quiz/${surveyToken}`, { body: { answers } });
  await api(t.app, 'GET', `/api/public/quiz/${'x'.repeat(43)}`);
  // And the flush against the same SMTP URL.
  await api(t.app, 'POST', '/api/mail-outbox/flush', { token: admin });

  const log = lines.join('');
  // The log is there and saw these requests (so this test can fail).
  expect(lines.length).toBeGreaterThan(20);
  expect(log).toContain('/api/public/quiz/[oculto]');
  expect(log).toContain('enc_auth_token=[oculto]');
  expect(log).toContain('ticket=[oculto]');
  expect(log).toContain('envío de correo fallido');
  const found = Object.entries({
    'contrasena del administrador': 'Admin-Test-123',
    'contrasena equivocada': WRONG_PASSWORD,
    'contrasena inicial': 'Inicial-Pass-1',
    'contrasena nueva': NEW_PASSWORD,
    'contrasena reseteada': RESET_PASSWORD,
    'clave SMTP': SMTP_PASSWORD,
    'usuario:clave SMTP': 'usuario.correo:',
    'token de sesión': secrets.adminToken,
    'firma del token': secrets.adminToken.split('.')[2],
    'token cifrado': secrets.encrypted,
    'token cifrado (en la URL)': encodeURIComponent(secrets.encrypted),
    'token de encuesta': secrets.survey,
    'ticket de descarga': secrets.ticket,
  }).filter(([, value]) => log.includes(value));
  expect(found.map(([what]) => what)).toEqual([]);
});
