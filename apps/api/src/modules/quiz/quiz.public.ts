// The public survey (/encuesta?token=…): read the questionnaire by token and answer it once.
// "Once" holds under concurrent submits: the invitation is claimed with a conditional UPDATE
// (answered_at IS NULL) inside the transaction, and quiz_responses.invitation_id is unique.
import { type PublicAnswerInput, type PublicQuiz, QUIZ_MESSAGES, type QuizQuestion } from '@app/contracts';
import { and, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../core/action';
import { findPgError } from '../../core/db-errors';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { dealerContacts, dealers, manufacturers } from '../../db/schema';
import { escapeHtml, type MailContext, resolveMailSettings, sendMail } from '../mail/mail.service';
import { quizAlertNotices } from '../notifications/notifications.service';
import { sales } from '../sales/sales.tables';
import { hashToken, stillOpen, TOKEN_RE } from './quiz.invitations';
import { questionsOf } from './quiz.resources';
import { quizAlerts, quizAnswers, quizInvitations, quizResponses, quizzes } from './quiz.tables';

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
  rating_labels: string[];
}

async function findInvitation(db: Db, token: string): Promise<InvitationRow> {
  if (!TOKEN_RE.test(token)) throw new NotFoundError(QUIZ_MESSAGES.notFound);
  const [inv] = await db
    .select({
      id: quizInvitations.id,
      sale_id: quizInvitations.sale_id,
      quiz_id: quizInvitations.quiz_id,
      expires_at: quizInvitations.expires_at,
      answered_at: quizInvitations.answered_at,
      dealer_id: sales.dealer_id,
      dealer_name: dealers.name,
      buyer_name: sales.buyer_name,
      vin: sales.vin,
      model_name: sales.model_name,
      year: sales.year,
      brand_name: manufacturers.name,
      quiz_title: quizzes.title,
      quiz_description: quizzes.description,
      quiz_kind: quizzes.kind,
      rating_labels: quizzes.rating_labels,
    })
    .from(quizInvitations)
    .innerJoin(sales, eq(sales.id, quizInvitations.sale_id))
    .innerJoin(dealers, eq(dealers.id, sales.dealer_id))
    .innerJoin(manufacturers, eq(manufacturers.id, sales.manufacturer_id))
    .innerJoin(quizzes, eq(quizzes.id, quizInvitations.quiz_id))
    .where(eq(quizInvitations.token_hash, hashToken(token)));
  if (!inv) throw new NotFoundError(QUIZ_MESSAGES.notFound);
  return inv as InvitationRow;
}

function assertOpen(inv: InvitationRow): void {
  if (inv.answered_at) throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
  if (new Date(inv.expires_at).getTime() <= Date.now()) throw new GoneError(QUIZ_MESSAGES.expired);
}

/** Only the last 6 characters of the VIN are shown on the public page. */
export function maskVin(vin: string): string {
  return `${'*'.repeat(Math.max(0, vin.length - 6))}${vin.slice(-6)}`;
}

export async function getPublicQuiz(db: Db, token: string): Promise<PublicQuiz> {
  const inv = await findInvitation(db, token);
  assertOpen(inv);
  return {
    quiz: {
      id: inv.quiz_id,
      title: inv.quiz_title,
      description: inv.quiz_description,
      kind: inv.quiz_kind,
      rating_labels: inv.rating_labels,
      questions: await questionsOf(db, inv.quiz_id),
    },
    dealer: { name: inv.dealer_name },
    vehicle: { brand: inv.brand_name, model: inv.model_name, year: inv.year, vin: maskVin(inv.vin) },
    buyer_name: inv.buyer_name,
    expires_at: new Date(inv.expires_at).toISOString(),
  };
}

export interface CheckedAnswer {
  question_id: number;
  question: string;
  question_type: string;
  value: string | null;
  rating: number | null;
}

const YES = new Set(['si', 'sí', 'yes', 'true', '1']);
const NO = new Set(['no', 'false', '0']);

