// The public survey (/encuesta?token=…): read the questionnaire by token and answer it once.
// "Once" holds under concurrent submits: the invitation is claimed with a conditional UPDATE
// (answered_at IS NULL) inside the transaction, and quiz_responses.invitation_id is unique.
import { type PublicAnswerInput, type PublicQuiz, QUIZ_MESSAGES, type QuizQuestion } from '@app/contracts';
import { sql } from 'drizzle-orm';
import { findPgError } from '../../core/db-errors';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import type { DatabaseHandle } from '../../db/client';
import { escapeHtml, type MailContext, resolveMailSettings, sendMail } from '../mail/mail.service';
import { hashToken, TOKEN_RE } from './quiz.invitations';

export class GoneError extends AppError {
  constructor(message: string) {
    super(410, message);
  }
}

interface InvitationRow {
  id: number;
  sale_id: number;
  quiz_id: number;
  expires_at: Date;
  answered_at: Date | null;
  dealer_id: number;
  dealer_name: string;
  buyer_name: string;
  vin: string;
  model_name: string;
  year: number;
  brand_name: string;
  quiz_title: string;
  quiz_description: string | null;
  quiz_kind: 'sales' | 'postventa';
}

async function findInvitation(handle: DatabaseHandle, token: string): Promise<InvitationRow> {
  if (!TOKEN_RE.test(token)) throw new NotFoundError(QUIZ_MESSAGES.notFound);
  const [inv] = await handle.query<InvitationRow>(
    `select i.id, i.sale_id, i.quiz_id, i.expires_at, i.answered_at, s.dealer_id, d.name as dealer_name,
       s.buyer_name, s.vin, s.model_name, s.year, m.name as brand_name,
       q.title as quiz_title, q.description as quiz_description, q.kind as quiz_kind
     from quiz_invitations i
     join sales s on s.id = i.sale_id
     join dealers d on d.id = s.dealer_id
     join manufacturers m on m.id = s.manufacturer_id
     join quizzes q on q.id = i.quiz_id
     where i.token_hash = $1`,
    [hashToken(token)],
  );
  if (!inv) throw new NotFoundError(QUIZ_MESSAGES.notFound);
  return inv;
}

function assertOpen(inv: InvitationRow): void {
  if (inv.answered_at) throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
  if (new Date(inv.expires_at).getTime() <= Date.now()) throw new GoneError(QUIZ_MESSAGES.expired);
}

/** Only the last 6 characters of the VIN are shown on the public page. */
export function maskVin(vin: string): string {
  return `${'*'.repeat(Math.max(0, vin.length - 6))}${vin.slice(-6)}`;
}

async function questionsOf(handle: DatabaseHandle, quizId: number): Promise<QuizQuestion[]> {
  return handle.query<QuizQuestion>(
    'select id, "order", text, type, options, required from quiz_questions where quiz_id = $1 order by "order", id',
    [quizId],
  );
}

export async function getPublicQuiz(handle: DatabaseHandle, token: string): Promise<PublicQuiz> {
  const inv = await findInvitation(handle, token);
  assertOpen(inv);
  return {
    quiz: {
      id: inv.quiz_id,
      title: inv.quiz_title,
      description: inv.quiz_description,
      kind: inv.quiz_kind,
      questions: await questionsOf(handle, inv.quiz_id),
    },
    dealer: { name: inv.dealer_name },
    vehicle: { brand: inv.brand_name, model: inv.model_name, year: inv.year, vin: maskVin(inv.vin) },
    buyer_name: inv.buyer_name,
    expires_at: new Date(inv.expires_at).toISOString(),
  };
}

interface CheckedAnswer {
  question_id: number;
  question: string;
  question_type: string;
  value: string | null;
  rating: number | null;
}

const YES = new Set(['si', 'sí', 'yes', 'true', '1']);
const NO = new Set(['no', 'false', '0']);

/** Checks each answer against its question; every problem is reported with the question's text. */
function checkAnswers(questions: QuizQuestion[], input: PublicAnswerInput): CheckedAnswer[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const errors: { field: string; message: string }[] = [];
  const given = new Map<number, unknown>();
  for (const a of input.answers) {
    if (!byId.has(a.question_id)) {
      errors.push({
        field: `answers.${a.question_id}`,
        message: `La pregunta ${a.question_id} no pertenece a esta encuesta`,
      });
      continue;
    }
    given.set(a.question_id, a.value);
  }
  const out: CheckedAnswer[] = [];
  for (const q of questions) {
    const raw = given.get(q.id);
    const field = `answers.${q.id}`;
    const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
    if (empty) {
      if (q.required) errors.push({ field, message: `La pregunta "${q.text}" es obligatoria` });
      continue;
    }
    let value: string | null = null;
    let rating: number | null = null;
    if (q.type === 'rating4') {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < 1 || n > 4) {
        errors.push({ field, message: `"${q.text}": elija una calificacion de 1 a 4` });
        continue;
      }
      rating = n;
      value = String(n);
    } else if (q.type === 'yesno') {
      const s = String(raw).trim().toLowerCase();
      if (raw === true || YES.has(s)) value = 'Si';
      else if (raw === false || NO.has(s)) value = 'No';
      else {
        errors.push({ field, message: `"${q.text}": responda Si o No` });
        continue;
      }
    } else if (q.type === 'choice') {
      const s = String(raw).trim();
      if (!(q.options ?? []).includes(s)) {
        errors.push({ field, message: `"${q.text}": elija una de las opciones` });
        continue;
      }
      value = s;
    } else {
      value = String(raw).trim().slice(0, 2000);
    }
    out.push({ question_id: q.id, question: q.text, question_type: q.type, value, rating });
  }
  if (errors.length) throw new ValidationError(errors);
  return out;
}

