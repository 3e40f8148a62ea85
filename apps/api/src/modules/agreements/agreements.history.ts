// An agreement's history (who, when, what) and the notice mailed to its dealer's contacts.
import {
  AGREEMENT_LEVELS,
  AGREEMENT_MESSAGES,
  AGREEMENT_STATUSES,
  type AgreementEvent,
  type AgreementNotifyResult,
  QUERY_LABELS,
} from '@app/contracts';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Executor, Tx } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ValidationError } from '../../core/errors';
import type { Row } from '../../core/resource';
import { dealerContacts, users } from '../../db/schema';
import { escapeHtml, type MailContext, resolveMailSettings, sendMail } from '../mail/mail.service';
import { agreementEvents, agreements } from './agreements.tables';

export async function agreementHistory(db: Executor, agreementId: number): Promise<AgreementEvent[]> {
  const rows = await db
    .select({
      id: agreementEvents.id,
      kind: agreementEvents.kind,
      comment: agreementEvents.comment,
      from_status: agreementEvents.from_status,
      to_status: agreementEvents.to_status,
      recipients: agreementEvents.recipients,
      user_id: agreementEvents.user_id,
      user_name: users.full_name,
      username: users.username,
      created_at: agreementEvents.created_at,
    })
    .from(agreementEvents)
    .leftJoin(users, eq(users.id, agreementEvents.user_id))
    .where(eq(agreementEvents.agreement_id, agreementId))
    .orderBy(asc(agreementEvents.id));
  return rows.map(({ username, ...r }) => ({
    ...r,
    user_name: r.user_name ?? username,
    created_at: r.created_at.toISOString(),
  })) as AgreementEvent[];
}

/** A comment, with the status change it brings (if any), as one history entry each. */
export async function addComment(
  tx: Executor,
  user: CurrentUser,
  agreement: Row,
  comment: string,
  status: string | undefined,
): Promise<void> {
  await tx
    .insert(agreementEvents)
    .values({ agreement_id: agreement.id, kind: 'comment', comment, user_id: user.id });
  if (status && status !== agreement.status) {
    await tx
      .update(agreements)
      .set({ status, updated_at: new Date() })
      .where(eq(agreements.id, agreement.id));
    await tx.insert(agreementEvents).values({
      agreement_id: agreement.id,
      kind: 'status',
      from_status: agreement.status,
      to_status: status,
      user_id: user.id,
    });
  }
}

const nameOf = (list: readonly { id: string; name: string }[], id: string) =>
  list.find((o) => o.id === id)?.name ?? id;

function agreementMail(a: Row, message: string | null | undefined, link: string) {
  const lines: [string, string][] = [
    [QUERY_LABELS.dealer, a.dealer_name ?? ''],
    ['Acuerdo', a.title],
    ['Detalle', a.detail ?? ''],
    ['Nivel', nameOf(AGREEMENT_LEVELS, a.level)],
    ['Estado', nameOf(AGREEMENT_STATUSES, a.status)],
    ['Responsable', a.responsible ?? a.dealer_contact_name ?? ''],
    ['Fecha límite', a.due_date],
  ];
  if (a.age_days) lines.push(['Días vencido', String(a.age_days)]);
  const text =
    `Estimados ${a.dealer_name ?? ''}:\n\n${message ? `${message}\n\n` : ''}` +
    `${lines.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\nVer el acuerdo: ${link}\n`;
  const html =
    `<p>Estimados ${escapeHtml(a.dealer_name ?? '')}:</p>` +
    (message ? `<p>${escapeHtml(message)}</p>` : '') +
    `<table>${lines.map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('')}</table>` +
    `<p><a href="${escapeHtml(link)}">Ver el acuerdo</a></p>`;
  return { subject: `Acuerdo de seguimiento: ${a.title}`, text, html };
}

/**
 * Mails the agreement to its dealer's active contacts with an email (or the chosen ones), then
 * records in its history that it was sent and to whom (with each message's outcome).
 */
export async function notifyAgreement(
  mail: MailContext,
  user: CurrentUser,
  agreement: Row,
  opts: { contactIds?: number[]; message?: string | null; link: string },
  /** The action's write: the history entry in one transaction with the audit row. */
  write: (fn: (tx: Tx) => Promise<AgreementNotifyResult>) => Promise<AgreementNotifyResult>,
): Promise<AgreementNotifyResult> {
  const db = mail.db;
  const contacts = await db
    .select({ id: dealerContacts.id, name: dealerContacts.name, email: dealerContacts.email })
    .from(dealerContacts)
    .where(
      and(
        eq(dealerContacts.dealer_id, agreement.dealer_id),
        eq(dealerContacts.active, true),
        isNotNull(dealerContacts.email),
        opts.contactIds?.length ? inArray(dealerContacts.id, opts.contactIds) : undefined,
      ),
    )
    .orderBy(asc(dealerContacts.name));
  if (opts.contactIds?.length && contacts.length !== new Set(opts.contactIds).size)
    throw ValidationError.field('contact_ids', AGREEMENT_MESSAGES.contactsNotOfDealer);
  if (!contacts.length)
    throw ValidationError.field('agreement_id', AGREEMENT_MESSAGES.noContacts(agreement.dealer_name ?? ''));
  const settings = await resolveMailSettings(mail);
  const msg = agreementMail(agreement, opts.message, opts.link);
  const recipients: AgreementNotifyResult['recipients'] = [];
  for (const c of contacts) {
    const outcome = await sendMail(settings, { to: c.email!, ...msg });
    recipients.push({ name: c.name, email: c.email!, status: outcome.status });
  }
  const count = (s: string) => recipients.filter((r) => r.status === s).length;
  const result: AgreementNotifyResult = {
    agreement_id: agreement.id,
    sent: count('sent'),
    pending: count('pending'),
    failed: count('failed'),
    recipients,
  };
  return write(async (tx) => {
    await tx.insert(agreementEvents).values({
      agreement_id: agreement.id,
      kind: 'notify',
      comment: opts.message ?? null,
      recipients,
      user_id: user.id,
    });
    await tx.update(agreements).set({ notified_at: new Date() }).where(eq(agreements.id, agreement.id));
    return result;
  });
}
