// Info Taller (/workshopinfo): a dealer's (and branch's) monthly workshop figures, the template
// they are loaded from, and the report-info answer (productivity, efficiency, labour rate, parts
// per order, against the same month a year before).
import { z } from '../zod';
import { defineContract, f, typeError } from './fields';

/** The largest amount a workshop cell holds (numeric(14,2)). */
export const WORKSHOP_MAX = 999_999_999_999;

/**
 * The columns of a workshop row, in template order: the record's key, the template header (also
 * the label), whether a row needs it, and its kind. The contract, the template, the import and
 * the batch all read this list.
 */
export const WORKSHOP_COLUMNS = [
  { key: 'dealer_code', header: 'Concesionario', required: true, kind: 'text', max: 20 },
  { key: 'branch', header: 'Sede', required: false, kind: 'text', max: 150 },
  { key: 'year', header: 'Año', required: true, kind: 'int', min: 2016, max: 2100 },
  { key: 'month', header: 'Mes', required: true, kind: 'int', min: 1, max: 12 },
  { key: 'work_orders_opened', header: 'OT abiertas', required: true, kind: 'int', min: 0, max: 1_000_000 },
  { key: 'work_orders_closed', header: 'OT cerradas', required: true, kind: 'int', min: 0, max: 1_000_000 },
  { key: 'hours_sold', header: 'Horas vendidas', required: true, kind: 'number', min: 0, max: 10_000_000 },
  {
    key: 'hours_worked',
    header: 'Horas trabajadas',
    required: true,
    kind: 'number',
    min: 0,
    max: 10_000_000,
  },
  {
    key: 'labour_revenue',
    header: 'Venta mano de obra',
    required: true,
    kind: 'number',
    min: 0,
    max: WORKSHOP_MAX,
  },
  {
    key: 'parts_revenue',
    header: 'Venta repuestos',
    required: true,
    kind: 'number',
    min: 0,
    max: WORKSHOP_MAX,
  },
  {
    key: 'accessories_revenue',
    header: 'Venta accesorios',
    required: false,
    kind: 'number',
    min: 0,
    max: WORKSHOP_MAX,
  },
  { key: 'warranty_orders', header: 'OT garantía', required: false, kind: 'int', min: 0, max: 1_000_000 },
  { key: 'technicians', header: 'Técnicos', required: false, kind: 'int', min: 0, max: 10_000 },
  { key: 'notes', header: 'Observaciones', required: false, kind: 'text', max: 500 },
] as const;
export type WorkshopColumnKey = (typeof WORKSHOP_COLUMNS)[number]['key'];
export const WORKSHOP_TEMPLATE_HEADERS = WORKSHOP_COLUMNS.map((c) => c.header);

/** A workshop row as it arrives (file or JSON): every cell is text or a number. */
export type WorkshopRowInput = Partial<Record<WorkshopColumnKey, string | number | null>> & {
  /** JSON rows may name the dealer and branch by id instead of code and name. */
  dealer_id?: number;
  dealer_branch_id?: number;
};

/** SPEC §3 and §9: a new workshop record defaults dealer_id to 1. */
export const WORKSHOP_DEFAULTS = { dealer_id: 1 } as const;

export const WORKSHOP_FILES = {
  template: 'Plantilla_Info_Taller.xlsx',
  report: (year: number) => `Reporte_Info_Taller_${year}.xlsx`,
} as const;

const col = (key: WorkshopColumnKey) => WORKSHOP_COLUMNS.find((c) => c.key === key)!;
const intField = (key: WorkshopColumnKey, flags = {}) => {
  const c = col(key) as { header: string; min: number; max: number; required: boolean };
  return c.required ? f.int(c.header, c.min, c.max, flags) : f.optInt(c.header, c.min, c.max, flags);
};
const amountField = (key: WorkshopColumnKey, flags = {}) => {
  const c = col(key) as { header: string; min: number; max: number; required: boolean };
  return c.required
    ? f.rule(
        c.header,
        (l) =>
          z
            .number({ error: typeError(l) })
            .min(c.min, `${l} el valor mínimo es ${c.min}`)
            .max(c.max, `${l} el valor máximo es ${c.max}`),
        flags,
      )
    : f.optNumber(c.header, c.min, c.max, flags);
};

