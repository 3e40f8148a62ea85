// Demo data of dispatches, objectives and daily sales (seed/demo.ts calls it): the months from
// January of last year to today for the demo dealers, seasonal (July's bonuses and December sell more, February less),
// with dealers ahead of their objectives and others behind, two that have not received this
// month's dispatches yet, and two that are late entering their daily sales (one has none this
// month). Deterministic, and written once: a second run finds the demo dispatches and does nothing.
import { daysInMonth } from '@app/contracts';
import { and, eq, inArray, like } from 'drizzle-orm';
import { demoSequence } from '../../core/demo-random';
import { limaToday } from '../../core/lima';
import type { DatabaseHandle } from '../../db/client';
import { dealers, manufacturerModels, manufacturers } from '../../db/schema';
import { dailySales, dispatches, dispatchObjectives, storedOffices } from './dispatches.tables';

const OFFICES = [
  { code: 'ALM-LUR', name: 'Almacén Lurín' },
  { code: 'ALM-CAL', name: 'Almacén Callao' },
  { code: 'ALM-PAI', name: 'Almacén Paita' },
];

/** Monthly weight of sales in Peru (gratificaciones in July and December, a slow February). */
const SEASON = [0.9, 0.8, 0.95, 0.95, 1, 1, 1.25, 1.05, 1, 1, 1.05, 1.35];

