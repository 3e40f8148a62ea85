// Scheduled reports by mail (issue 29, item 5). Each mailing is claimed once by a row of
// `mail_schedule_runs` whose key is unique (the dealer's month, the ISO week), written in one
// transaction with its messages in the outbox: two servers that try at the same moment make one
// mailing, and a message is never lost (no SMTP: it waits in the outbox; SMTP down: the outbox's
// retry sends it). The files are the reports' own declarations (defineReport), built in memory.
import {
  allPermissions,
  formatCount,
  formatNumber,
  formatPercent,
  formatRatio,
  type GridDealer,
  type MailScheduleKind,
  periodName,
  splitRecipients,
} from '@app/contracts';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Executor } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { limaWallClock, nowMs } from '../../core/lima';
import { XLSX_TYPE } from '../../core/xlsx';
import type { MailAttachment } from '../../db/schema';
import { dealerContacts, permissions, rolePermissions, userRoles, users } from '../../db/schema';
import { dashboardIndicators } from '../dashboard/dashboard.actions';
import { dashboardQuery } from '../dashboard/dashboard.filter';
import { resumenQuery, resumenReport } from '../figures/figures.resumen';
import { deliverQueued, escapeHtml, type MailMessage, mailContext, queueMails } from '../mail/mail.service';
import { mailScheduleRuns, mailSchedules } from './schedules.tables';

export type ScheduleRow = typeof mailSchedules.$inferSelect;

/** Who receives the weekly summary when the schedule names nobody: the manufacturer's managers. */
export const MANAGER_PERMISSION = 'Dashboard.Summary.view';

/**
 * The reader a report is built as, outside a request: every permission, held to `dealerId` when
 * given (a dealer's resumen cannot show another dealer's figures, whoever confirmed it).
 */
export function reportReader(dealerId: number | null): CurrentUser {
  return {
    id: 0,
    username: 'correo-programado',
    fullName: 'Correo programado',
    email: '',
    dealerId,
    isDealer: dealerId !== null,
    tokenVersion: 0,
    roles: [],
    permissions: new Set(allPermissions()),
  };
}

export async function scheduleOf(db: Executor, kind: MailScheduleKind): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(mailSchedules).where(eq(mailSchedules.kind, kind));
  return row;
}

/** Claims a mailing: the run's id, or undefined when another server (or an earlier try) made it. */
async function claim(
  tx: Executor,
  schedule: ScheduleRow,
  key: string,
  period: string,
  dealerId: number | null,
): Promise<number | undefined> {
  const [row] = await tx
    .insert(mailScheduleRuns)
    .values({ schedule_id: schedule.id, key, period, dealer_id: dealerId })
    .onConflictDoNothing()
    .returning({ id: mailScheduleRuns.id });
  return row?.id;
}

const attachment = (file: { filename: string; content: Buffer }): MailAttachment => ({
  filename: file.filename,
  contentType: XLSX_TYPE,
  content: file.content.toString('base64'),
});

const HTML_STYLE = 'font-family:Arial,sans-serif;font-size:14px;color:#222';
const TD = 'padding:4px 8px;border-bottom:1px solid #ddd';
const TDR = `${TD};text-align:right`;

