// Outgoing mail for every module. Every message is written to `mail_outbox`; with SMTP
// configured (SMTP_URL in the environment, or the SMTP_URL configuration) it is delivered at
// once through nodemailer and marked sent, otherwise it stays pending (and a log line says so)
// until `flushOutbox` runs with SMTP configured. No message is lost either way.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db, Executor } from '../../core/action';
import { type MailAttachment, mailOutbox } from '../../db/schema';
import { redactUrlCredentials } from '../../lib/log-redact';
import { hostOf, internalHostMessage, internalHostReason } from '../../lib/outbound-host';
import { readSetting } from '../preferences/settings';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with it (kept in the outbox with the message, so a retry sends them too). */
  attachments?: MailAttachment[];
}

export interface MailContext {
  db: Db;
  /** SMTP_URL from the environment; the configurations table is read when this is unset. */
  smtpUrl?: string;
  from?: string;
  log?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  /** Settings read once for a run of many messages (see `resolveMailSettings`). */
  resolved?: { smtpUrl?: string; from: string };
}

/** The mail context of the app: its database, SMTP_URL from the environment and its log. */
export function mailContext(app: FastifyInstance): MailContext {
  return { db: app.ctx.handle.db, smtpUrl: app.ctx.config.smtpUrl, log: app.log };
}

export type MailStatus = 'sent' | 'pending' | 'failed';

export interface MailOutcome {
  outboxId: number;
  status: MailStatus;
  error?: string;
}

const DEFAULT_FROM = 'Red de Concesionarios <no-responder@localhost>';
const transports = new Map<string, Transporter>();

/**
 * nodemailer is loaded with the first message sent, not at every start. The SMTP_URL of the
 * settings (an administrator's) may not reach an internal address (lib/outbound-host): its name
 * is resolved and checked, and the connection goes to that checked address (`servername` keeps
 * the certificate's check on the name). The environment's SMTP_URL is the operator's: trusted.
 */
async function transportFor(url: string, trusted: boolean): Promise<Transporter> {
  let key = url;
  let pinned: { host: string; servername: string } | undefined;
  if (!trusted) {
    const target = await checkedSmtpTarget(url);
    if ('refused' in target) throw new DeliveryError(target.refused, false);
    if (target.address) {
      pinned = { host: target.address, servername: target.name };
      key = `${url}\n${target.address}`;
    }
  }
  let t = transports.get(key);
  if (!t) {
    const { default: nodemailer } = await import('nodemailer');
    const { parseConnectionUrl } = await import('nodemailer/lib/shared/index.js');
    t =
      transports.get(key) ??
      nodemailer.createTransport(pinned ? { ...parseConnectionUrl(url), ...pinned } : url);
    transports.set(key, t);
  }
  return t;
}

/** The SMTP host of a setting: refused, or the address to connect to (none: leave it to nodemailer). */
async function checkedSmtpTarget(
  url: string,
): Promise<{ refused: string } | { name: string; address?: string }> {
  let name: string;
  try {
    name = hostOf(new URL(url));
  } catch {
    return { name: '' };
  }
  if (!name) return { name };
  if (await internalHostReason(name)) return { refused: internalHostMessage('SMTP_URL') };
  if (isIP(name)) return { name, address: name };
  try {
    return { name, address: (await lookup(name)).address };
  } catch {
    return { name };
  }
}

/** The environment's SMTP_URL (the operator's), as opposed to the settings' (an administrator's). */
const isOperatorSmtp = (ctx: MailContext, url: string) => !!ctx.smtpUrl && url === ctx.smtpUrl;

export async function resolveSmtpUrl(ctx: MailContext): Promise<string | undefined> {
  if (ctx.resolved) return ctx.resolved.smtpUrl;
  return ctx.smtpUrl ?? (await readSetting(ctx.db, 'SMTP_URL'));
}

/** A context that reads the SMTP and sender settings once, for sending many messages. */
export async function resolveMailSettings(ctx: MailContext): Promise<MailContext> {
  return { ...ctx, resolved: { smtpUrl: await resolveSmtpUrl(ctx), from: await resolveFrom(ctx) } };
}