/** Dealer code → how it does against its objectives, and its size (units a month per brand). */
const PROFILE: Record<string, { pace: number; size: number }> = {
  LIM01: { pace: 1.15, size: 14 },
  LIM02: { pace: 1.05, size: 12 },
  LIM03: { pace: 0.8, size: 10 },
  LIM04: { pace: 0.95, size: 8 },
  LIM05: { pace: 1.2, size: 7 },
  LIM06: { pace: 0.7, size: 6 },
  CAL01: { pace: 1, size: 6 },
  TRU01: { pace: 0.85, size: 7 },
  CHI01: { pace: 1.1, size: 5 },
  PIU01: { pace: 0.9, size: 5 },
  CAJ01: { pace: 0.75, size: 3 },
  IQT01: { pace: 1, size: 2 },
  AQP01: { pace: 1.1, size: 8 },
  AQP02: { pace: 0.85, size: 4 },
  CUS01: { pace: 1.05, size: 4 },
  TAC01: { pace: 0.95, size: 3 },
};
/** No dispatch yet this month (SIMA has not sent them). */
const LATE_DISPATCH = new Set(['IQT01', 'CAJ01']);
/** Daily sales entered only up to a week ago; the first has entered nothing this month. */
const LATE_DAILY = new Set(['TAC01', 'LIM06']);
const NO_DAILY_THIS_MONTH = 'TAC01';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export async function seedDispatchDemo(handle: DatabaseHandle) {
  const db = handle.db;
  const created = { dispatches: 0, objectives: 0, dailySales: 0 };
  const [already] = await db
    .select({ id: dispatches.id })
    .from(dispatches)
    .where(like(dispatches.sima_key, 'demo:%'))
    .limit(1);
  if (already) return created;
  const dealerRows = await db
    .select({ id: dealers.id, code: dealers.code })
    .from(dealers)
    .where(inArray(dealers.code, Object.keys(PROFILE)));
  const models = await db
    .select({
      id: manufacturerModels.id,
      name: manufacturerModels.name,
      brand: manufacturers.code,
      brand_id: manufacturers.id,
    })
    .from(manufacturerModels)
    .innerJoin(manufacturers, eq(manufacturers.id, manufacturerModels.manufacturer_id))
    .where(and(eq(manufacturerModels.active, true), like(manufacturerModels.code, '_-__')));
  if (dealerRows.length === 0 || models.length === 0) return created;
  const brands = [...new Set(models.map((m) => m.brand))].sort();
  const today = limaToday();
  const ty = Number(today.slice(0, 4));
  const tm = Number(today.slice(5, 7));
  const td = Number(today.slice(8, 10));
  const months: { y: number; m: number }[] = [];
  // From January of last year: this year to date compares with the same months a year before.
  for (let i = 11 + tm; i >= 0; i--) {
    const d = new Date(Date.UTC(ty, tm - 1 - i, 1));
    months.push({ y: d.getUTCFullYear(), m: d.getUTCMonth() + 1 });
  }
  const rnd = demoSequence(2026);
  const objectives: (typeof dispatchObjectives.$inferInsert)[] = [];
  const dispatchRows: (typeof dispatches.$inferInsert)[] = [];
  const daily = new Map<string, typeof dailySales.$inferInsert>();

  await db.transaction(async (tx) => {
    await tx.insert(storedOffices).values(OFFICES).onConflictDoNothing();
    const offices = await tx
      .select({ id: storedOffices.id, code: storedOffices.code })
      .from(storedOffices)
      .where(
        inArray(
          storedOffices.code,
          OFFICES.map((o) => o.code),
        ),
      );
    const officeOf = (dealerCode: string) =>
      offices.find(
        (o) =>
          o.code ===
          (/^(PIU|CHI|TRU|CAJ)/.test(dealerCode)
            ? 'ALM-PAI'
            : dealerCode.startsWith('CAL')
              ? 'ALM-CAL'
              : 'ALM-LUR'),
      )?.id ?? null;
    let seq = 0;
    for (const [di, dealer] of dealerRows.entries()) {
      const p = PROFILE[dealer.code];
      // Each dealer carries two or three of the brands.
      const carried = brands.filter((_, bi) => (di + bi) % 4 !== 3).slice(0, 2 + (di % 2));
      for (const brand of carried) {
        const brandModels = models.filter((m) => m.brand === brand);
        const brandSize = brand === 'A' ? 0.4 : brand === 'V' ? 1.2 : 1;
        for (const { y, m } of months) {
          const current = y === ty && m === tm;
          const objective = Math.max(1, Math.round(p.size * brandSize * SEASON[m - 1]));
          objectives.push({
            dealer_id: dealer.id,
            manufacturer_id: brandModels[0].brand_id,
            year: y,
            month: m,
            units: objective,
          });
          const lastDay = current ? td : daysInMonth(y, m);
          const share = lastDay / daysInMonth(y, m);
          if (current && LATE_DISPATCH.has(dealer.code)) continue;
          const units = Math.max(0, Math.round(objective * p.pace * share * (0.85 + rnd() * 0.3)));
          for (let u = 0; u < units; u++) {
            const model = brandModels[Math.floor(rnd() * brandModels.length)];
            const day = 1 + Math.floor(rnd() * lastDay);
            const vin = `9DSP${brand}${pad(di + 1)}${pad(++seq, 10)}`;
            dispatchRows.push({
              dealer_id: dealer.id,
              stored_office_id: officeOf(dealer.code),
              manufacturer_id: model.brand_id,
              manufacturer_model_id: model.id,
              model_name: model.name,
              vin,
              dispatch_date: `${y}-${pad(m)}-${pad(day)}`,
              units: 1,
              invoice: `FD${pad(di + 1, 3)}-${pad(seq, 7)}`,
              source: 'SIMA',
              sima_key: `demo:${vin}`,
            });
            // Most dispatched units are sold within two weeks; daily sales follow them.
            const sold = new Date(Date.UTC(y, m - 1, day + Math.floor(rnd() * 14)));
            const soldDate = sold.toISOString().slice(0, 10);
            if (soldDate > today || rnd() < 0.1) continue;
            const thisMonth = soldDate.slice(0, 7) === today.slice(0, 7);
            if (thisMonth && dealer.code === NO_DAILY_THIS_MONTH) continue;
            if (LATE_DAILY.has(dealer.code) && Date.parse(today) - sold.getTime() < 7 * 86_400_000) continue;
            const key = `${dealer.id}|${model.id}|${soldDate}`;
            const prev = daily.get(key);
            if (prev) prev.units = (prev.units ?? 0) + 1;
            else
              daily.set(key, {
                dealer_id: dealer.id,
                manufacturer_id: model.brand_id,
                manufacturer_model_id: model.id,
                sale_date: soldDate,
                units: 1,
              });
          }
        }
      }
    }
    for (let i = 0; i < objectives.length; i += 2000)
      created.objectives += (
        await tx
          .insert(dispatchObjectives)
          .values(objectives.slice(i, i + 2000))
          .onConflictDoNothing()
          .returning({ id: dispatchObjectives.id })
      ).length;
    for (let i = 0; i < dispatchRows.length; i += 2000)
      created.dispatches += (
        await tx
          .insert(dispatches)
          .values(dispatchRows.slice(i, i + 2000))
          .onConflictDoNothing()
          .returning({ id: dispatches.id })
      ).length;
    const dailyRows = [...daily.values()];
    for (let i = 0; i < dailyRows.length; i += 2000)
      created.dailySales += (
        await tx
          .insert(dailySales)
          .values(dailyRows.slice(i, i + 2000))
          .onConflictDoNothing()
          .returning({ id: dailySales.id })
      ).length;
  });
  return created;
}