function table(head: string[], rows: string[][]): string {
  const th = head
    .map((h, i) => `<th style="${i ? TDR : TD};background:#d9ecee">${escapeHtml(h)}</th>`)
    .join('');
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td style="${i ? TDR : TD}">${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('');
  return `<table style="border-collapse:collapse">${`<tr>${th}</tr>`}${body}</table>`;
}

/** Concepts shown in the body of the monthly mail; the file has them all. */
const RESUMEN_LINES = 10;

/**
 * In the transaction of a confirmation: when the monthly schedule is on and the dealer has
 * contacts with an email, claims the dealer's month and queues the Resumen Comparativo to each
 * of them. Answers the outbox ids to deliver once the transaction commits.
 */
export async function queueResumenOnConfirm(
  tx: Executor,
  dealer: GridDealer,
  year: number,
  month: number,
): Promise<number[]> {
  const schedule = await scheduleOf(tx, 'resumen_mensual');
  if (!schedule?.enabled) return [];
  const contacts = await tx
    .select({ name: dealerContacts.name, email: dealerContacts.email })
    .from(dealerContacts)
    .where(
      and(
        eq(dealerContacts.dealer_id, dealer.id),
        eq(dealerContacts.active, true),
        isNotNull(dealerContacts.email),
      ),
    )
    .orderBy(asc(dealerContacts.name));
  const to = [...new Set(contacts.map((c) => c.email!.trim().toLowerCase()).filter(Boolean))];
  if (!to.length) return [];
  const period = periodName(year, month);
  const runId = await claim(
    tx,
    schedule,
    `resumen:${dealer.id}:${year}-${String(month).padStart(2, '0')}`,
    period,
    dealer.id,
  );
  if (!runId) return [];
  const started = performance.now();
  const msg = await resumenMail(tx, dealer, year, month);
  const ids = await queueMails(
    tx,
    to.map((address) => ({ to: address, ...msg })),
  );
  await tx
    .update(mailScheduleRuns)
    .set({ mails: ids.length, build_ms: Math.round(performance.now() - started) })
    .where(eq(mailScheduleRuns.id, runId));
  return ids;
}

/** The monthly mail of one dealer: a few lines of its Resumen Comparativo and the whole .xlsx. */
export async function resumenMail(
  db: Executor,
  dealer: GridDealer,
  year: number,
  month: number,
): Promise<Omit<MailMessage, 'to'>> {
  const ctx = {
    db: db as Db,
    user: reportReader(dealer.id),
    query: resumenQuery.parse({ year: String(year), month: String(month), dealer_id: String(dealer.id) }),
  };
  const file = await resumenReport.xlsx(ctx);
  const data = file.data.answer.rows;
  const period = periodName(year, month);
  const shown = data.slice(0, RESUMEN_LINES);
  const num = (v: number | null) => (v === null ? '—' : formatNumber(v, 'number'));
  const lines = shown.map(
    (r) =>
      `- ${r.name}: ${num(r.month)} (${year - 1}: ${num(r.month_prev)}; variación ${formatRatio(r.month_var_pct)}; cumplimiento ${formatRatio(r.compliance)})`,
  );
  const more =
    data.length > shown.length ? `y ${data.length - shown.length} conceptos más en el archivo adjunto.` : '';
  const text =
    `Estimados ${dealer.name}:\n\n` +
    `Se confirmaron las cifras de ${period}. Este es su Resumen Comparativo:\n\n` +
    `${lines.join('\n')}\n${more ? `${more}\n` : ''}\n` +
    `El detalle completo está en el archivo adjunto (${file.filename}).\n\nGracias.`;
  const html =
    `<div style="${HTML_STYLE}"><p>Estimados ${escapeHtml(dealer.name)}:</p>` +
    `<p>Se confirmaron las cifras de <b>${escapeHtml(period)}</b>. Este es su Resumen Comparativo:</p>` +
    table(
      ['Concepto', `${period}`, `Año ${year - 1}`, 'Variación %', 'Cumplimiento %'],
      shown.map((r) => [
        r.name,
        num(r.month),
        num(r.month_prev),
        formatRatio(r.month_var_pct),
        formatRatio(r.compliance),
      ]),
    ) +
    (more ? `<p>${escapeHtml(more)}</p>` : '') +
    `<p>El detalle completo está en el archivo adjunto (${escapeHtml(file.filename)}).</p><p>Gracias.</p></div>`;
  return {
    subject: `Resumen Comparativo de ${period} - ${dealer.name}`,
    text,
    html,
    attachments: [attachment(file)],
  };
}

/** ISO week of a Lima date (YYYY-MM-DD): '2026-W48'. */
export function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const year = d.getUTCFullYear();
  const week = Math.ceil(((d.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The latest instant ≤ `at` that falls on the schedule's day and hour in Lima (epoch ms). */
export function lastSlot(weekday: number, hour: number, at = nowMs()): number {
  const wall = limaWallClock(at);
  const today = wall.getUTCDay() || 7;
  const slotWall = Date.UTC(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate() - ((today - weekday + 7) % 7),
    hour,
  );
  const slot = slotWall + 5 * 3_600_000;
  return slot > at ? slot - 7 * 86_400_000 : slot;
}

/** The active manufacturer users holding the Tablero's permission, with their email. */
export async function managerEmails(db: Executor): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: users.email })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.user_id, users.id))
    .innerJoin(rolePermissions, eq(rolePermissions.role_id, userRoles.role_id))
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
    .where(and(eq(users.active, true), isNull(users.dealer_id), eq(permissions.name, MANAGER_PERMISSION)))
    .orderBy(asc(users.email));
  return rows.map((r) => r.email);
}

