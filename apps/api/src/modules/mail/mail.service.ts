// Outgoing mail for every module. Every message is written to `mail_outbox`; with SMTP
// configured (SMTP_URL in the environment, or the SMTP_URL configuration) it is delivered at
// once through nodemailer and marked sent, otherwise it stays pending (and a log line says so)
// until `flushOutbox` runs with SMTP configured. No message is lost either way.
import { asc, count, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db } from '../../core/action';
import { mailOutbox } from '../../db/schema';
import { readSetting } from '../preferences/settings';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
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

/** nodemailer is loaded with the first message sent, not at every start. */
async function transportFor(url: string): Promise<Transporter> {
  let t = transports.get(url);
  if (!t) {
    const { default: nodemailer } = await import('nodemailer');
    t = transports.get(url) ?? nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

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

async function deliver(url: string, from: string, msg: MailMessage): Promise<string | undefined> {
  try {
    const transport = await transportFor(url);
    await transport.sendMail({
      from,
      to: msg.to,
      subject: msg.subject,
      text: msg.text,
      html: msg.html,
    });
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Sends (or queues) one message. Never throws for a delivery failure: the outcome says it. */
export async function sendMail(ctx: MailContext, msg: MailMessage): Promise<MailOutcome> {
  const [row] = await ctx.db
    .insert(mailOutbox)
    .values({ to: msg.to, subject: msg.subject, text: msg.text, html: msg.html ?? null, status: 'pending' })
    .returning({ id: mailOutbox.id });
  const url = await resolveSmtpUrl(ctx);
  if (!url) {
    ctx.log?.info({ outboxId: row.id, to: msg.to }, 'SMTP no configurado: correo guardado en mail_outbox');
    return { outboxId: row.id, status: 'pending' };
  }
  const error = await deliver(url, await resolveFrom(ctx), msg);
  await markOutcome(ctx.db, row.id, error);
  if (error) ctx.log?.warn({ outboxId: row.id, to: msg.to, error }, 'envio de correo fallido');
  return { outboxId: row.id, status: error ? 'failed' : 'sent', error };
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
 * Delivers the pending (and previously failed) messages, oldest first. Without SMTP it does
 * nothing and reports how many are waiting.
 */
export async function flushOutbox(ctx: MailContext, limit = 500): Promise<FlushResult> {
  const waiting = await ctx.db
    .select()
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']))
    .orderBy(asc(mailOutbox.id))
    .limit(limit);
  const url = await resolveSmtpUrl(ctx);
  if (!url) return { sent: 0, failed: 0, pending: waiting.length };
  const from = await resolveFrom(ctx);
  let sent = 0;
  let failed = 0;
  for (const m of waiting) {
    const error = await deliver(url, from, {
      to: m.to,
      subject: m.subject,
      text: m.text ?? '',
      html: m.html ?? undefined,
    });
    await markOutcome(ctx.db, m.id, error);
    if (error) failed++;
    else sent++;
  }
  const [{ n }] = await ctx.db
    .select({ n: count() })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']));
  ctx.log?.info({ sent, failed, pending: n }, 'mail_outbox vaciado');
  return { sent, failed, pending: n };
}

/** Minimal HTML escaping for the mail bodies built from user data. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