export interface SubmitResult {
  response_id: number;
  alert_id: number | null;
}

/** Saves the answer of a token once; a lowest rating opens an alert and mails the dealer's contacts. */
export async function submitPublicAnswers(
  handle: DatabaseHandle,
  mail: MailContext,
  token: string,
  input: PublicAnswerInput,
): Promise<SubmitResult> {
  const inv = await findInvitation(handle, token);
  assertOpen(inv);
  const answers = checkAnswers(await questionsOf(handle, inv.quiz_id), input);
  const lowest = answers.filter((a) => a.rating === 1);
  let result: SubmitResult;
  try {
    result = await handle.db.transaction(async (tx) => {
      const claimed = await tx.execute(
        sql`update quiz_invitations set answered_at = now(), updated_at = now()
            where id = ${inv.id} and answered_at is null and expires_at > now() returning id`,
      );
      if ((claimed as unknown as { rows: unknown[] }).rows.length === 0) {
        throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
      }
      const resp = await tx.execute(
        sql`insert into quiz_responses (invitation_id, sale_id, quiz_id, dealer_id)
            values (${inv.id}, ${inv.sale_id}, ${inv.quiz_id}, ${inv.dealer_id}) returning id`,
      );
      const responseId = Number((resp as unknown as { rows: { id: number }[] }).rows[0].id);
      if (answers.length) {
        await tx.execute(
          sql`insert into quiz_answers (response_id, question_id, question, question_type, value, rating)
              select ${responseId}, a.question_id, a.question, a.question_type, a.value, a.rating
              from jsonb_to_recordset(${JSON.stringify(answers)}::jsonb)
                as a(question_id int, question text, question_type text, value text, rating int)`,
        );
      }
      await tx.execute(
        sql`update sales set survey_status = 'respondida', updated_at = now() where id = ${inv.sale_id}`,
      );
      let alertId: number | null = null;
      if (lowest.length) {
        const detail = lowest.map((a) => a.question).join('\n');
        const alert = await tx.execute(
          sql`insert into quiz_alerts (response_id, sale_id, dealer_id, detail)
              values (${responseId}, ${inv.sale_id}, ${inv.dealer_id}, ${detail}) returning id`,
        );
        alertId = Number((alert as unknown as { rows: { id: number }[] }).rows[0].id);
      }
      return { response_id: responseId, alert_id: alertId };
    });
  } catch (err) {
    if (findPgError(err)?.code === '23505') throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
    throw err;
  }
  if (result.alert_id) await mailAlert(handle, mail, inv, lowest);
  return result;
}

async function mailAlert(
  handle: DatabaseHandle,
  mail: MailContext,
  inv: InvitationRow,
  lowest: CheckedAnswer[],
) {
  const contacts = await handle.query<{ email: string; name: string }>(
    `select email, name from dealer_contacts
     where dealer_id = $1 and active and receives_alerts and email is not null and email <> ''`,
    [inv.dealer_id],
  );
  const subject = `Alerta de satisfaccion: calificacion minima - ${inv.brand_name} ${inv.model_name} (${inv.buyer_name})`;
  const list = lowest.map((a) => `- ${a.question}`).join('\n');
  const text = `El cliente ${inv.buyer_name} (VIN ${inv.vin}) califico con el nivel mas bajo:\n${list}\n\nRevise la alerta en Satisfaccion de Cliente, respondala y cierrela.`;
  const html = `<p>El cliente <b>${escapeHtml(inv.buyer_name)}</b> (VIN ${escapeHtml(inv.vin)}) califico con el nivel mas bajo:</p><ul>${lowest
    .map((a) => `<li>${escapeHtml(a.question)}</li>`)
    .join('')}</ul><p>Revise la alerta en Satisfaccion de Cliente, respondala y cierrela.</p>`;
  // SMTP and sender settings read once for all the contacts, as invitations do.
  const settled = contacts.length > 1 ? await resolveMailSettings(mail) : mail;
  for (const c of contacts) {
    await sendMail(settled, { to: c.email, subject, text, html });
  }
}
