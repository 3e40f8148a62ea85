// Survey invitations: one unguessable single-use token per sale and questionnaire, mailed to
// the buyer (or kept in the outbox), and reminders to those who have not answered yet.
import { createHash, randomBytes } from 'node:crypto';
import type { SalesFilter, SalesQuizRequest, SalesQuizRequestResult } from '@app/contracts';
import type { CurrentUser } from '../../core/context';
import { NotFoundError, ValidationError } from '../../core/errors';
import type { DatabaseHandle } from '../../db/client';
import { escapeHtml, type MailContext, resolveMailSettings, sendMail } from '../mail/mail.service';
import { readIntSetting } from '../preferences/settings';

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

const SALE_COLUMNS = `s.id, s.dealer_id, s.manufacturer_id, s.email, s.buyer_name, s.model_name, s.year,
  d.name as dealer_name, m.name as brand_name`;
const SALE_FROM =
  'from sales s join dealers d on d.id = s.dealer_id join manufacturers m on m.id = s.manufacturer_id';

/** SQL conditions of the sales list filters; dealer users are always limited to their dealer. */
export function salesFilterSql(
  filters: SalesFilter,
  user: Pick<CurrentUser, 'dealerId'>,
  params: unknown[],
  alias = 's',
): string[] {
  const where: string[] = [];
  const add = (cond: string, value: unknown) => {
    params.push(value);
    where.push(cond.replace('?', `$${params.length}`));
  };
  if (user.dealerId !== null) add(`${alias}.dealer_id = ?`, user.dealerId);
  else if (filters.dealer_id) add(`${alias}.dealer_id = ?`, filters.dealer_id);
  if (filters.manufacturer_id) add(`${alias}.manufacturer_id = ?`, filters.manufacturer_id);
  if (filters.date_from) add(`${alias}.sale_date >= ?::date`, filters.date_from);
  if (filters.date_to) add(`${alias}.sale_date <= ?::date`, filters.date_to);
  if (filters.survey_status) add(`${alias}.survey_status = ?`, filters.survey_status);
  return where;
}

async function loadSales(handle: DatabaseHandle, req: SalesQuizRequest, user: CurrentUser) {
  const params: unknown[] = [];
  const skipped: { sale_id: number; reason: string }[] = [];
  let where: string[];
  if (req.sale_ids?.length) {
    params.push(req.sale_ids);
    where = ['s.id = any($1::int[])'];
    if (user.dealerId !== null) {
      params.push(user.dealerId);
      where.push(`s.dealer_id = $${params.length}`);
    }
  } else {
    where = salesFilterSql(req.filters ?? {}, user, params);
  }
  const rows = await handle.query<SaleForInvite>(
    `select ${SALE_COLUMNS} ${SALE_FROM} ${where.length ? `where ${where.join(' and ')}` : ''} order by s.id`,
    params,
  );
  if (req.sale_ids?.length) {
    const found = new Set(rows.map((r) => r.id));
    for (const id of new Set(req.sale_ids)) {
      if (!found.has(id)) skipped.push({ sale_id: id, reason: 'Venta no encontrada' });
    }
  }
  return { rows, skipped };
}

interface QuizChoice {
  id: number;
  title: string;
  manufacturer_id: number | null;
}

/** The questionnaire for a sale: the requested one, else the active sales one of its brand or of all brands. */
async function quizPicker(handle: DatabaseHandle, quizId: number | undefined) {
  if (quizId) {
    const [q] = await handle.query<QuizChoice & { active: boolean }>(
      'select id, title, manufacturer_id, active from quizzes where id = $1',
      [quizId],
    );
    if (!q) throw new NotFoundError('Encuesta no encontrada');
    if (!q.active) throw ValidationError.field('quiz_id', 'La encuesta elegida no esta habilitada');
    return (brand: number) => (q.manufacturer_id === null || q.manufacturer_id === brand ? q : undefined);
  }
  const all = await handle.query<QuizChoice>(
    `select id, title, manufacturer_id from quizzes where active and kind = 'sales' order by id`,
  );
  return (brand: number) =>
    all.find((q) => q.manufacturer_id === brand) ?? all.find((q) => q.manufacturer_id === null);
}

export interface InviteContext {
  handle: DatabaseHandle;
  mail: MailContext;
  publicUrl: string;
}

function invitationMail(
  sale: SaleForInvite,
  quizTitle: string,
  link: string,
  expires: Date,
  reminder: boolean,
) {
  const until = expires.toISOString().slice(0, 10);
  const subject = `${reminder ? 'Recordatorio: ' : ''}Encuesta de Satisfaccion - ${sale.brand_name} ${sale.model_name}`;
  const text = [
    `Estimado(a) ${sale.buyer_name}:`,
    '',
    `Gracias por la compra de su ${sale.brand_name} ${sale.model_name} ${sale.year} en ${sale.dealer_name}.`,
    `Queremos conocer su opinion. Responda la encuesta "${quizTitle}" en este enlace (valido hasta el ${until}):`,
    link,
    '',
    'El enlace es personal y solo puede usarse una vez.',
  ].join('\n');
  const html = `<p>Estimado(a) ${escapeHtml(sale.buyer_name)}:</p>
<p>Gracias por la compra de su ${escapeHtml(`${sale.brand_name} ${sale.model_name} ${sale.year}`)} en ${escapeHtml(sale.dealer_name)}.</p>
<p>Queremos conocer su opinion. Responda la encuesta <b>${escapeHtml(quizTitle)}</b> (valida hasta el ${until}):</p>
<p><a href="${escapeHtml(link)}">Responder la encuesta</a></p>
<p>El enlace es personal y solo puede usarse una vez.</p>`;
  return { to: sale.email as string, subject, text, html };
}

