// The state machine of a dealer's month: closed (no row) → enabled (the manufacturer opens it)
// → confirmed (the dealer confirms; its figures are locked); the manufacturer may reopen a
// confirmed month (confirmed → enabled) with a reason. A transition from the wrong state is a
// 409 with a Spanish message. Each transition writes its audit row (who, when, before, after)
// in the transaction of the change.
import {
  FIGURE_MESSAGES,
  type GridDealer,
  type PeriodState,
  type PeriodStatus,
  periodName,
} from '@app/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor, Tx } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ConflictError, ValidationError } from '../../core/errors';
import { limaMonth, limaYear } from '../../core/lima';
import { figuresNotices } from '../notifications/notifications.service';
import { monthKey } from './figures.scope';
import { figurePeriods } from './figures.tables';

export type PeriodRow = typeof figurePeriods.$inferSelect;

const userName = (col: PgColumn) => sql<string | null>`(select u.full_name from users u where u.id = ${col})`;

/**
 * The state of each dealer's month (`month` null: all twelve) of a year; a month without a row
 * is closed.
 */
export async function periodStates(
  db: Executor,
  year: number,
  dealerIds: number[],
  month: number | null,
): Promise<PeriodState[]> {
  if (!dealerIds.length) return [];
  const rows = await db
    .select({
      id: figurePeriods.id,
      dealer_id: figurePeriods.dealer_id,
      month: figurePeriods.month,
      status: figurePeriods.status,
      enabled_at: figurePeriods.enabled_at,
      enabled_by_name: userName(figurePeriods.enabled_by),
      confirmed_at: figurePeriods.confirmed_at,
      confirmed_by_name: userName(figurePeriods.confirmed_by),
      reopened_at: figurePeriods.reopened_at,
      reopen_reason: figurePeriods.reopen_reason,
      reminded_at: figurePeriods.reminded_at,
    })
    .from(figurePeriods)
    .where(
      and(
        eq(figurePeriods.year, year),
        inArray(figurePeriods.dealer_id, dealerIds),
        month ? eq(figurePeriods.month, month) : undefined,
      ),
    );
  const byKey = new Map(rows.map((r) => [monthKey(r.dealer_id, r.month), r]));
  const months = month ? [month] : Array.from({ length: 12 }, (_, i) => i + 1);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const out: PeriodState[] = [];
  for (const dealer_id of dealerIds) {
    for (const m of months) {
      const r = byKey.get(monthKey(dealer_id, m));
      out.push({
        id: r?.id ?? null,
        dealer_id,
        month: m,
        status: (r?.status as PeriodStatus) ?? 'closed',
        enabled_at: iso(r?.enabled_at ?? null),
        enabled_by_name: r?.enabled_by_name ?? null,
        confirmed_at: iso(r?.confirmed_at ?? null),
        confirmed_by_name: r?.confirmed_by_name ?? null,
        reopened_at: iso(r?.reopened_at ?? null),
        reopen_reason: r?.reopen_reason ?? null,
        reminded_at: iso(r?.reminded_at ?? null),
      });
    }
  }
  return out;
}

/**
 * The status of each dealer-month of `keys` in `year`, their rows locked until the transaction
 * ends: a confirm that runs at the same time waits, so no value lands in a confirmed month.
 */
export async function lockedStatuses(
  tx: Tx,
  year: number,
  keys: { dealer_id: number; month: number }[],
): Promise<Map<string, PeriodStatus>> {
  const dealerIds = [...new Set(keys.map((k) => k.dealer_id))];
  const months = [...new Set(keys.map((k) => k.month))];
  const out = new Map<string, PeriodStatus>();
  if (!dealerIds.length) return out;
  const rows = await tx
    .select({ dealer_id: figurePeriods.dealer_id, month: figurePeriods.month, status: figurePeriods.status })
    .from(figurePeriods)
    .where(
      and(
        eq(figurePeriods.year, year),
        inArray(figurePeriods.dealer_id, dealerIds),
        inArray(figurePeriods.month, months),
      ),
    )
    .for('update');
  for (const r of rows) out.set(monthKey(r.dealer_id, r.month), r.status as PeriodStatus);
  return out;
}

/** A month that has not begun in Lima cannot be opened. */
function assertStarted(year: number, month: number): void {
  if (year * 12 + month > limaYear() * 12 + limaMonth())
    throw ValidationError.field('month', FIGURE_MESSAGES.future);
}

async function lockOne(
  tx: Tx,
  dealerId: number,
  year: number,
  month: number,
): Promise<PeriodRow | undefined> {
  const [row] = await tx
    .select()
    .from(figurePeriods)
    .where(
      and(
        eq(figurePeriods.dealer_id, dealerId),
        eq(figurePeriods.year, year),
        eq(figurePeriods.month, month),
      ),
    )
    .for('update');
  return row;
}