async function resolveFrom(ctx: MailContext): Promise<string> {
  if (ctx.from) return ctx.from;
  if (ctx.resolved) return ctx.resolved.from;
  const address = await readSetting(ctx.db, 'MAIL_FROM_ADDRESS');
  if (!address) return DEFAULT_FROM;
  const name = (await readSetting(ctx.db, 'MAIL_FROM_NAME'))?.replace(/["<>]/g, '');
  return name ? `"${name}" <${address}>` : address;
}

/** nodemailer's codes for a server that cannot be reached (as opposed to a refused message). */
const UNREACHABLE = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET']);

/** A delivery error: its text, and whether the SMTP server could not be reached at all. */
class DeliveryError {
  constructor(
    readonly message: string,
    readonly unreachable: boolean,
  ) {}
  toString() {
    return this.message;
  }
}

async function deliver(
  url: string,
  from: string,
  msg: MailMessage,
  trusted: boolean,
): Promise<DeliveryError | undefined> {
  try {
    const transport = await transportFor(url, trusted);
    await transport.sendMail({
      from,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
      attachments: msg.attachments?.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        content: Buffer.from(a.content, 'base64'),
      })),
    });
    return undefined;
  } catch (err) {
    if (err instanceof DeliveryError) return err;
    const code = (err as { code?: string }).code ?? '';
    // The text is logged and shown in the outbox: never the SMTP URL's credentials.
    const message = redactUrlCredentials(err instanceof Error ? err.message : String(err));
    return new DeliveryError(message, UNREACHABLE.has(code));
  }
}

/**
 * Sends (or queues) one message, written to the outbox as `queueMails` writes it (attachments
 * included, so a retry sends them too). Never throws for a delivery failure: the outcome says it.
 */
export async function sendMail(ctx: MailContext, msg: MailMessage): Promise<MailOutcome> {
  const [outboxId] = await queueMails(ctx.db, [msg]);
  const url = await resolveSmtpUrl(ctx);
  if (!url) {
    ctx.log?.info({ outboxId, to: msg.to }, 'SMTP no configurado: correo guardado en mail_outbox');
    return { outboxId, status: 'pending' };
  }
  const error = await deliver(url, await resolveFrom(ctx), msg, isOperatorSmtp(ctx, url));
  await markOutcome(ctx.db, outboxId, error?.message);
  if (error) ctx.log?.warn({ outboxId, to: msg.to, error: error.message }, 'envío de correo fallido');
  else await announceSent(ctx.db, [outboxId]);
  return { outboxId, status: error ? 'failed' : 'sent', error: error?.message };
}

/**
 * Keeps a message in the outbox, to be delivered by `deliverQueued` once the caller's
 * transaction has committed (so a rolled-back call sends nothing). `db` is that transaction.
 */
export async function queueMail(db: Executor, msg: MailMessage): Promise<number> {
  const [id] = await queueMails(db, [msg]);
  return id;
}

/**
 * Delivers the outbox messages queued by a committed call (without SMTP they wait, pending):
 * the outcome of each id, recorded in the outbox as `sendMail` records it. It holds the lock of
 * the automatic retry (waiting for it) and sends only what is still unsent, so a retry running at
 * the same moment (on this server or another) cannot send a message twice. `stopAtUnreachable`:
 * when the SMTP server cannot be reached, the rest stay pending for the retry instead of each
 * waiting for its own refusal (a scheduled mailing to many recipients).
 */
