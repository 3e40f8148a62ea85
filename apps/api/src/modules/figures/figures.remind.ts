// The reminder to the dealers whose month is enabled but not confirmed yet: a mail to each of
// the dealer's active users (through the mail service: sent, or kept in the outbox without
// SMTP) and the periods' reminded_at set, with one audit row for the call (the dealers and how many
// mails); the periods are marked in the call's transaction, then the mails go out.
import { type GridDealer, periodName } from '@app/contracts';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AuditDetail, Tx } from '../../core/action';
import { users } from '../../db/schema';
import { escapeHtml, type MailContext, sendMail } from '../mail/mail.service';
import { periodStates } from './figures.periods';
import { figurePeriods } from './figures.tables';

export interface RemindResult {
  /** Dealers reminded. */
  reminded: number;
  mails: number;
  /** Late dealers without a user to write to. */
  without_recipients: string[];
  /** Dealers not late (closed or already confirmed). */
  not_late: number;
}

function reminderMail(dealer: GridDealer, period: string, link: string) {
  const text =
    `Estimados ${dealer.name}:\n\n` +
    `El periodo ${period} está habilitado y sus cifras aún no han sido confirmadas.\n` +
    `Ingrese a ${link} para registrarlas y confirmarlas.\n\nGracias.`;
  const html =
    `<p>Estimados ${escapeHtml(dealer.name)}:</p>` +
    `<p>El periodo <b>${escapeHtml(period)}</b> está habilitado y sus cifras aún no han sido confirmadas.</p>` +
    `<p><a href="${escapeHtml(link)}">Registrar y confirmar las cifras</a></p><p>Gracias.</p>`;
  return { subject: `Recordatorio: cifras de ${period} pendientes de confirmar`, text, html };
}

/** The call's write: one transaction with its audit row (ctx.write of the action). */
type Write = <R>(fn: (tx: Tx) => Promise<R>, detail?: (result: R) => AuditDetail) => Promise<R>;

export async function remindLateDealers(
  mail: MailContext,
  write: Write,
  publicUrl: string,
  year: number,
  month: number,
  dealers: GridDealer[],
): Promise<RemindResult> {
  const db = mail.db;
  const states = await periodStates(
    db,
    year,
    dealers.map((d) => d.id),
    month,
  );
  const late = dealers.filter((d) => states.find((s) => s.dealer_id === d.id)?.status === 'enabled');
  const recipients = late.length
    ? await db
        .select({ dealer_id: users.dealer_id, email: users.email })
        .from(users)
        .where(
          and(
            inArray(
              users.dealer_id,
              late.map((d) => d.id),
            ),
            eq(users.active, true),
            isNotNull(users.email),
          ),
        )
    : [];
  const period = periodName(year, month);
  const link = `${publicUrl}/main/figure`;
  const result: RemindResult = {
    reminded: 0,
    mails: 0,
    without_recipients: [],
    not_late: dealers.length - late.length,
  };
  const due: { dealer: GridDealer; to: string[] }[] = [];
  for (const d of late) {
    const to = recipients.filter((r) => r.dealer_id === d.id).map((r) => r.email as string);
    if (to.length) due.push({ dealer: d, to });
    else result.without_recipients.push(d.code);
  }
  if (!due.length) return result;
  const ids = due.map((x) => x.dealer.id);
  await write(
    (tx) =>
      tx
        .update(figurePeriods)
        .set({ reminded_at: new Date() })
        .where(
          and(
            inArray(figurePeriods.dealer_id, ids),
            eq(figurePeriods.year, year),
            eq(figurePeriods.month, month),
          ),
        )
        .returning({ id: figurePeriods.id }),
    (rows) => ({
      recordId: rows.length === 1 ? rows[0].id : null,
      after: {
        period,
        dealers: due.map((x) => x.dealer.code),
        mails: due.reduce((n, x) => n + x.to.length, 0),
        period_ids: rows.map((r) => r.id),
      },
    }),
  );
  for (const { dealer, to } of due) {
    for (const address of to) {
      await sendMail(mail, { to: address, ...reminderMail(dealer, period, link) });
      result.mails++;
    }
    result.reminded++;
  }
  return result;
}
