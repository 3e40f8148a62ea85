// Survey invitations: one unguessable single-use token per sale and questionnaire, mailed to
// the buyer (or kept in the outbox), and reminders to those who have not answered yet.
import { createHash, randomBytes } from 'node:crypto';
import type { SalesFilter, SalesQuizRequest, SalesQuizRequestResult } from '@app/contracts';
import { type AnyColumn, and, asc, eq, gt, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { AuditDetail, Db, Tx } from '../../core/action';
import { NotFoundError, ValidationError } from '../../core/errors';
import { limaToday } from '../../core/lima';
import type { Scope } from '../../core/scope';
import { dealers, manufacturers } from '../../db/schema';
import {
  deliverQueued,
  escapeHtml,
  type MailContext,
  type MailStatus,
  queueMail,
} from '../mail/mail.service';
import { readIntSetting } from '../preferences/settings';
import { sales } from '../sales/sales.tables';
import { quizInvitations, quizzes } from './quiz.tables';

/** The invitation, if it is not answered nor expired at `now` (a reminder, an answer claim). */
export function stillOpen(id: number, now: Date | SQL): SQL | undefined {
  return and(
    eq(quizInvitations.id, id),
    isNull(quizInvitations.answered_at),
    gt(quizInvitations.expires_at, now),
  );
}

export const DEFAULT_EXPIRY_DAYS = 60;
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A fresh token (32 random bytes, base64url: 43 characters) and the hash that is stored. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export function surveyLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/encuesta?token=${token}`;
}

interface SaleForInvite {
  id: number;
  dealer_id: number;
  manufacturer_id: number;
  email: string | null;
  buyer_name: string;
  model_name: string;
  year: number;
  dealer_name: string;
  brand_name: string;
}

/** `column = any(ids)` with the ids as one array parameter (a list may hold 100,000 of them). */
const anyOf = (column: AnyColumn, ids: number[]) => sql`${column} = any(${sql.param(ids)}::int[])`;

/**
 * Conditions of the sales list filters. Their dealer is the call's declared dealer: the engine's
 * scope (a dealer user's own dealer whatever it sends, another dealer answered 404 before), not
 * read here.
 */
export function salesFilterConditions(filters: SalesFilter, scope: Scope): (SQL | undefined)[] {
  return [
    scope.on(sales.dealer_id),
    filters.manufacturer_id ? eq(sales.manufacturer_id, filters.manufacturer_id) : undefined,
    filters.date_from ? gte(sales.sale_date, filters.date_from) : undefined,
    filters.date_to ? lte(sales.sale_date, filters.date_to) : undefined,
    filters.survey_status ? eq(sales.survey_status, filters.survey_status) : undefined,
  ];
}

/** The sales to invite: the ids asked for, else those of the filters, within the call's scope. */
async function loadSales(db: Db, req: SalesQuizRequest, scope: Scope) {
  const skipped: SalesQuizRequestResult['skipped'] = [];
  const where = req.sale_ids?.length
    ? [anyOf(sales.id, req.sale_ids), scope.on(sales.dealer_id)]
    : salesFilterConditions(req.filters ?? {}, scope);
  const rows: SaleForInvite[] = await db
    .select({
      id: sales.id,
      dealer_id: sales.dealer_id,
      manufacturer_id: sales.manufacturer_id,
      email: sales.email,
      buyer_name: sales.buyer_name,
      model_name: sales.model_name,
      year: sales.year,
      dealer_name: dealers.name,
      brand_name: manufacturers.name,
    })
    .from(sales)
    .innerJoin(dealers, eq(dealers.id, sales.dealer_id))
    .innerJoin(manufacturers, eq(manufacturers.id, sales.manufacturer_id))
    .where(and(...where))
    .orderBy(asc(sales.id));
  if (req.sale_ids?.length) {
    const found = new Set(rows.map((r) => r.id));
    for (const id of new Set(req.sale_ids)) {
      if (!found.has(id)) skipped.push({ sale_id: id, reason: 'Venta no encontrada' });
    }
  }
  return { rows, skipped };
}

/** The questionnaire for a sale: the requested one, else the active sales one of its brand or of all brands. */
async function quizPicker(db: Db, quizId: number | undefined) {
  const choice = { id: quizzes.id, title: quizzes.title, manufacturer_id: quizzes.manufacturer_id };
  if (quizId) {
    const [q] = await db
      .select({ ...choice, active: quizzes.active })
      .from(quizzes)
      .where(eq(quizzes.id, quizId));
    if (!q) throw new NotFoundError('Encuesta no encontrada');
    if (!q.active) throw ValidationError.field('quiz_id', 'La encuesta elegida no está habilitada');
    return (brand: number) => (q.manufacturer_id === null || q.manufacturer_id === brand ? q : undefined);
  }
  const all = await db
    .select(choice)
    .from(quizzes)
    .where(and(eq(quizzes.active, true), eq(quizzes.kind, 'sales')))
    .orderBy(asc(quizzes.id));
  return (brand: number) =>
    all.find((q) => q.manufacturer_id === brand) ?? all.find((q) => q.manufacturer_id === null);
}

export interface InviteContext {
  /** Reads only: every write goes through `write`. */
  db: Db;
  mail: MailContext;
  publicUrl: string;
  /** The call's write: one transaction with its one audit row (ctx.write of the action). */
  write<R>(fn: (tx: Tx) => Promise<R>, detail?: (result: R) => AuditDetail): Promise<R>;
}

function invitationMail(
  sale: SaleForInvite,
  quizTitle: string,
  link: string,
  expires: Date,
  reminder: boolean,
) {
  // The buyer reads Lima's date (dd/mm/aaaa), not the UTC one of the expiry instant.
  const [y, m, d] = limaToday(expires.getTime()).split('-');
  const until = `${d}/${m}/${y}`;
  const subject = `${reminder ? 'Recordatorio: ' : ''}Encuesta de Satisfacción - ${sale.brand_name} ${sale.model_name}`;
  const text = [
    `Estimado(a) ${sale.buyer_name}:`,
    '',
    `Gracias por la compra de su ${sale.brand_name} ${sale.model_name} ${sale.year} en ${sale.dealer_name}.`,
    `Queremos conocer su opinión. Responda la encuesta "${quizTitle}" en este enlace (válido hasta el ${until}):`,
    link,
    '',
    'El enlace es personal y solo puede usarse una vez.',
  ].join('\n');
  const html = `<p>Estimado(a) ${escapeHtml(sale.buyer_name)}:</p>
<p>Gracias por la compra de su ${escapeHtml(`${sale.brand_name} ${sale.model_name} ${sale.year}`)} en ${escapeHtml(sale.dealer_name)}.</p>
<p>Queremos conocer su opinión. Responda la encuesta <b>${escapeHtml(quizTitle)}</b> (válida hasta el ${until}):</p>
<p><a href="${escapeHtml(link)}">Responder la encuesta</a></p>
<p>El enlace es personal y solo puede usarse una vez.</p>`;
  return { to: sale.email as string, subject, text, html };
}

const mailStatus = (s: MailStatus) => (s === 'sent' ? 'sent' : s === 'pending' ? 'queued' : 'failed');

/**
 * POST /api/sales-quiz-request. New invitations for sales not yet invited to the questionnaire;
 * with `reminder`, also a reminder (new link, same expiry) to invitations neither answered nor expired.
 * All of it is one transaction with one audit row (how many invited, reminded and skipped): the
 * mails are queued in the outbox in it and delivered once it has committed.
 */
export async function requestInvitations(
  ctx: InviteContext,
  req: SalesQuizRequest,
  scope: Scope,
): Promise<SalesQuizRequestResult> {
  const { db } = ctx;
  const { rows, skipped } = await loadSales(db, req, scope);
  const pick = await quizPicker(db, req.quiz_id);
  const days = await readIntSetting(db, 'SURVEY_EXPIRY_DAYS', DEFAULT_EXPIRY_DAYS);
  const existing = new Map<string, { id: number; answered_at: Date | null; expires_at: Date }>();
  if (rows.length) {
    const inv = await db
      .select({
        id: quizInvitations.id,
        sale_id: quizInvitations.sale_id,
        quiz_id: quizInvitations.quiz_id,
        answered_at: quizInvitations.answered_at,
        expires_at: quizInvitations.expires_at,
      })
      .from(quizInvitations)
      .where(
        anyOf(
          quizInvitations.sale_id,
          rows.map((r) => r.id),
        ),
      );
    for (const i of inv) existing.set(`${i.sale_id}|${i.quiz_id}`, i);
  }
  const now = sql`now()`;
  const started = Date.now();
  const run = async (tx: Tx) => {
    let invited = 0;
    let reminded = 0;
    const queued: { invitation: number; outbox: number }[] = [];
    const recordMail = async (invitation: number, outbox: number) => {
      await tx
        .update(quizInvitations)
        .set({ email_status: 'queued', mail_outbox_id: outbox })
        .where(eq(quizInvitations.id, invitation));
      queued.push({ invitation, outbox });
    };
    for (const sale of rows) {
      const quiz = pick(sale.manufacturer_id);
      if (!quiz) {
        skipped.push({
          sale_id: sale.id,
          buyer: sale.buyer_name,
          reason: 'No hay una encuesta habilitada para la marca de la venta',
        });
        continue;
      }
      const email = sale.email?.trim() ?? '';
      if (!EMAIL_RE.test(email)) {
        skipped.push({
          sale_id: sale.id,
          buyer: sale.buyer_name,
          reason: email ? `Email "${email}" no es válido` : 'La venta no tiene Email',
        });
        await tx
          .update(sales)
          .set({ survey_status: 'contacto_invalido', updated_at: now })
          .where(eq(sales.id, sale.id));
        continue;
      }
      const prior = existing.get(`${sale.id}|${quiz.id}`);
      const { token, hash } = newToken();
      const link = surveyLink(ctx.publicUrl, token);
      if (prior) {
        if (!req.reminder) {
          skipped.push({
            sale_id: sale.id,
            buyer: sale.buyer_name,
            reason: 'Ya fue invitada a esta encuesta',
          });
        } else if (prior.answered_at) {
          skipped.push({ sale_id: sale.id, buyer: sale.buyer_name, reason: 'Ya respondió la encuesta' });
        } else if (new Date(prior.expires_at).getTime() <= started) {
          skipped.push({ sale_id: sale.id, buyer: sale.buyer_name, reason: 'La invitación expiró' });
        } else {
          // Only the hash is kept, so a reminder carries a new link; the previous one stops working.
          const updated = await tx
            .update(quizInvitations)
            .set({
              token_hash: hash,
              reminded_at: now,
              reminder_count: sql`${quizInvitations.reminder_count} + 1`,
              email,
              updated_at: now,
            })
            .where(stillOpen(prior.id, now))
            .returning({ id: quizInvitations.id });
          if (!updated.length) {
            skipped.push({ sale_id: sale.id, buyer: sale.buyer_name, reason: 'Ya respondió la encuesta' });
            continue;
          }
          const outbox = await queueMail(
            tx,
            invitationMail(sale, quiz.title, link, new Date(prior.expires_at), true),
          );
          await recordMail(prior.id, outbox);
          reminded++;
        }
        continue;
      }
      const expires = new Date(started + days * 86_400_000);
      const created = await tx
        .insert(quizInvitations)
        .values({
          sale_id: sale.id,
          quiz_id: quiz.id,
          token_hash: hash,
          email,
          expires_at: expires,
          sent_at: now,
          email_status: 'queued',
        })
        .onConflictDoNothing({ target: [quizInvitations.sale_id, quizInvitations.quiz_id] })
        .returning({ id: quizInvitations.id });
      if (!created.length) {
        skipped.push({ sale_id: sale.id, buyer: sale.buyer_name, reason: 'Ya fue invitada a esta encuesta' });
        continue;
      }
      const outbox = await queueMail(tx, invitationMail(sale, quiz.title, link, expires, false));
      await recordMail(created[0].id, outbox);
      await tx
        .update(sales)
        .set({ survey_status: 'enviada', updated_at: now })
        .where(and(eq(sales.id, sale.id), ne(sales.survey_status, 'respondida')));
      invited++;
    }
    return { invited, reminded, skipped, queued };
  };
  const { queued, ...result } = await ctx.write(run, (r) => ({
    after: {
      invited: r.invited,
      reminded: r.reminded,
      skipped: r.skipped.length,
      quiz_id: req.quiz_id ?? null,
    },
  }));
  // Committed: the mails go out now (without SMTP they wait in the outbox, as queued).
  const outcomes = await deliverQueued(
    ctx.mail,
    queued.map((q) => q.outbox),
  );
  const failed = queued.filter((q) => outcomes.get(q.outbox) === 'failed').map((q) => q.invitation);
  if (failed.length)
    await ctx.mail.db
      .update(quizInvitations)
      .set({ email_status: mailStatus('failed') })
      .where(inArray(quizInvitations.id, failed));
  return result;
}