export const workshopInfoContract = defineContract(
  {
    path: 'workshop-infos',
    permission: 'WorkshopInfos',
    title: 'Info Taller',
    sort: { field: 'period', order: 'desc' },
  },
  {
    // Optional in the body: a new record defaults to dealer 1 (a dealer user's is its own).
    dealer_id: f.optRef('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 1.3 } }),
    dealer_branch_id: f.optRef('Sede', 'dealer-branches', { within: 'dealer_id', filter: true }),
    dealer_branch_name: f.display('Sede', { column: { flex: 1 } }),
    year: f.int('Año', 2016, 2100, { sort: true, filter: true, column: { width: 75, type: 'string' } }),
    month: f.int('Mes', 1, 12, { sort: true, filter: true, column: { width: 110, format: 'month' } }),
    period: f.display('Periodo', { sort: true }),
    work_orders_opened: intField('work_orders_opened', { column: { width: 105 } }),
    work_orders_closed: intField('work_orders_closed', { column: { width: 105 } }),
    hours_sold: amountField('hours_sold', { sort: true, column: { width: 120, format: 'hours' } }),
    hours_worked: amountField('hours_worked', { sort: true, column: { width: 130, format: 'hours' } }),
    labour_revenue: amountField('labour_revenue', { column: { width: 150, format: 'money' } }),
    parts_revenue: amountField('parts_revenue', { column: { width: 150, format: 'money' } }),
    accessories_revenue: amountField('accessories_revenue', { column: { width: 150, format: 'money' } }),
    warranty_orders: intField('warranty_orders'),
    technicians: intField('technicians'),
    notes: f.optText('Observaciones', 500, { input: 'textarea' }),
    source: f.display('Origen'),
    created_at: f.created(),
  },
);

/** POST /api/workshop-infos/batch body: rows keyed as WORKSHOP_COLUMNS (or dealer_id / dealer_branch_id). */
export const workshopBatchSchema = z.object({
  rows: z
    .array(z.record(z.string(), z.unknown()), { error: () => 'rows es obligatorio' })
    .min(1, 'No hay filas para guardar')
    .max(50_000, 'Como máximo 50000 filas por envío'),
});

/** The summed workshop figures of a dealer's month (over its branches). */
export interface WorkshopSums {
  work_orders_opened: number;
  work_orders_closed: number;
  hours_sold: number;
  hours_worked: number;
  labour_revenue: number;
  parts_revenue: number;
}

/** The workshop figures of a dealer's month, summed over its branches, with the ratios. */
export interface WorkshopFigures extends WorkshopSums {
  /** From capacities (every branch of the dealer that month); null when none was recorded. */
  available_hours: number | null;
  /** hours worked ÷ available hours */
  productivity: number | null;
  /** hours sold ÷ hours worked */
  efficiency: number | null;
  /** labour revenue ÷ hours sold */
  labour_rate: number | null;
  /** parts revenue ÷ work orders closed */
  parts_per_order: number | null;
}

/** One row of GET /api/reports/report-info: a dealer's month and the same month a year before. */
export interface ReportInfoRow extends WorkshopFigures {
  dealer_id: number;
  dealer_code: string;
  dealer_name: string;
  year: number;
  month: number;
  /** The same month of the year before (null: no workshop info then). */
  previous: WorkshopFigures | null;
}

const ratio = (num: number | null | undefined, den: number | null | undefined): number | null =>
  num === null || num === undefined || !den ? null : num / den;

/** The four ratios of a month's sums (shared by the server's report and the screen's totals). */
export function workshopRatios(s: {
  hours_sold: number;
  hours_worked: number;
  labour_revenue: number;
  parts_revenue: number;
  work_orders_closed: number;
  available_hours: number | null;
}): Pick<WorkshopFigures, 'productivity' | 'efficiency' | 'labour_rate' | 'parts_per_order'> {
  return {
    productivity: ratio(s.hours_worked, s.available_hours),
    efficiency: ratio(s.hours_sold, s.hours_worked),
    labour_rate: ratio(s.labour_revenue, s.hours_sold),
    parts_per_order: ratio(s.parts_revenue, s.work_orders_closed),
  };
}

/**
 * Rows summed (a dealer's period, the network's month) with their ratios; null when none.
 * Productivity counts only the rows whose capacity is known.
 */
export function workshopTotals(figs: (WorkshopFigures | null)[]): WorkshopFigures | null {
  const these = figs.filter((f): f is WorkshopFigures => !!f);
  if (!these.length) return null;
  const sum = (k: keyof WorkshopSums) => these.reduce((a, f) => a + f[k], 0);
  const withCapacity = these.filter((f) => f.available_hours);
  const s = {
    work_orders_opened: sum('work_orders_opened'),
    work_orders_closed: sum('work_orders_closed'),
    hours_sold: sum('hours_sold'),
    hours_worked: sum('hours_worked'),
    labour_revenue: sum('labour_revenue'),
    parts_revenue: sum('parts_revenue'),
    available_hours: withCapacity.length
      ? withCapacity.reduce((a, f) => a + (f.available_hours ?? 0), 0)
      : null,
  };
  const ratios = workshopRatios(s);
  ratios.productivity = s.available_hours
    ? withCapacity.reduce((a, f) => a + f.hours_worked, 0) / s.available_hours
    : null;
  return { ...s, ...ratios };
}

/** The rows grouped by a key, in the order each key first appears. */
function groupRows(rows: ReportInfoRow[], keyOf: (r: ReportInfoRow) => number) {
  const groups = new Map<number, ReportInfoRow[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return [...groups.values()];
}

/**
 * report-info's ?view=dealer: one row per dealer (month 0), the period's sums and ratios against
 * the same months a year before (those of its rows).
 */
export function reportInfoByDealer(rows: ReportInfoRow[]): ReportInfoRow[] {
  return groupRows(rows, (r) => r.dealer_id).map((own) => ({
    ...own[0],
    month: 0,
    ...workshopTotals(own)!,
    previous: workshopTotals(own.map((r) => r.previous)),
  }));
}

/**
 * report-info's ?view=network: one row per month that has rows (dealer_id 0 'Red'; the dealer's
 * own when one is asked), the month's sums and ratios over every dealer, against the year before.
 */
export function reportInfoByMonth(rows: ReportInfoRow[]): ReportInfoRow[] {
  return groupRows(rows, (r) => r.month)
    .sort((a, b) => a[0].month - b[0].month)
    .map((own) => {
      const one = own.every((r) => r.dealer_id === own[0].dealer_id);
      return {
        ...own[0],
        ...(one ? {} : { dealer_id: 0, dealer_code: '', dealer_name: 'Red' }),
        ...workshopTotals(own)!,
        previous: workshopTotals(own.map((r) => r.previous)),
      };
    });
}

export const WORKSHOP_CONTRACTS = [workshopInfoContract] as const;