export interface EnableResult {
  enabled: number;
  /** Dealers left as they were (only with `all`): already enabled or confirmed. */
  skipped: { dealer_id: number; dealer_code: string; status: PeriodStatus }[];
  /** The periods enabled (the audit row names them). */
  period_ids: number[];
}

/**
 * closed → enabled for each dealer of `list`. Naming dealers, any month not closed refuses the
 * whole call (409, nothing changes); with `all`, those months are left as they are and reported.
 */
export async function enablePeriods(
  tx: Tx,
  user: CurrentUser,
  year: number,
  month: number,
  list: GridDealer[],
  all: boolean,
): Promise<EnableResult> {
  assertStarted(year, month);
  const current = await lockedStatuses(
    tx,
    year,
    list.map((d) => ({ dealer_id: d.id, month })),
  );
  const skipped: EnableResult['skipped'] = [];
  const wrong: string[] = [];
  const open: GridDealer[] = [];
  for (const d of list) {
    const status = current.get(monthKey(d.id, month)) ?? 'closed';
    if (status === 'closed') open.push(d);
    else if (all) skipped.push({ dealer_id: d.id, dealer_code: d.code, status });
    else
      wrong.push(
        status === 'confirmed'
          ? FIGURE_MESSAGES.confirmedCannotEnable(periodName(year, month, d.code))
          : FIGURE_MESSAGES.alreadyEnabled(periodName(year, month, d.code)),
      );
  }
  if (wrong.length)
    throw new ConflictError(wrong[0], wrong.length > 1 ? wrong.slice(1).join('\n') : undefined);
  const enabledIds: number[] = [];
  for (const d of open) {
    const values = { status: 'enabled', enabled_at: new Date(), enabled_by: user.id, updated_at: new Date() };
    const [row] = await tx
      .insert(figurePeriods)
      .values({ dealer_id: d.id, year, month, ...values })
      .onConflictDoUpdate({
        target: [figurePeriods.dealer_id, figurePeriods.year, figurePeriods.month],
        set: values,
      })
      .returning();
    enabledIds.push(row.id);
  }
  await figuresNotices(tx, enabledIds);
  return { enabled: open.length, skipped, period_ids: enabledIds };
}

/**
 * What a module above figures does in the transaction of a month's confirmation, answering the
 * mail outbox ids to deliver once it commits (schedules: the month's Resumen Comparativo to the
 * dealer's contacts). Figures knows none of them: each registers itself when its module loads.
 */
type ConfirmListener = (tx: Executor, dealer: GridDealer, year: number, month: number) => Promise<number[]>;
const confirmListeners: ConfirmListener[] = [];

export function onMonthConfirmed(listener: ConfirmListener): void {
  confirmListeners.push(listener);
}

/** Runs the confirmation's listeners in its transaction; the outbox ids they queued. */
export async function announceConfirmed(
  tx: Executor,
  dealer: GridDealer,
  year: number,
  month: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (const l of confirmListeners) ids.push(...(await l(tx, dealer, year, month)));
  return ids;
}

/** enabled → confirmed: the dealer's figures of the month are locked. */
export async function confirmPeriod(
  tx: Tx,
  user: CurrentUser,
  year: number,
  month: number,
  dealer: GridDealer,
): Promise<PeriodRow> {
  const name = periodName(year, month, dealer.code);
  const before = await lockOne(tx, dealer.id, year, month);
  const status = (before?.status ?? 'closed') as PeriodStatus;
  if (status === 'confirmed') throw new ConflictError(FIGURE_MESSAGES.alreadyConfirmed(name));
  if (status !== 'enabled' || !before) throw new ConflictError(FIGURE_MESSAGES.notEnabled(name));
  const [row] = await tx
    .update(figurePeriods)
    .set({ status: 'confirmed', confirmed_at: new Date(), confirmed_by: user.id, updated_at: new Date() })
    .where(eq(figurePeriods.id, before.id))
    .returning();
  return row;
}

/** confirmed → enabled, with the manufacturer's reason; the dealer can correct and confirm again. */
export async function reopenPeriod(
  tx: Tx,
  user: CurrentUser,
  id: number,
  reason: string,
  dealerCode: string,
): Promise<PeriodRow> {
  const [before] = await tx.select().from(figurePeriods).where(eq(figurePeriods.id, id)).for('update');
  const name = periodName(before.year, before.month, dealerCode);
  if (before.status !== 'confirmed') throw new ConflictError(FIGURE_MESSAGES.notConfirmed(name));
  const [row] = await tx
    .update(figurePeriods)
    .set({
      status: 'enabled',
      confirmed_at: null,
      confirmed_by: null,
      reopened_at: new Date(),
      reopened_by: user.id,
      reopen_reason: reason,
      updated_at: new Date(),
    })
    .where(eq(figurePeriods.id, id))
    .returning();
  await figuresNotices(tx, [id]);
  return row;
}
