// The named reports of SPEC §7, as report specs for sendXlsxReport (core/xlsx): each reads its
// figures within the caller's dealer scope and lays them out under a header block.
import {
  DISPATCH_FILES,
  daysInMonth,
  MONTH_SHORT,
  MONTHS,
  QUERY_LABELS,
  type ReportRequest,
} from '@app/contracts';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { ValidationError } from '../../core/errors';
import type { Brand } from '../../core/import-kit';
import { limaToday } from '../../core/lima';
import type { Scope } from '../../core/scope';
import type { ReportColumn, XlsxReport } from '../../core/xlsx';
import { manufacturers } from '../../db/schema';
import { monthEnd, monthStart } from './dispatches.lookups';
import {
  dailyGrid,
  objectivesSummary,
  scopeDealers,
  transactionSummary,
  unitsBy,
} from './dispatches.summary';
import { dispatches, dispatchObjectives } from './dispatches.tables';

const brandName = (b?: Brand, shown?: string) => shown?.trim() || b?.name || 'Todas';
const monthLabel = (y: number, m: number) => `${MONTH_SHORT[m - 1]} ${y}`;
const pct = (a: number, b: number) => (b > 0 ? (a / b) * 100 : null);
const dealerColumns: ReportColumn[] = [
  { key: 'dealer_code', header: 'Código', width: 10 },
  { key: 'dealer_name', header: QUERY_LABELS.dealer, width: 30 },
  { key: 'zone_name', header: 'Zona', width: 14 },
];

/** GET /api/transaction/report-export: dispatched units per dealer × month of a year, against objectives. */
export async function dispatchReport(
  db: Executor,
  scope: Scope,
  q: { year: number; months: number[]; brand?: Brand },
): Promise<XlsxReport> {
  const summary = await transactionSummary(db, scope, { ...q, manufacturerId: q.brand?.id });
  // The objective of the chosen months only (the year summary sums every month).
  const objectiveRows = new Map<number, number>();
  const objectives = await unitsBy(
    db,
    scope,
    'objectives',
    { manufacturerId: q.brand?.id },
    and(eq(dispatchObjectives.year, q.year), inArray(dispatchObjectives.month, q.months)),
  );
  for (const [k, units] of objectives) {
    const dealer = Number(k.split('|')[0]);
    objectiveRows.set(dealer, (objectiveRows.get(dealer) ?? 0) + units);
  }
  const rows = summary.rows.map((r) => {
    const objective = objectiveRows.get(r.dealer_id) ?? 0;
    const out: Record<string, unknown> = {
      ...r,
      objective,
      total: r.total,
      compliance: pct(r.total, objective),
    };
    for (const m of q.months) out[`m${m}`] = r.months[m];
    return out;
  });
  const name = brandName(q.brand);
  return {
    filename: DISPATCH_FILES.dispatchReport(name, q.year, q.months),
    sheetName: 'Despachos',
    title: 'Reporte de Despachos',
    info: [
      ['Marca', name],
      ['Periodo', `${q.year}: ${q.months.map((m) => MONTHS[m - 1].name).join(', ')}`],
    ],
    columns: [
      ...dealerColumns,
      ...q.months.map(
        (m): ReportColumn => ({
          key: `m${m}`,
          header: MONTH_SHORT[m - 1],
          type: 'int',
          total: true,
          width: 9,
        }),
      ),
      { key: 'total', header: 'Total', type: 'int', total: true, width: 10 },
      { key: 'objective', header: 'Objetivo', type: 'int', total: true, width: 10 },
      { key: 'compliance', header: 'Cumplimiento', type: 'percent', width: 13 },
    ],
    rows: [rows],
    totalsLabel: 'Total',
    totalsFrom: (s) => ({ compliance: pct(s.total, s.objective) }),
    freezeColumns: 2,
  };
}

