// Workshop capacity per dealer, branch and month: bays, technicians, hours per day and working
// days; the available hours are computed on save (availableHours, shared with the grid), never
// typed. The grid lists every active branch of the dealers in the caller's scope, with or without
// a row for the month.
import {
  availableHours,
  type CapacityBatchInput,
  type CapacityRow,
  MONTH_NAMES,
  QUERY_LABELS,
} from '@app/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { NotFoundError } from '../../core/errors';
import type { Scope } from '../../core/scope';
import { dealerBranches, dealers } from '../../db/schema';
import { capacities } from './figures.tables';

/** The month's capacity of every active branch in the call's scope (one dealer, or all). */
export async function capacityGrid(
  db: Executor,
  scope: Scope,
  year: number,
  month: number,
): Promise<CapacityRow[]> {
  return db
    .select({
      dealer_id: dealers.id,
      dealer_code: dealers.code,
      dealer_name: dealers.name,
      dealer_branch_id: dealerBranches.id,
      branch_name: dealerBranches.name,
      bays: capacities.bays,
      technicians: capacities.technicians,
      hours_per_day: capacities.hours_per_day,
      working_days: capacities.working_days,
      available_hours: capacities.available_hours,
    })
    .from(dealerBranches)
    .innerJoin(dealers, eq(dealers.id, dealerBranches.dealer_id))
    .leftJoin(
      capacities,
      and(
        eq(capacities.dealer_branch_id, dealerBranches.id),
        eq(capacities.year, year),
        eq(capacities.month, month),
      ),
    )
    .where(and(scope.on(dealerBranches.dealer_id), eq(dealerBranches.active, true), eq(dealers.active, true)))
    .orderBy(asc(dealers.name), asc(dealerBranches.name), asc(dealerBranches.id));
}

/**
 * Saves the rows of a month in one transaction: every branch must be in the call's scope (the
 * engine's: a dealer user's own dealer; the body declares no dealer) else 404 and nothing saved;
 * a row with every value empty is removed.
 */
export async function saveCapacities(
  tx: Tx,
  user: CurrentUser,
  scope: Scope,
  body: CapacityBatchInput,
): Promise<{ saved: number; removed: number }> {
  const ids = [...new Set(body.rows.map((r) => r.dealer_branch_id))];
  const branches = await tx
    .select({ id: dealerBranches.id, dealer_id: dealerBranches.dealer_id })
    .from(dealerBranches)
    .where(and(inArray(dealerBranches.id, ids), scope.on(dealerBranches.dealer_id)));
  if (branches.length !== ids.length) throw new NotFoundError('La sede no existe');
  const dealerOf = new Map(branches.map((b) => [b.id, b.dealer_id]));
  let saved = 0;
  let removed = 0;
  const rows = new Map(body.rows.map((r) => [r.dealer_branch_id, r]));
  const keep = [...rows.values()].filter((r) =>
    [r.bays, r.technicians, r.hours_per_day, r.working_days].some((v) => v !== null && v !== undefined),
  );
  const drop = [...rows.keys()].filter((id) => !keep.some((r) => r.dealer_branch_id === id));
  if (drop.length) {
    const gone = await tx
      .delete(capacities)
      .where(
        and(
          eq(capacities.year, body.year),
          eq(capacities.month, body.month),
          inArray(capacities.dealer_branch_id, drop),
        ),
      )
      .returning({ id: capacities.id });
    removed = gone.length;
  }
  if (keep.length) {
    const values = keep.map((r) => ({
      dealer_id: dealerOf.get(r.dealer_branch_id)!,
      dealer_branch_id: r.dealer_branch_id,
      year: body.year,
      month: body.month,
      bays: r.bays ?? null,
      technicians: r.technicians ?? null,
      hours_per_day: r.hours_per_day ?? null,
      working_days: r.working_days ?? null,
      available_hours: availableHours(r),
      updated_by: user.id,
      updated_at: new Date(),
    }));
    const written = await tx
      .insert(capacities)
      .values(values)
      .onConflictDoUpdate({
        target: [capacities.dealer_branch_id, capacities.year, capacities.month],
        set: {
          bays: sql`excluded.bays`,
          technicians: sql`excluded.technicians`,
          hours_per_day: sql`excluded.hours_per_day`,
          working_days: sql`excluded.working_days`,
          available_hours: sql`excluded.available_hours`,
          updated_by: sql`excluded.updated_by`,
          updated_at: sql`excluded.updated_at`,
        },
      })
      .returning({ id: capacities.id });
    saved = written.length;
  }
  return { saved, removed };
}

/** The export's file name: what the download of the same query is called. */
export function capacityFilename(year: number, month: number, dealerCode?: string): string {
  return `Capacidades_${MONTH_NAMES[month - 1]}_${year}${dealerCode ? `_${dealerCode}` : ''}.xlsx`;
}

export const CAPACITY_COLUMNS = [
  { key: 'dealer_code', header: 'Código concesionario', width: 14 },
  { key: 'dealer_name', header: QUERY_LABELS.dealer, width: 32 },
  { key: 'branch_name', header: 'Sede', width: 28 },
  { key: 'bays', header: 'Bahías', width: 10 },
  { key: 'technicians', header: 'Técnicos', width: 10 },
  { key: 'hours_per_day', header: 'Horas por día', width: 12 },
  { key: 'working_days', header: 'Días laborables', width: 14 },
  { key: 'available_hours', header: 'Horas disponibles', width: 16 },
];

/** The grid's rows plus a total row (sums; hours per day and working days averaged). */
export function capacityExportRows(rows: CapacityRow[]): Record<string, unknown>[] {
  const plain = rows as unknown as Record<string, unknown>[];
  const sum = (k: keyof CapacityRow) => rows.reduce((a, r) => a + (Number(r[k]) || 0), 0);
  const avg = (k: keyof CapacityRow) => {
    const xs = rows.filter((r) => r[k] !== null);
    return xs.length ? Math.round((xs.reduce((a, r) => a + Number(r[k]), 0) / xs.length) * 100) / 100 : null;
  };
  return [
    ...plain,
    {
      dealer_code: '',
      dealer_name: 'Total',
      branch_name: `${rows.length} sedes`,
      bays: sum('bays'),
      technicians: sum('technicians'),
      hours_per_day: avg('hours_per_day'),
      working_days: avg('working_days'),
      available_hours: sum('available_hours'),
    },
  ];
}