/** Checks each answer against its question; every problem is reported with the question's text. */
export function checkAnswers(questions: QuizQuestion[], input: PublicAnswerInput): CheckedAnswer[] {
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
        errors.push({ field, message: `"${q.text}": elija una calificación de 1 a 4` });
        continue;
      }
      rating = n;
      value = String(n);
    } else if (q.type === 'yesno') {
      const s = String(raw).trim().toLowerCase();
      if (raw === true || YES.has(s)) value = 'Si';
      else if (raw === false || NO.has(s)) value = 'No';
      else {
        errors.push({ field, message: `"${q.text}": responda Sí o No` });
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
  db: Db,
  mail: MailContext,
  token: string,
  input: PublicAnswerInput,
): Promise<SubmitResult> {
  const inv = await findInvitation(db, token);
  assertOpen(inv);
  const answers = checkAnswers(await questionsOf(db, inv.quiz_id), input);
  const lowest = answers.filter((a) => a.rating === 1);
  const now = sql`now()`;
  let result: SubmitResult;
  try {
    result = await db.transaction(async (tx) => {
      const claimed = await tx
        .update(quizInvitations)
        .set({ answered_at: now, updated_at: now })
        .where(stillOpen(inv.id, now))
        .returning({ id: quizInvitations.id });
      if (claimed.length === 0) throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
      const [recorded] = await recordResponses(tx, [{ inv, answers, at: now }]);
      return recorded;
    });
  } catch (err) {
    if (findPgError(err)?.code === '23505') throw new ConflictError(QUIZ_MESSAGES.alreadyAnswered);
    throw err;
  }
  if (result.alert_id) await mailAlert(db, mail, inv, lowest);
  return result;
}

/** An answered invitation, as recordResponses writes it. */
export interface AnsweredInvitation {
  inv: { id: number; sale_id: number; quiz_id: number; dealer_id: number };
  answers: CheckedAnswer[];
  at: SQL | Date;
}

/**
 * The writes of answered invitations, in the caller's transaction (a few statements whatever
 * their number): each response with its answers, the sales' survey status and, for a rating at
 * the lowest level, the alert. Answers in the order given.
 */
export async function recordResponses(tx: Tx, answered: AnsweredInvitation[]): Promise<SubmitResult[]> {
  if (!answered.length) return [];
  const responses = await tx
    .insert(quizResponses)
    .values(
      answered.map(({ inv, at }) => ({
        invitation_id: inv.id,
        sale_id: inv.sale_id,
        quiz_id: inv.quiz_id,
        dealer_id: inv.dealer_id,
        answered_at: at,
      })),
    )
    .returning({ id: quizResponses.id, invitation_id: quizResponses.invitation_id });
  const responseOf = new Map(responses.map((r) => [r.invitation_id, r.id]));
  const answers = answered.flatMap(({ inv, answers }) =>
    answers.map((a) => ({ ...a, response_id: responseOf.get(inv.id)! })),
  );
  if (answers.length) await tx.insert(quizAnswers).values(answers);
  await tx
    .update(sales)
    .set({ survey_status: 'respondida', updated_at: sql`now()` })
    .where(inArray(sales.id, [...new Set(answered.map(({ inv }) => inv.sale_id))]));
  const alerting = answered.filter(({ answers }) => answers.some((a) => a.rating === 1));
  const alerts = alerting.length
    ? await tx
        .insert(quizAlerts)
        .values(
          alerting.map(({ inv, answers, at }) => ({
            response_id: responseOf.get(inv.id)!,
            sale_id: inv.sale_id,
            dealer_id: inv.dealer_id,
            detail: answers
              .filter((a) => a.rating === 1)
              .map((a) => a.question)
              .join('\n'),
            opened_at: at,
          })),
        )
        .returning({ id: quizAlerts.id, response_id: quizAlerts.response_id })
    : [];
  await quizAlertNotices(
    tx,
    alerts.map((a) => a.id),
  );
  const alertOf = new Map(alerts.map((a) => [a.response_id, a.id]));
  return answered.map(({ inv }) => {
    const response_id = responseOf.get(inv.id)!;
    return { response_id, alert_id: alertOf.get(response_id) ?? null };
  });
}

async function mailAlert(db: Db, mail: MailContext, inv: InvitationRow, lowest: CheckedAnswer[]) {
  const contacts = await db
    .select({ email: dealerContacts.email, name: dealerContacts.name })
    .from(dealerContacts)
    .where(
      and(
        eq(dealerContacts.dealer_id, inv.dealer_id),
        eq(dealerContacts.active, true),
        eq(dealerContacts.receives_alerts, true),
        isNotNull(dealerContacts.email),
        ne(dealerContacts.email, ''),
      ),
    );
  const subject = `Alerta de satisfacción: calificación mínima - ${inv.brand_name} ${inv.model_name} (${inv.buyer_name})`;
  const list = lowest.map((a) => `- ${a.question}`).join('\n');
  const text = `El cliente ${inv.buyer_name} (VIN ${inv.vin}) calificó con el nivel más bajo:\n${list}\n\nRevise la alerta en Satisfacción de Cliente, respóndala y ciérrela.`;
  const html = `<p>El cliente <b>${escapeHtml(inv.buyer_name)}</b> (VIN ${escapeHtml(inv.vin)}) calificó con el nivel más bajo:</p><ul>${lowest
    .map((a) => `<li>${escapeHtml(a.question)}</li>`)
    .join('')}</ul><p>Revise la alerta en Satisfacción de Cliente, respóndala y ciérrela.</p>`;
  // SMTP and sender settings read once for all the contacts, as invitations do.
  const settled = contacts.length > 1 ? await resolveMailSettings(mail) : mail;
  for (const c of contacts) {
    await sendMail(settled, { to: c.email as string, subject, text, html });
  }
}