/** The months from rangeFrom to rangeDays (or year/month), at most 36. */
export function reportRange(body: ReportRequest): { year: number; month: number }[] {
  const today = limaToday();
  const endYear = body.rangeDays?.year ?? body.year ?? Number(today.slice(0, 4));
  const endMonth = body.rangeDays?.month ?? body.month ?? 12;
  const startYear = body.rangeFrom?.year ?? endYear;
  const startMonth = body.rangeFrom?.month ?? 1;
  const out: { year: number; month: number }[] = [];
  for (let y = startYear, m = startMonth; y < endYear || (y === endYear && m <= endMonth); ) {
    out.push({ year: y, month: m });
    if (out.length > 36) throw ValidationError.field('rangeFrom', 'El reporte admite como máximo 36 meses');
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  if (out.length === 0) throw ValidationError.field('rangeDays', 'El fin del rango es anterior a su inicio');
  if (body.monthHeaders && body.monthHeaders.length !== out.length)
    throw ValidationError.field(
      'monthHeaders',
      `monthHeaders tiene ${body.monthHeaders.length} títulos y el rango ${out.length} meses`,
    );
  return out;
}

/**
 * POST /api/transaction/export-dynamic-report: the chosen months (across years) as columns, a row
 * per dealer (and brand, when every brand is asked for). One grouped query: the database sums the
 * dispatches; Node only lays out dealers × months.
 */
export async function dynamicReport(
  db: Executor,
  scope: Scope,
  body: ReportRequest,
  brand?: Brand,
): Promise<XlsxReport> {
  const range = reportRange(body);
  const first = range[0];
  const last = range[range.length - 1];
  // Grouped by the month's first day (cheap), named YYYY-MM once per group: to_char on every row
  // cost four times the whole grouping over 200,000 dispatches.
  const monthStartOf = sql`date_trunc('month', ${dispatches.dispatch_date}::timestamp)`;
  const monthKey = sql<string>`to_char(${monthStartOf}, 'YYYY-MM')`;
  const sums = await db
    .select({
      dealer_id: dispatches.dealer_id,
      manufacturer_id: dispatches.manufacturer_id,
      month: monthKey,
      units: sql<number>`sum(${dispatches.units})::int`,
    })
    .from(dispatches)
    .where(
      and(
        scope.on(dispatches.dealer_id),
        gte(dispatches.dispatch_date, monthStart(first.year, first.month)),
        lte(dispatches.dispatch_date, monthEnd(last.year, last.month)),
        brand ? eq(dispatches.manufacturer_id, brand.id) : undefined,
      ),
    )
    .groupBy(dispatches.dealer_id, dispatches.manufacturer_id, monthStartOf);
  const brands = await db
    .select({ id: manufacturers.id, name: manufacturers.name })
    .from(manufacturers)
    .orderBy(asc(manufacturers.name));
  const key = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;
  const cells = new Map<string, Record<string, number>>();
  for (const s of sums) {
    const k = brand ? `${s.dealer_id}` : `${s.dealer_id}|${s.manufacturer_id}`;
    const c = cells.get(k) ?? {};
    c[s.month] = (c[s.month] ?? 0) + s.units;
    cells.set(k, c);
  }
  const dealerRows = await scopeDealers(
    db,
    scope,
    sums.map((x) => x.dealer_id),
  );
  const rows: Record<string, unknown>[] = [];
  for (const d of dealerRows) {
    for (const b of brand ? [brand] : brands) {
      const c = cells.get(brand ? `${d.id}` : `${d.id}|${b.id}`);
      // Every dealer shows with the chosen brand (a zero row says "nothing dispatched"); with every
      // brand, only the brands it received.
      if (!c && !brand) continue;
      const row: Record<string, unknown> = {
        dealer_code: d.code,
        dealer_name: d.name,
        zone_name: d.zone_name,
        brand: b.name,
      };
      let total = 0;
      range.forEach(({ year, month }, i) => {
        const v = c?.[key(year, month)] ?? 0;
        row[`c${i}`] = v;
        total += v;
      });
      row.total = total;
      rows.push(row);
    }
  }
  const name = brandName(brand, body.marcaSeleccionada);
  return {
    filename: DISPATCH_FILES.dynamicReport(body.title_download),
    sheetName: 'Reporte',
    title: body.title_download?.trim() || 'Reporte de Despachos',
    info: [
      ['Marca', name],
      ['Periodo', `${monthLabel(first.year, first.month)} a ${monthLabel(last.year, last.month)}`],
    ],
    columns: [
      ...dealerColumns,
      ...(brand ? [] : [{ key: 'brand', header: 'Marca', width: 14 }]),
      ...range.map(
        ({ year, month }, i): ReportColumn => ({
          key: `c${i}`,
          header: body.monthHeaders?.[i] ?? monthLabel(year, month),
          type: 'int',
          total: true,
          width: 10,
        }),
      ),
      { key: 'total', header: 'Total', type: 'int', total: true, width: 10 },
    ],
    rows: [rows],
    totalsLabel: 'Total',
    freezeColumns: 2,
  };
}

/**
 * POST /api/transaction/export-internal-report: per dealer and brand, the month's objective,
 * dispatches and compliance, and the same from January to that month (year to date).
 */
export async function internalReport(
  db: Executor,
  scope: Scope,
  q: { year: number; month: number; brand?: Brand },
): Promise<XlsxReport> {
  const end = monthEnd(q.year, q.month);
  const month = await objectivesSummary(db, scope, { ...q, manufacturerId: q.brand?.id, asOf: end });
  const ytdObjective = await unitsBy(
    db,
    scope,
    'objectives',
    { manufacturerId: q.brand?.id },
    and(eq(dispatchObjectives.year, q.year), lte(dispatchObjectives.month, q.month)),
  );
  const ytd = await objectivesSummary(db, scope, { year: q.year, manufacturerId: q.brand?.id, asOf: end });
  const ytdUnits = new Map(ytd.rows.map((r) => [`${r.dealer_id}|${r.manufacturer_id}`, r.units]));
  const keys = new Set([
    ...month.rows.map((r) => `${r.dealer_id}|${r.manufacturer_id}`),
    ...ytdObjective.keys(),
    ...ytdUnits.keys(),
  ]);
  const byKey = new Map(month.rows.map((r) => [`${r.dealer_id}|${r.manufacturer_id}`, r]));
  const names = new Map(ytd.rows.map((r) => [`${r.dealer_id}|${r.manufacturer_id}`, r]));
  const rows: Record<string, unknown>[] = [];
  const dealerRows = await scopeDealers(
    db,
    scope,
    [...keys].map((k) => Number(k.split('|')[0])),
  );
  const zone = new Map(dealerRows.map((d) => [d.id, d.zone_name]));
  for (const k of keys) {
    const m = byKey.get(k);
    const y = names.get(k) ?? m;
    if (!y) continue;
    const objYtd = ytdObjective.get(k) ?? 0;
    const unitsYtd = ytdUnits.get(k) ?? 0;
    rows.push({
      zone_name: zone.get(y.dealer_id) ?? null,
      dealer_code: y.dealer_code,
      dealer_name: y.dealer_name,
      brand: y.manufacturer_name,
      objective: m?.objective ?? 0,
      units: m?.units ?? 0,
      compliance: m?.compliance ?? null,
      sold: m?.sold ?? 0,
      objective_ytd: objYtd,
      units_ytd: unitsYtd,
      compliance_ytd: pct(unitsYtd, objYtd),
    });
  }
  rows.sort(
    (a, b) =>
      String(a.dealer_name).localeCompare(String(b.dealer_name)) ||
      String(a.brand).localeCompare(String(b.brand)),
  );
  const name = brandName(q.brand);
  return {
    filename: DISPATCH_FILES.internalReport(name, q.year, q.month),
    sheetName: 'Interno',
    title: 'Reporte Interno de Despachos y Objetivos',
    info: [
      ['Marca', name],
      ['Periodo', `${MONTHS[q.month - 1].name} ${q.year} (acumulado desde enero)`],
    ],
    columns: [
      { key: 'dealer_code', header: 'Código', width: 10 },
      { key: 'dealer_name', header: QUERY_LABELS.dealer, width: 30 },
      { key: 'zone_name', header: 'Zona', width: 14 },
      { key: 'brand', header: 'Marca', width: 14 },
      { key: 'objective', header: 'Objetivo mes', type: 'int', total: true },
      { key: 'units', header: 'Despachos mes', type: 'int', total: true },
      { key: 'compliance', header: 'Cumplimiento mes', type: 'percent', width: 16 },
      { key: 'sold', header: 'Venta diaria mes', type: 'int', total: true, width: 16 },
      { key: 'objective_ytd', header: 'Objetivo acumulado', type: 'int', total: true, width: 18 },
      { key: 'units_ytd', header: 'Despachos acumulados', type: 'int', total: true, width: 20 },
      { key: 'compliance_ytd', header: 'Cumplimiento acumulado', type: 'percent', width: 22 },
    ],
    rows: [rows],
    totalsLabel: 'Total',
    totalsFrom: (s) => ({
      compliance: pct(s.units, s.objective),
      compliance_ytd: pct(s.units_ytd, s.objective_ytd),
    }),
    freezeColumns: 2,
  };
}

/** GET /api/daily-sales-report: units sold per dealer × day of a month (models summed). */
export async function dailyReport(
  db: Executor,
  scope: Scope,
  q: { year: number; month: number; brand?: Brand },
): Promise<XlsxReport> {
  const grid = await dailyGrid(db, scope, { ...q, manufacturerId: q.brand?.id });
  const days = daysInMonth(q.year, q.month);
  const byDealer = new Map<number, Record<string, unknown>>();
  for (const d of await scopeDealers(
    db,
    scope,
    grid.rows.map((r) => r.dealer_id),
  )) {
    const row: Record<string, unknown> = {
      dealer_code: d.code,
      dealer_name: d.name,
      zone_name: d.zone_name,
      total: 0,
    };
    for (let i = 1; i <= days; i++) row[`d${i}`] = 0;
    byDealer.set(d.id, row);
  }
  for (const r of grid.rows) {
    const row = byDealer.get(r.dealer_id);
    if (!row) continue;
    for (const [day, units] of Object.entries(r.days)) row[`d${day}`] = (row[`d${day}`] as number) + units;
    row.total = (row.total as number) + r.total;
  }
  const name = brandName(q.brand);
  return {
    filename: DISPATCH_FILES.dailyReport(name, q.year, q.month),
    sheetName: 'Venta diaria',
    title: 'Reporte de Venta Diaria',
    info: [
      ['Marca', name],
      ['Periodo', `${MONTHS[q.month - 1].name} ${q.year}`],
    ],
    columns: [
      ...dealerColumns,
      ...Array.from(
        { length: days },
        (_, i): ReportColumn => ({
          key: `d${i + 1}`,
          header: String(i + 1),
          type: 'int',
          total: true,
          width: 6,
        }),
      ),
      { key: 'total', header: 'Total', type: 'int', total: true, width: 9 },
    ],
    rows: [[...byDealer.values()]],
    totalsLabel: 'Total',
    freezeColumns: 2,
  };
}

/**
 * POST /api/transaction/export-internal-daily-report: per dealer and brand, the month's objective,
 * the objective prorated to the day, the units sold so far (daily sales), the pace, and the month
 * end it points to (sold ÷ days elapsed × days of the month); dispatches of the month beside.
 */
export async function internalDailyReport(
  db: Executor,
  scope: Scope,
  q: { year: number; month: number; brand?: Brand; asOf?: string },
): Promise<XlsxReport> {
  const s = await objectivesSummary(db, scope, { ...q, manufacturerId: q.brand?.id });
  const rows = s.rows.map((r) => {
    const toDate = r.objective_to_date;
    return {
      dealer_code: r.dealer_code,
      dealer_name: r.dealer_name,
      brand: r.manufacturer_name,
      objective: r.objective,
      objective_to_date: toDate,
      sold: r.sold,
      pacing: pct(r.sold, toDate),
      projection: s.days_elapsed > 0 ? Math.round((r.sold / s.days_elapsed) * s.days_total) : 0,
      units: r.units,
    };
  });
  const name = brandName(q.brand);
  return {
    filename: DISPATCH_FILES.internalDailyReport(name, q.year, q.month),
    sheetName: 'Daily interno',
    title: 'Reporte Interno de Venta Diaria',
    info: [
      ['Marca', name],
      ['Periodo', `${MONTHS[q.month - 1].name} ${q.year}`],
      ['Días transcurridos', `${s.days_elapsed} de ${s.days_total} (al ${s.as_of})`],
      ['Avance', 'Venta diaria a la fecha ÷ objetivo de despacho a la fecha'],
    ],
    columns: [
      { key: 'dealer_code', header: 'Código', width: 10 },
      { key: 'dealer_name', header: QUERY_LABELS.dealer, width: 30 },
      { key: 'brand', header: 'Marca', width: 14 },
      { key: 'objective', header: 'Objetivo mes', type: 'int', total: true },
      { key: 'objective_to_date', header: 'Objetivo a la fecha', type: 'number', total: true, width: 18 },
      { key: 'sold', header: 'Venta a la fecha', type: 'int', total: true, width: 16 },
      { key: 'pacing', header: 'Avance', type: 'percent', width: 10 },
      { key: 'projection', header: 'Proyección al cierre', type: 'int', total: true, width: 19 },
      { key: 'units', header: 'Despachos a la fecha', type: 'int', total: true, width: 19 },
    ],
    rows: [rows],
    totalsLabel: 'Total',
    totalsFrom: (t) => ({ pacing: pct(t.sold, t.objective_to_date) }),
    freezeColumns: 2,
  };
}