export async function deliverQueued(
  ctx: MailContext,
  ids: number[],
  { stopAtUnreachable = false } = {},
): Promise<Map<number, MailStatus>> {
  const out = new Map<number, MailStatus>(ids.map((id) => [id, 'pending']));
  const url = ids.length ? await resolveSmtpUrl(ctx) : undefined;
  if (!url) {
    if (ids.length)
      ctx.log?.info({ queued: ids.length }, 'SMTP no configurado: correos guardados en mail_outbox');
    return out;
  }
  const from = await resolveFrom(ctx);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RETRY_LOCK})`);
    const db = tx as unknown as Db;
    const rows = await db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, ids))
      .orderBy(asc(mailOutbox.id));
    // Sent meanwhile by the retry (it held the lock first): not sent again.
    for (const m of rows) if (m.status === 'sent') out.set(m.id, 'sent');
    const unsent = rows.filter((m) => m.status !== 'sent');
    for (const [id, status] of await sendRows({ ...ctx, db }, url, from, unsent, stopAtUnreachable))
      out.set(id, status);
    return out;
  });
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * The one sending loop of the outbox: each row in order, its outcome recorded on the row (sent,
 * or failed with the reason) and the sent ones announced to the modules. With `stopAtUnreachable`
 * it stops at the first message the SMTP server cannot be reached for; the rest are left as they
 * were (absent from the answer).
 */
async function sendRows(
  ctx: MailContext,
  url: string,
  from: string,
  rows: OutboxRow[],
  stopAtUnreachable: boolean,
): Promise<Map<number, 'sent' | 'failed'>> {
  const out = new Map<number, 'sent' | 'failed'>();
  const sentIds: number[] = [];
  for (const m of rows) {
    const msg = {
      to: m.to,
      subject: m.subject,
      text: m.text ?? '',
      html: m.html ?? undefined,
      attachments: m.attachments ?? undefined,
    };
    const error = await deliver(url, from, msg, isOperatorSmtp(ctx, url));
    await markOutcome(ctx.db, m.id, error?.message);
    out.set(m.id, error ? 'failed' : 'sent');
    if (!error) {
      sentIds.push(m.id);
      continue;
    }
    ctx.log?.warn({ outboxId: m.id, to: m.to, error: error.message }, 'envío de correo fallido');
    if (stopAtUnreachable && error.unreachable) break;
  }
  await announceSent(ctx.db, sentIds);
  return out;
}

/** Told of the outbox ids delivered late (a flush), so a module can update what it recorded. */
type SentListener = (db: Db, outboxIds: number[]) => Promise<void>;
const sentListeners: SentListener[] = [];

export function onMailSent(listener: SentListener): void {
  sentListeners.push(listener);
}

async function announceSent(db: Db, ids: number[]): Promise<void> {
  if (!ids.length) return;
  for (const l of sentListeners) await l(db, ids);
}

async function markOutcome(db: Db, id: number, error: string | undefined): Promise<void> {
  await db
    .update(mailOutbox)
    .set(
      error
        ? { status: 'failed', error: error.slice(0, 2000), updated_at: new Date() }
        : { status: 'sent', error: null, sent_at: new Date(), updated_at: new Date() },
    )
    .where(eq(mailOutbox.id, id));
}

export interface FlushResult {
  sent: number;
  failed: number;
  pending: number;
}

/**
 * Delivers the pending (and previously failed) messages, oldest first (those created after
 * `since` only, when given). Without SMTP it does nothing and reports how many are waiting. When
 * the SMTP server cannot be reached it stops at the first message: the rest wait for the next run.
 */
export async function flushOutbox(ctx: MailContext, limit = 500, since?: Date): Promise<FlushResult> {
  const waiting = await ctx.db
    .select()
    .from(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.status, ['pending', 'failed']),
        since ? gt(mailOutbox.created_at, since) : undefined,
      ),
    )
    .orderBy(asc(mailOutbox.id))
    .limit(limit);
  const url = await resolveSmtpUrl(ctx);
  if (!url) return { sent: 0, failed: 0, pending: waiting.length };
  const outcomes = await sendRows(ctx, url, await resolveFrom(ctx), waiting, true);
  const sent = [...outcomes.values()].filter((o) => o === 'sent').length;
  const failed = outcomes.size - sent;
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']));
  if (sent || failed) ctx.log?.info({ sent, failed, pending: n }, 'mail_outbox vaciado');
  return { sent, failed, pending: n };
}

/** The advisory lock of the automatic retry: one instance at a time sends the outbox. */
const RETRY_LOCK = 727_002;
/** The automatic retry gives up on a message this old (an address refused for days). */
export const RETRY_DAYS = 3;

/**
 * The flush of the start and of the automatic retry (every MAIL_RETRY_SECONDS): with SMTP
 * configured, what is pending or failed goes out (the retry: only the messages of the last
 * RETRY_DAYS). Several instances: the one holding the lock sends, the others skip this round, so
 * no message goes twice. Answers undefined when it did not run.
 */
export async function flushOutboxOnce(ctx: MailContext, since?: Date): Promise<FlushResult | undefined> {
  if (!(await resolveSmtpUrl(ctx))) return undefined;
  return ctx.db.transaction(async (tx) => {
    const res = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(${RETRY_LOCK}) as locked`,
    )) as unknown as {
      rows: { locked: boolean }[];
    };
    if (!res.rows[0]?.locked) return undefined;
    return flushOutbox({ ...ctx, db: tx as unknown as Db }, 500, since);
  });
}

/**
 * Writes messages to the outbox as pending, in the caller's transaction: they exist exactly when
 * what they tell of was committed (a scheduled report's claim). `deliverQueued` sends them after.
 */
export async function queueMails(tx: Executor, msgs: MailMessage[]): Promise<number[]> {
  if (!msgs.length) return [];
  const rows = await tx
    .insert(mailOutbox)
    .values(
      msgs.map((m) => ({
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        attachments: m.attachments ?? null,
        status: 'pending',
      })),
    )
    .returning({ id: mailOutbox.id });
  return rows.map((r) => r.id);
}

export const retryOutbox = (ctx: MailContext) =>
  flushOutboxOnce(ctx, new Date(Date.now() - RETRY_DAYS * 86_400_000));

/** Minimal HTML escaping for the mail bodies built from user data. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
