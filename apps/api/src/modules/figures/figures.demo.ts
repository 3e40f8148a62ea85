// The demo network's figures, fees, periods and capacities: last year complete and this year up
// to last month, seasonal (a strong December and July, a weak February), with dealers ahead of
// their targets and others behind. Last year and this year's months before last are confirmed;
// last month is confirmed by most dealers, enabled but not confirmed by a few (late), and
// enabled with no figures by two (missing); this month is still closed. Idempotent: a dealer
// that already has figures is left as it is.
import { inArray, sql } from 'drizzle-orm';
import { demoDealersWithout, demoDealerUsers } from '../../core/demo-dealers';
import { demoPast, demoRandom } from '../../core/demo-random';
import { limaMonth, limaYear, nowMs } from '../../core/lima';
import type { DatabaseHandle } from '../../db/client';
import { concepts, dealerBranches, users } from '../../db/schema';
import { figures } from './figures.tables';

/** A monthly value of a mid-size dealer, before its size, the season and its trend. */
const BASE: Record<string, { value: number; seasonal: boolean; decimals: number }> = {
  VN_UND: { value: 38, seasonal: true, decimals: 0 },
  VN_FLOTA: { value: 6, seasonal: true, decimals: 0 },
  VU_UND: { value: 11, seasonal: true, decimals: 0 },
  VN_PEN: { value: 3_420_000, seasonal: true, decimals: 2 },
  TEST_DRIVE: { value: 72, seasonal: true, decimals: 0 },
  CONV_PCT: { value: 17.5, seasonal: false, decimals: 1 },
  OT_UND: { value: 330, seasonal: false, decimals: 0 },
  HRS_VEND: { value: 940, seasonal: false, decimals: 1 },
  MO_PEN: { value: 103_400, seasonal: false, decimals: 2 },
  EFIC_PCT: { value: 87, seasonal: false, decimals: 1 },
  PERM_DIAS: { value: 3.2, seasonal: false, decimals: 1 },
  REP_MOST: { value: 86_000, seasonal: false, decimals: 2 },
  REP_TALLER: { value: 142_000, seasonal: false, decimals: 2 },
  ACC_PEN: { value: 46_000, seasonal: true, decimals: 2 },
  CSI_VTA: { value: 86, seasonal: false, decimals: 1 },
  CSI_PV: { value: 84, seasonal: false, decimals: 1 },
  RECLAMOS: { value: 4, seasonal: false, decimals: 0 },
};
/** Peru's new-car market by month: gratificaciones in July and December, a quiet February. */
const SEASON = [0.92, 0.84, 0.97, 0.95, 1.0, 1.02, 1.12, 1.03, 0.98, 1.0, 1.02, 1.2];
/** Concepts where the level, not the volume, follows the dealer (percentages, days, complaints). */
const LEVELS = new Set(['CONV_PCT', 'EFIC_PCT', 'PERM_DIAS', 'CSI_VTA', 'CSI_PV', 'RECLAMOS']);

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** Monday to Saturday in a month (the workshop's days). */
function workingDays(year: number, month: number): number {
  let n = 0;
  for (
    let d = new Date(Date.UTC(year, month - 1, 1));
    d.getUTCMonth() === month - 1;
    d.setUTCDate(d.getUTCDate() + 1)
  )
    if (d.getUTCDay() !== 0) n++;
  return n;
}

/**
 * Inserts rows as one jsonb parameter per table (one statement instead of thousands of bind
 * parameters: PGlite parses those slowly). `columns`: name and PostgreSQL type.
 */
async function insertRows(
  tx: any,
  table: string,
  columns: [string, string][],
  rows: object[],
): Promise<void> {
  if (!rows.length) return;
  const names = sql.raw(columns.map(([c]) => `"${c}"`).join(', '));
  const types = sql.raw(columns.map(([c, t]) => `"${c}" ${t}`).join(', '));
  await tx.execute(sql`insert into ${sql.raw(table)} (${names})
    select ${names} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${types})
    on conflict do nothing`);
}

const CELL: [string, string][] = [
  ['dealer_id', 'int'],
  ['concept_id', 'int'],
  ['year', 'smallint'],
  ['month', 'smallint'],
  ['value', 'numeric'],
];

export async function seedFiguresDemo(
  handle: DatabaseHandle,
  demoDealers: { code: string }[],
): Promise<number> {
  const dealerCodes = demoDealers.map((d) => d.code);
  const db = handle.db as any;
  const todo = await demoDealersWithout(db, dealerCodes, figures.dealer_id);
  if (!todo.length) return 0;
  const conceptRows: { id: number; code: string }[] = await db
    .select({ id: concepts.id, code: concepts.code })
    .from(concepts)
    .where(inArray(concepts.code, Object.keys(BASE)));
  const branches: { id: number; dealer_id: number }[] = await db
    .select({ id: dealerBranches.id, dealer_id: dealerBranches.dealer_id })
    .from(dealerBranches)
    .where(
      inArray(
        dealerBranches.dealer_id,
        todo.map((d) => d.id),
      ),
    );
  const [manager] = await db
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.username, ['gerente.red', 'admin']))
    .orderBy(sql`username = 'gerente.red' desc`)
    .limit(1);
  const dealerUsers = await demoDealerUsers(
    db,
    todo.map((d) => d.id),
  );
  const year = limaYear();
  const current = limaMonth();
  const clock = nowMs();
  // Last year whole, this year up to last month.
  const months: { year: number; month: number }[] = [];
  for (let m = 1; m <= 12; m++) months.push({ year: year - 1, month: m });
  for (let m = 1; m < current; m++) months.push({ year, month: m });
  const last = months[months.length - 1];

  const figureRows: object[] = [];
  const feeRows: object[] = [];
  const periodRows: object[] = [];
  const capacityRows: object[] = [];
  todo.forEach((d, index) => {
    const rnd = demoRandom(d.code);
    // Lima's dealers are the big ones; the first dealers of the list run ahead of target.
    const size = (d.code.startsWith('LIM') || d.code.startsWith('CAL') ? 1.25 : 0.7) * (0.8 + rnd() * 0.4);
    const trend = [1.14, 1.06, 0.98, 0.9, 1.1, 0.94][index % 6];
    const quality = [1.03, 1.01, 0.99, 0.96, 1.02, 0.98][index % 6];
    const late = index % 8 === 3 || index % 8 === 6;
    const missing = index === 5 || index === 12;
    const owner = dealerUsers.find((u) => u.dealer_id === d.id)?.id ?? manager?.id ?? null;
    for (const p of months) {
      const isLast = p.year === last.year && p.month === last.month;
      const growth = p.year === year ? trend : 1;
      const confirmed = !isLast || (!late && !missing);
      // Enabled on the 2nd of the next month, confirmed from the 8th to the 12th; last month's
      // (this month's days) never after now: between the 1st and now when those days are ahead.
      const enabledAt = demoPast(
        new Date(Date.UTC(p.year, p.month, 2, 14)),
        new Date(Date.UTC(p.year, p.month, 1, 5)),
        clock,
        0.2,
      );
      const confirmedAt = confirmed
        ? demoPast(new Date(Date.UTC(p.year, p.month, 8 + Math.floor(rnd() * 5), 17)), enabledAt, clock, 0.6)
        : null;
      periodRows.push({
        dealer_id: d.id,
        year: p.year,
        month: p.month,
        status: confirmed ? 'confirmed' : 'enabled',
        enabled_at: enabledAt,
        enabled_by: manager?.id ?? null,
        confirmed_at: confirmedAt,
        confirmed_by: confirmed ? owner : null,
      });
      for (const c of conceptRows) {
        const base = BASE[c.code];
        const season = base.seasonal ? SEASON[p.month - 1] : 1;
        const noise = 0.93 + rnd() * 0.14;
        const level = LEVELS.has(c.code);
        const target = level ? base.value : base.value * size * season * (p.year === year ? 1.05 : 1);
        let actual: number;
        if (c.code === 'PERM_DIAS' || c.code === 'RECLAMOS') actual = base.value * (2 - quality) * noise;
        else if (level) actual = Math.min(100, base.value * quality * (0.98 + rnd() * 0.04));
        else actual = base.value * size * season * growth * noise;
        feeRows.push({
          dealer_id: d.id,
          concept_id: c.id,
          year: p.year,
          month: p.month,
          value: round(target, base.decimals),
        });
        if (isLast && missing) continue;
        figureRows.push({
          dealer_id: d.id,
          concept_id: c.id,
          year: p.year,
          month: p.month,
          value: round(actual, base.decimals),
          source: c.code.startsWith('CSI') ? 'concept' : 'grid',
          updated_by: owner,
        });
      }
    }
    // Capacity: this month too (it is planned ahead).
    const own = branches.filter((b) => b.dealer_id === d.id);
    for (const p of [...months, { year, month: current }]) {
      own.forEach((b, i) => {
        const bays = Math.round((i === 0 ? 8 : 4) * size + rnd() * 2);
        const technicians = bays + Math.round(rnd() * 3) - 1;
        const hours = i === 0 ? 9 : 8;
        const days = workingDays(p.year, p.month);
        capacityRows.push({
          dealer_id: d.id,
          dealer_branch_id: b.id,
          year: p.year,
          month: p.month,
          bays,
          technicians,
          hours_per_day: hours,
          working_days: days,
          available_hours: Math.min(bays, technicians) * hours * days,
          updated_by: owner,
        });
      });
    }
  });
  await db.transaction(async (tx: any) => {
    await insertRows(
      tx,
      'figure_periods',
      [
        ['dealer_id', 'int'],
        ['year', 'smallint'],
        ['month', 'smallint'],
        ['status', 'varchar'],
        ['enabled_at', 'timestamptz'],
        ['enabled_by', 'int'],
        ['confirmed_at', 'timestamptz'],
        ['confirmed_by', 'int'],
      ],
      periodRows,
    );
    await insertRows(tx, 'figures', [...CELL, ['source', 'varchar'], ['updated_by', 'int']], figureRows);
    await insertRows(tx, 'fees', CELL, feeRows);
    await insertRows(
      tx,
      'capacities',
      [
        ['dealer_id', 'int'],
        ['dealer_branch_id', 'int'],
        ['year', 'smallint'],
        ['month', 'smallint'],
        ['bays', 'numeric'],
        ['technicians', 'numeric'],
        ['hours_per_day', 'numeric'],
        ['working_days', 'numeric'],
        ['available_hours', 'numeric'],
        ['updated_by', 'int'],
      ],
      capacityRows,
    );
  });
  return todo.length;
}
