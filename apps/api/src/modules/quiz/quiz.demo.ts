// The demo network's surveys: most demo sales invited two days after the sale and answered within
// a week, with each dealer's own spread of scores (some dealers better than others), a few ratings
// at the lowest level raising alerts (the older ones replied, one or two closed), some buyers who
// never answered, and the after-sales questionnaire for older sales. Answers are checked and
// written by the public survey's own functions (checkAnswers, recordResponses). Idempotent: only
// demo sales without an invitation are invited, so a second run adds nothing.
import { and, asc, eq, inArray, isNull, like, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../core/action';
import { limaToday } from '../../core/lima';
import { users } from '../../db/schema';
import { sales } from '../sales/sales.tables';
import { DEFAULT_EXPIRY_DAYS, newToken } from './quiz.invitations';
import { type CheckedAnswer, checkAnswers, recordResponses } from './quiz.public';
import { questionsOf } from './quiz.resources';
import { quizAlerts, quizInvitations, quizzes } from './quiz.tables';

/** A number in [0, 1) from a text: the same sale always gets the same invitation and answers. */
function chance(text: string, salt: number): number {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  h = Math.imul(h ^ (h >>> 15), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

const DAY = 86_400_000;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);

/** A rating 1-4 for a dealer whose service is `quality` (0 weak … 1 excellent). */
function rating(quality: number, r: number): number {
  const top = 0.35 + 0.45 * quality;
  // Rare: with three rated questions, about one answer in forty raises an alert.
  const low = 0.014 - 0.01 * quality;
  if (r < low) return 1;
  if (r < low + 0.12 - 0.08 * quality) return 2;
  if (r < 1 - top) return 3;
  return 4;
}

const COMMENTS = [
  'Muy buena atención, gracias.',
  'La entrega se demoró un poco.',
  'Todo conforme.',
  'Deberían explicar mejor el plan de mantenimiento.',
  '',
];

interface DemoSale {
  id: number;
  vin: string;
  dealer_id: number;
  dealer_code: string | null;
  sale_date: string;
  manufacturer_id: number;
  email: string | null;
}

export interface SurveyDemoResult {
  invitations: number;
  responses: number;
  alerts: number;
}

/**
 * Invites and answers the demo sales (VINs starting with `vinPrefix`) that have no invitation yet.
 * `quality` gives each dealer's level of service (0 … 1) by dealer code.
 */
export async function seedSurveyDemo(
  db: Db,
  opts: { vinPrefix: string; quality: (dealerCode: string) => number },
): Promise<SurveyDemoResult> {
  const out: SurveyDemoResult = { invitations: 0, responses: 0, alerts: 0 };
  const activeQuizzes = await db
    .select({ id: quizzes.id, kind: quizzes.kind, manufacturer_id: quizzes.manufacturer_id })
    .from(quizzes)
    .where(eq(quizzes.active, true))
    .orderBy(asc(quizzes.id));
  const salesQuiz = activeQuizzes.find((q) => q.kind === 'sales' && q.manufacturer_id === null);
  const afterSalesQuiz = activeQuizzes.find((q) => q.kind === 'postventa' && q.manufacturer_id === null);
  if (!salesQuiz) return out;
  const questions = new Map([[salesQuiz.id, await questionsOf(db, salesQuiz.id)]]);
  if (afterSalesQuiz) questions.set(afterSalesQuiz.id, await questionsOf(db, afterSalesQuiz.id));

  const pending: DemoSale[] = await db
    .select({
      id: sales.id,
      vin: sales.vin,
      dealer_id: sales.dealer_id,
      dealer_code: sql<string | null>`(select code from dealers where dealers.id = ${sales.dealer_id})`,
      sale_date: sales.sale_date,
      manufacturer_id: sales.manufacturer_id,
      email: sales.email,
    })
    .from(sales)
    .leftJoin(quizInvitations, eq(quizInvitations.sale_id, sales.id))
    .where(and(like(sales.vin, `${opts.vinPrefix}%`), isNull(quizInvitations.id)))
    .orderBy(asc(sales.sale_date), asc(sales.id));
  const [manager] = await db.select({ id: users.id }).from(users).where(eq(users.username, 'gerente.red'));
  // Decided by Lima's day on the server's clock (core/lima, which tests pin), not by the hour: a
  // run at 09:00 and one at 23:00 of the same day invite and answer the same sales. What is
  // sent or answered is dated before today began, so never later than now.
  const today = Date.parse(`${limaToday()}T00:00:00-05:00`);

  // What happens to each sale, decided first; then written in a few statements.
  const invalid: number[] = [];
  const planned: {
    sale: DemoSale;
    quizId: number;
    sent: Date;
    answeredAt: Date | null;
    quality: number;
    salt: number;
  }[] = [];
  for (const sale of pending) {
    const sold = new Date(`${sale.sale_date}T15:00:00Z`);
    const sent = addDays(sold, 2);
    if (sent.getTime() >= today) continue; // Too recent: the invitation goes out later.
    const r = (salt: number) => chance(sale.vin, salt);
    // One buyer in twenty-five left no usable address.
    if (r(1) < 0.04 || !sale.email) {
      invalid.push(sale.id);
      continue;
    }
    const quality = opts.quality(sale.dealer_code ?? '');
    // Answered one to six days after the invitation, before today (an invitation sent yesterday
    // is not answered next week: that answer, and its alert, would lie in the future).
    const answeredAfter = (s: Date, p: number, salt: number) => {
      const at = addDays(s, 1 + Math.floor(r(salt + 1) * 6));
      return r(salt) < p && at.getTime() < today ? at : null;
    };
    planned.push({
      sale,
      quizId: salesQuiz.id,
      sent,
      answeredAt: answeredAfter(sent, 0.72 + 0.2 * quality, 2),
      quality,
      salt: 0,
    });
    // The after-sales questionnaire, after the first service (four months on), for half of them.
    const serviced = addDays(sold, 120);
    if (afterSalesQuiz && serviced.getTime() < today - 6 * DAY && r(10) < 0.5) {
      planned.push({
        sale,
        quizId: afterSalesQuiz.id,
        sent: serviced,
        answeredAt: answeredAfter(serviced, 0.6 + 0.2 * quality, 11),
        quality,
        salt: 20,
      });
    }
  }
  if (!planned.length && !invalid.length) return out;

  await db.transaction(async (tx) => {
    if (invalid.length)
      await tx.update(sales).set({ survey_status: 'contacto_invalido' }).where(inArray(sales.id, invalid));
    if (!planned.length) return;
    const invitations = await tx
      .insert(quizInvitations)
      .values(
        planned.map((p) => ({
          sale_id: p.sale.id,
          quiz_id: p.quizId,
          token_hash: newToken().hash,
          email: p.sale.email!,
          expires_at: addDays(p.sent, DEFAULT_EXPIRY_DAYS),
          sent_at: p.sent,
          answered_at: p.answeredAt,
          email_status: 'sent',
        })),
      )
      .returning({ id: quizInvitations.id });
    out.invitations = invitations.length;
    await tx
      .update(sales)
      .set({ survey_status: 'enviada' })
      .where(inArray(sales.id, [...new Set(planned.map((p) => p.sale.id))]));
    const answered = planned.flatMap((p, i) =>
      p.answeredAt
        ? [
            {
              inv: {
                id: invitations[i].id,
                sale_id: p.sale.id,
                quiz_id: p.quizId,
                dealer_id: p.sale.dealer_id,
              },
              answers: answersOf(questions.get(p.quizId)!, p.quality, (salt) =>
                chance(p.sale.vin, salt + p.salt),
              ),
              at: p.answeredAt,
            },
          ]
        : [],
    );
    const results = await recordResponses(tx, answered);
    out.responses = results.length;
    for (const [i, result] of results.entries()) {
      if (!result.alert_id) continue;
      out.alerts++;
      const r = chance(answered[i].inv.sale_id.toString(), 9 + answered[i].inv.quiz_id);
      await followUp(tx, result.alert_id, answered[i].at, manager?.id ?? null, r, today);
    }
  });
  return out;
}

/** The buyer's answers: ratings spread by the dealer's quality, checked as the public survey does. */
function answersOf(
  questionList: Awaited<ReturnType<typeof questionsOf>>,
  quality: number,
  r: (salt: number) => number,
): CheckedAnswer[] {
  const given = questionList.map((q, i) => {
    const x = r(30 + i);
    if (q.type === 'rating4') return { question_id: q.id, value: rating(quality, x) };
    if (q.type === 'yesno') return { question_id: q.id, value: x < 0.8 + 0.15 * quality ? 'Si' : 'No' };
    if (q.type === 'choice') {
      const options = q.options ?? [];
      return { question_id: q.id, value: options[x < 0.55 + 0.3 * quality ? 0 : x < 0.93 ? 1 : 2] };
    }
    return { question_id: q.id, value: COMMENTS[Math.floor(x * COMMENTS.length)] };
  });
  return checkAnswers(questionList, { answers: given });
}

/** What the dealer did with an alert, by its age. */
async function followUp(
  tx: Tx,
  alertId: number,
  opened: Date,
  userId: number | null,
  r: number,
  today: number,
): Promise<void> {
  const age = (today - opened.getTime()) / DAY;
  // Recent ones wait for the dealer; of the older ones some were forgotten, most replied, a few closed.
  if (age < 20 || r < 0.3) return;
  const replied = addDays(opened, 2);
  const closed = r > 0.7 ? addDays(opened, 6) : null;
  await tx
    .update(quizAlerts)
    .set({
      reply: closed
        ? 'Se llamó al cliente, se revisaron sus observaciones y se le ofreció un servicio de cortesía. Conforme.'
        : 'Se llamó al cliente; se coordina una visita al taller para atender su reclamo.',
      replied_at: replied,
      replied_by: userId,
      closed_at: closed,
      closed_by: closed ? userId : null,
    })
    .where(inArray(quizAlerts.id, [alertId]));
}
