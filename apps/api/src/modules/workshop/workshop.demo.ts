// Demo workshop information (seed/demo.ts calls it, after the capacities of figures.demo.ts): a row
// per demo branch and month from last January up to last month, drawn from the branch's capacity
// so productivity (hours worked ÷ available hours) is plausible, 60 to 95 %: each dealer has its
// level (some well ahead, some behind) and trend against last year, busier in July and December,
// quieter in February. Two dealers have not loaded last month yet, one skipped a month.
// Deterministic, written once per dealer.
import { and, eq, inArray, lt, or } from 'drizzle-orm';
import { demoDealersWithout, demoDealerUsers } from '../../core/demo-dealers';
import { demoRandom } from '../../core/demo-random';
import { limaMonth, limaYear } from '../../core/lima';
import type { DatabaseHandle } from '../../db/client';
import { capacities } from '../figures/figures.tables';
import { workshopInfos } from './workshop.tables';

/** Workshop activity by month (January first): more service before the July and December trips. */
const SEASON = [0.97, 0.9, 0.98, 0.97, 1, 1, 1.05, 1.01, 0.98, 1, 1.01, 1.06];
/** Each dealer's productivity level (index of the demo list) and this year's trend. */
const LEVEL = [0.88, 0.82, 0.7, 0.78, 0.91, 0.63, 0.8, 0.74, 0.85, 0.68, 0.66, 0.72, 0.86, 0.69, 0.8, 0.75];
const TREND = [1.04, 1.02, 0.96, 1, 1.03, 0.95, 1.01, 0.98, 1.03, 0.97, 1.02, 0.99, 1.01, 0.96, 1.04, 1];

const r2 = (n: number) => Math.round(n * 100) / 100;

export async function seedWorkshopDemo(
  handle: DatabaseHandle,
  demoDealers: { code: string }[],
): Promise<{ workshopInfos: number }> {
  const db = handle.db as any;
  const todo = await demoDealersWithout(
    db,
    demoDealers.map((d) => d.code),
    workshopInfos.dealer_id,
  );
  if (!todo.length) return { workshopInfos: 0 };
  const year = limaYear();
  const current = limaMonth();
  const last = current === 1 ? { year: year - 1, month: 12 } : { year, month: current - 1 };
  const caps: {
    dealer_id: number;
    dealer_branch_id: number;
    year: number;
    month: number;
    technicians: number | null;
    available_hours: number | null;
  }[] = await db
    .select({
      dealer_id: capacities.dealer_id,
      dealer_branch_id: capacities.dealer_branch_id,
      year: capacities.year,
      month: capacities.month,
      technicians: capacities.technicians,
      available_hours: capacities.available_hours,
    })
    .from(capacities)
    .where(
      and(
        inArray(
          capacities.dealer_id,
          todo.map((d) => d.id),
        ),
        or(lt(capacities.year, year), and(eq(capacities.year, year), lt(capacities.month, current))),
      ),
    );
  const owners = await demoDealerUsers(
    db,
    todo.map((d) => d.id),
  );
  const order = new Map(demoDealers.map((d, i) => [d.code, i]));
  const rows: (typeof workshopInfos.$inferInsert)[] = [];
  for (const d of todo) {
    const index = order.get(d.code) ?? 0;
    const rnd = demoRandom(`taller-${d.code}`);
    const lima = d.code.startsWith('LIM') || d.code.startsWith('CAL');
    const efficiency = 0.9 + rnd() * 0.16;
    const rate = (lima ? 118 : 96) + rnd() * 18;
    const hoursPerOrder = 2.6 + rnd() * 0.8;
    const partsPerOrder = (lima ? 520 : 430) + rnd() * 120;
    const lateLastMonth = index === 5 || index === 12;
    const skipped = index === 9 ? { year, month: Math.max(1, current - 4) } : null;
    const owner = owners.find((o) => o.dealer_id === d.id)?.id ?? null;
    for (const c of caps.filter((x) => x.dealer_id === d.id)) {
      if (!c.available_hours) continue;
      if (lateLastMonth && c.year === last.year && c.month === last.month) continue;
      if (skipped && c.year === skipped.year && c.month === skipped.month) continue;
      const trend = c.year === year ? TREND[index % 16] : 1;
      const productivity = Math.min(
        0.95,
        Math.max(0.6, LEVEL[index % 16] * trend * SEASON[c.month - 1] * (0.97 + rnd() * 0.06)),
      );
      const worked = c.available_hours * productivity;
      const sold = worked * efficiency * (0.98 + rnd() * 0.04);
      const closed = Math.round(sold / hoursPerOrder);
      rows.push({
        dealer_id: d.id,
        dealer_branch_id: c.dealer_branch_id,
        year: c.year,
        month: c.month,
        work_orders_opened: Math.round(closed * (1.01 + rnd() * 0.05)),
        work_orders_closed: closed,
        hours_sold: r2(sold),
        hours_worked: r2(worked),
        // The hourly rate rises about 4 % a year, with the month's mix of jobs.
        labour_revenue: r2(sold * rate * (c.year === year ? 1.04 : 1) * (0.985 + rnd() * 0.03)),
        parts_revenue: r2(closed * partsPerOrder * (0.95 + rnd() * 0.1)),
        accessories_revenue: r2(closed * partsPerOrder * 0.08 * (0.8 + rnd() * 0.4)),
        warranty_orders: Math.round(closed * (0.04 + rnd() * 0.04)),
        technicians: c.technicians === null ? null : Math.round(c.technicians),
        source: 'demo',
        updated_by: owner,
      });
    }
  }
  await db.transaction(async (tx: any) => {
    for (let i = 0; i < rows.length; i += 500) await tx.insert(workshopInfos).values(rows.slice(i, i + 500));
  });
  return { workshopInfos: rows.length };
}