const mailStatus = (s: string) => (s === 'sent' ? 'sent' : s === 'pending' ? 'queued' : 'failed');

/**
 * POST /api/sales-quiz-request. New invitations for sales not yet invited to the questionnaire;
 * with `reminder`, also a reminder (new link, same expiry) to invitations neither answered nor expired.
 */
export async function requestInvitations(
  ctx: InviteContext,
  req: SalesQuizRequest,
  user: CurrentUser,
): Promise<SalesQuizRequestResult> {
  const { handle } = ctx;
  const mail = await resolveMailSettings(ctx.mail);
  const { rows, skipped } = await loadSales(handle, req, user);
  const pick = await quizPicker(handle, req.quiz_id);
  const days = await readIntSetting(handle.db, 'SURVEY_EXPIRY_DAYS', DEFAULT_EXPIRY_DAYS);
  const existing = new Map<string, { id: number; answered_at: Date | null; expires_at: Date }>();
  if (rows.length) {
    const inv = await handle.query<{
      id: number;
      sale_id: number;
      quiz_id: number;
      answered_at: Date | null;
      expires_at: Date;
    }>(
      'select id, sale_id, quiz_id, answered_at, expires_at from quiz_invitations where sale_id = any($1::int[])',
      [rows.map((r) => r.id)],
    );
    for (const i of inv) existing.set(`${i.sale_id}|${i.quiz_id}`, i);
  }
  let invited = 0;
  let reminded = 0;
  const now = Date.now();
  for (const sale of rows) {
    const quiz = pick(sale.manufacturer_id);
    if (!quiz) {
      skipped.push({ sale_id: sale.id, reason: 'No hay una encuesta habilitada para la marca de la venta' });
      continue;
    }
    const email = sale.email?.trim() ?? '';
    if (!EMAIL_RE.test(email)) {
      skipped.push({
        sale_id: sale.id,
        reason: email ? `Email "${email}" no es valido` : 'La venta no tiene Email',
      });
      await handle.query(
        `update sales set survey_status = 'contacto_invalido', updated_at = now() where id = $1`,
        [sale.id],
      );
      continue;
    }
    const prior = existing.get(`${sale.id}|${quiz.id}`);
    const { token, hash } = newToken();
    const link = surveyLink(ctx.publicUrl, token);
    if (prior) {
      if (!req.reminder) {
        skipped.push({ sale_id: sale.id, reason: 'Ya fue invitada a esta encuesta' });
      } else if (prior.answered_at) {
        skipped.push({ sale_id: sale.id, reason: 'Ya respondio la encuesta' });
      } else if (new Date(prior.expires_at).getTime() <= now) {
        skipped.push({ sale_id: sale.id, reason: 'La invitacion expiro' });
      } else {
        // Only the hash is kept, so a reminder carries a new link; the previous one stops working.
        const updated = await handle.query<{ id: number }>(
          `update quiz_invitations set token_hash = $2, reminded_at = now(), reminder_count = reminder_count + 1,
             email = $3, updated_at = now() where id = $1 and answered_at is null and expires_at > now() returning id`,
          [prior.id, hash, email],
        );
        if (!updated.length) {
          skipped.push({ sale_id: sale.id, reason: 'Ya respondio la encuesta' });
          continue;
        }
        const out = await sendMail(
          mail,
          invitationMail(sale, quiz.title, link, new Date(prior.expires_at), true),
        );
        await handle.query(
          'update quiz_invitations set email_status = $2, mail_outbox_id = $3 where id = $1',
          [prior.id, mailStatus(out.status), out.outboxId],
        );
        reminded++;
      }
      continue;
    }
    const expires = new Date(now + days * 86_400_000);
    const created = await handle.query<{ id: number }>(
      `insert into quiz_invitations (sale_id, quiz_id, token_hash, email, expires_at, sent_at, email_status)
       values ($1, $2, $3, $4, $5, now(), 'queued') on conflict (sale_id, quiz_id) do nothing returning id`,
      [sale.id, quiz.id, hash, email, expires.toISOString()],
    );
    if (!created.length) {
      skipped.push({ sale_id: sale.id, reason: 'Ya fue invitada a esta encuesta' });
      continue;
    }
    const out = await sendMail(mail, invitationMail(sale, quiz.title, link, expires, false));
    await handle.query('update quiz_invitations set email_status = $2, mail_outbox_id = $3 where id = $1', [
      created[0].id,
      mailStatus(out.status),
      out.outboxId,
    ]);
    await handle.query(
      `update sales set survey_status = 'enviada', updated_at = now() where id = $1 and survey_status <> 'respondida'`,
      [sale.id],
    );
    invited++;
  }
  return { invited, reminded, skipped };
}
