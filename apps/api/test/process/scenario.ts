// Data the process tests need, made through the HTTP API as a user would: a dealer, its sales,
// their survey invitations (the links read from the outbox, as the buyer receives them), and
// the workbook of a sales import.
import { saleObject, saleRow, salesWorkbook, vinFactory } from '../sales-fixtures';
import { call, type TestDatabase } from './servers';

let seq = 0;
const unique = (prefix: string) =>
  `${prefix}${process.pid.toString(36)}${Date.now().toString(36).slice(-3)}${++seq}`;

export async function createDealerAt(base: string, token: string): Promise<{ id: number; code: string }> {
  const code = unique('R');
  const res = await call(base, 'POST', '/api/dealers', {
    token,
    body: { code, name: `Concesionario ${code}` },
  });
  if (res.status !== 200) throw new Error(`dealer: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.result.id, code };
}

/** A dealer user (role Concesionario) created through the API; answers its id and password. */
export async function createDealerUserAt(base: string, token: string, dealerId: number) {
  const roles = await call(base, 'GET', '/api/roles?perPage=-1', { token });
  const role = roles.body.result.find((r: { name: string }) => r.name === 'Concesionario');
  const username = unique('u').toLowerCase();
  const res = await call(base, 'POST', '/api/users', {
    token,
    body: {
      username,
      email: `${username}@example.com`,
      full_name: `Usuario ${username}`,
      password: 'Dealer-Pass-1',
      dealer_id: dealerId,
      roles: [role.id],
    },
  });
  if (res.status !== 200) throw new Error(`user: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.result.id as number, username, password: 'Dealer-Pass-1', roleId: role.id as number };
}

/** n sales of a dealer saved in one batch; answers their VINs. */
export async function createSalesAt(base: string, token: string, dealerCode: string, n: number, tag: string) {
  const vin = vinFactory();
  const rows = Array.from({ length: n }, (_, i) =>
    saleObject(dealerCode, vin(), {
      email: `comprador${i}.${tag}@example.com`,
      buyer_name: `Comprador ${i}`,
    }),
  );
  const res = await call(base, 'POST', '/api/sales/batch', { token, body: { rows } });
  if (res.status !== 200 || res.body.result.saved !== n)
    throw new Error(`batch: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return rows.map((r) => r.vin);
}

/** Invitations for the given sales; answers the survey tokens, read from the mails in the outbox. */
export async function surveyTokens(base: string, token: string, db: TestDatabase, vins: string[]) {
  const ids = (
    await db.query<{ id: number }>('select id from sales where vin = any($1) order by id', [vins])
  ).map((r) => r.id);
  const res = await call(base, 'POST', '/api/sales-quiz-request', {
    token,
    body: { sale_ids: ids },
    timeoutMs: 180_000,
  });
  if (res.status !== 200) throw new Error(`invitaciones: ${res.status} ${JSON.stringify(res.body)}`);
  const mails = await db.query<{ text: string }>(
    `select m.text from mail_outbox m join quiz_invitations i on i.mail_outbox_id = m.id where i.sale_id = any($1)`,
    [ids],
  );
  return mails.map((m) => /encuesta\?token=([A-Za-z0-9_-]{43})/.exec(m.text)![1]);
}

/** A complete answer to the survey of a token (every rating 4). */
export async function answersFor(base: string, surveyToken: string) {
  const res = await call(base, 'GET', `/api/public/quiz/${surveyToken}`);
  if (res.status !== 200) throw new Error(`encuesta: ${res.status} ${JSON.stringify(res.body)}`);
  const questions = res.body.result.quiz.questions as {
    id: number;
    type: string;
    options: string[] | null;
  }[];
  return {
    answers: questions.map((q) => ({
      question_id: q.id,
      value:
        q.type === 'rating4'
          ? 4
          : q.type === 'yesno'
            ? 'Si'
            : q.type === 'choice'
              ? q.options![0]
              : 'Todo bien',
    })),
  };
}

/** A sales workbook of n valid rows for a dealer (and its VINs). */
export async function importWorkbook(dealerCode: string, n: number) {
  const vin = vinFactory();
  const vins = Array.from({ length: n }, () => vin());
  return { vins, file: await salesWorkbook(vins.map((v) => saleRow(dealerCode, v))) };
}