export const weeklyRecipients = async (db: Executor, schedule: ScheduleRow) => {
  const listed = splitRecipients(schedule.recipients);
  return listed.length ? listed : managerEmails(db);
};

/** The weekly mail: the dashboard's indicators (year to date, every dealer) and their .xlsx. */
export async function weeklyMail(db: Executor, week: string): Promise<Omit<MailMessage, 'to'>> {
  const ctx = { db: db as Db, user: reportReader(null), query: dashboardQuery.parse({}) };
  const file = await dashboardIndicators.xlsx(ctx);
  const { rows, period } = file.data;
  const value = (unit: string, v: number | null) => (unit === '%' ? formatPercent(v) : formatCount(v));
  const title = `Resumen semanal del tablero (${week})`;
  const text =
    `${title}\nPeriodo: ${period.from} a ${period.to} (año anterior: ${period.prev_from} a ${period.prev_to}).\n\n` +
    rows
      .map(
        (r) =>
          `- ${r.name}: ${value(r.unit, r.value)} (año anterior: ${value(r.unit, r.previous)}; variación ${formatPercent(r.variation)})`,
      )
      .join('\n') +
    `\n\nEl detalle está en el archivo adjunto (${file.filename}).`;
  const html =
    `<div style="${HTML_STYLE}"><p><b>${escapeHtml(title)}</b></p>` +
    `<p>Periodo: ${escapeHtml(period.from)} a ${escapeHtml(period.to)} (año anterior: ${escapeHtml(period.prev_from)} a ${escapeHtml(period.prev_to)}).</p>` +
    table(
      ['Indicador', 'Periodo', 'Año anterior', 'Variación %'],
      rows.map((r) => [
        r.name,
        value(r.unit, r.value),
        value(r.unit, r.previous),
        formatPercent(r.variation),
      ]),
    ) +
    `<p>El detalle está en el archivo adjunto (${escapeHtml(file.filename)}).</p></div>`;
  return { subject: title, text, html, attachments: [attachment(file)] };
}

export interface DueResult {
  /** Mails queued by this call (0 when not due, already made, or made by another server). */
  mails: number;
  key?: string;
  build_ms?: number;
}

/**
 * The weekly summary, when due: the schedule is on, its last slot (day and hour in Lima) has
 * passed since it was last saved, and that week's mailing is not made yet. Run every minute by
 * the pg-boss schedule (one server per minute) and at start-up; the claim makes it once.
 */
export async function runDueSchedules(app: FastifyInstance, at = nowMs()): Promise<DueResult> {
  const db = app.ctx.handle.db;
  const schedule = await scheduleOf(db, 'tablero_semanal');
  if (!schedule?.enabled || schedule.weekday === null || schedule.hour === null) return { mails: 0 };
  const slot = lastSlot(schedule.weekday, schedule.hour, at);
  if (slot < schedule.updated_at.getTime()) return { mails: 0 };
  const week = isoWeek(limaWallClock(slot).toISOString().slice(0, 10));
  const key = `tablero:${week}`;
  const done = await db
    .select({ id: mailScheduleRuns.id })
    .from(mailScheduleRuns)
    .where(and(eq(mailScheduleRuns.schedule_id, schedule.id), eq(mailScheduleRuns.key, key)));
  if (done.length) return { mails: 0, key };
  const to = await weeklyRecipients(db, schedule);
  if (!to.length) return { mails: 0, key };
  const [y, w] = week.split('-W');
  const result = await db.transaction(async (tx) => {
    const runId = await claim(tx, schedule, key, `Semana ${Number(w)} de ${y}`, null);
    if (!runId) return { ids: [] as number[], build_ms: 0 };
    const started = performance.now();
    const msg = await weeklyMail(tx as unknown as Executor, week);
    const build_ms = Math.round(performance.now() - started);
    const ids = await queueMails(
      tx,
      to.map((address) => ({ to: address, ...msg })),
    );
    await tx
      .update(mailScheduleRuns)
      .set({ mails: ids.length, build_ms })
      .where(eq(mailScheduleRuns.id, runId));
    return { ids, build_ms };
  });
  await deliverQueued(mailContext(app), result.ids, { stopAtUnreachable: true });
  return { mails: result.ids.length, key, build_ms: result.build_ms };
}
