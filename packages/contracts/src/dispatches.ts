// Dispatches (despachos), objectives and daily sales (issue 13): the records both sides know, the
// bodies of the module's calls, the shapes of its summaries and the file names of SPEC §7.

import { MONTH_SHORT } from './figures';
import { dealerBodyField } from './query';
import { defineContract, f, field } from './resources/fields';
import { vinField } from './sales';
import { z } from './zod';

const dateRule = (l: string) => field.date(l);

/** A SIMA warehouse (almacen) a dispatch leaves from. */
export const storedOfficeContract = defineContract(
  {
    path: 'transaction-stored-offices',
    permission: 'Transactions',
    title: 'Almacenes',
    lookup: 'authenticated',
  },
  {
    code: f.text('Código', 20, { search: true, sort: true, column: { width: 130 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

/** One dispatch: units of a model sent by the importer to a dealer (from SIMA, or entered by hand). */
export const dispatchContract = defineContract(
  {
    path: 'transactions',
    permission: 'Transactions',
    title: 'Despachos',
    sort: { field: 'dispatch_date', order: 'desc' },
  },
  {
    dispatch_date: f.rule('Fecha', dateRule, {
      input: 'date',
      sort: true,
      column: { width: 105, type: 'date' },
    }),
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { sort: true, column: { flex: 1.3 } }),
    stored_office_id: f.optRef('Almacén', 'transaction-stored-offices', { filter: true }),
    stored_office_name: f.display('Almacén', { column: { width: 150 } }),
    manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { sort: true, column: { width: 110 } }),
    manufacturer_model_id: f.optRef('Modelo del catálogo', 'manufacturer-models', {
      within: 'manufacturer_id',
    }),
    model_name: f.text('Modelo', 150, { search: true, sort: true, column: { flex: 1 } }),
    vin: vinField(),
    units: f.int('Unidades', 1, 999, { sort: true, column: { width: 95 } }),
    invoice: f.optText('Factura', 40, { search: true, column: { width: 120 } }),
    source: f.display('Origen', { filter: true, column: { width: 90 } }),
    created_at: f.created(),
  },
);

/** Units a dealer should reach for a brand in a month (written by the batch and the upload). */
export const objectiveContract = defineContract(
  {
    path: 'dispatches-objectives',
    permission: 'Transactions',
    title: 'Objetivos',
    sort: { field: 'year', order: 'desc' },
  },
  {
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { sort: true, column: { flex: 1.5 } }),
    manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { sort: true, column: { width: 120 } }),
    year: f.rule('Año', (l) => field.int(l, 2016, 2100), {
      sort: true,
      filter: true,
      column: { width: 80, type: 'string' },
    }),
    month: f.int('Mes', 1, 12, { sort: true, filter: true, column: { width: 80 } }),
    units: f.int('Objetivo', 0, 100_000, { sort: true, column: { width: 100 } }),
    updated_at: f.display('Actualizado', { column: { width: 170, type: 'date' } }),
  },
);

/** Units sold by a dealer of a model on a day (written by the month grid and the upload). */
export const dailySaleEntryContract = defineContract(
  {
    path: 'daily-sale-entries',
    permission: 'DailySales',
    title: 'Venta diaria',
    sort: { field: 'sale_date', order: 'desc' },
  },
  {
    sale_date: f.rule('Fecha', dateRule, { input: 'date', sort: true, column: { width: 105, type: 'date' } }),
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { sort: true, column: { flex: 1.3 } }),
    manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { sort: true, column: { width: 110 } }),
    manufacturer_model_id: f.ref('Modelo', 'manufacturer-models', { within: 'manufacturer_id' }),
    model_name: f.display('Modelo', { search: true, sort: true, column: { flex: 1 } }),
    units: f.int('Unidades', 0, 999, { sort: true, column: { width: 95 } }),
  },
);

// ---------- Bodies of the calls ----------

const year = (l = 'Año') => field.int(l, 2016, 2100);
const month = (l = 'Mes') => field.int(l, 1, 12);

/** One objective row of POST /api/dispatches-objectives: the dealer and brand by id or by code. */
export const objectiveRowSchema = z.object({
  dealer_id: z.number().int().positive().optional(),
  dealer_code: z.string().max(20).optional(),
  manufacturer_id: z.number().int().positive().optional(),
  brand: z.string().max(120).optional(),
  year: z.unknown().optional(),
  month: z.unknown().optional(),
  units: z.unknown().optional(),
});
export type ObjectiveRowInput = z.infer<typeof objectiveRowSchema>;

/** POST /api/dispatches-objectives: objectives as JSON; all rows or none, with a report. */
export const objectivesBatchSchema = z.object({
  rows: z
    .array(objectiveRowSchema, { error: () => 'rows es obligatorio' })
    .min(1, 'No hay filas para guardar')
    .max(20_000, 'Como máximo 20000 filas por envío'),
});

/** One cell of the daily grid: units of a model sold by a dealer on a day (0 clears it). */
export const dailySaleEntrySchema = z.object({
  dealer_id: field.ref('Concesionario'),
  manufacturer_model_id: field.ref('Modelo'),
  sale_date: dateRule('Fecha'),
  units: field.int('Unidades', 0, 999),
});
export type DailySaleEntryInput = z.infer<typeof dailySaleEntrySchema>;

/** POST /api/daily-sales: the changed cells of the grid (or one entry); all or none. */
export const dailySalesBatchSchema = z.object({
  entries: z
    .array(z.unknown(), { error: () => 'entries es obligatorio' })
    .min(1, 'No hay ventas para guardar')
    .max(20_000, 'Como máximo 20000 registros por envío'),
});

/** Body of the report exports: the period and brand (SPEC §3 "Report export payload fields"). */
export const reportRequestSchema = z.object({
  /** File name without .xlsx (the dynamic report's default is 'Reporte'). */
  title_download: z.string().trim().max(120, 'title_download admite como máximo 120 caracteres').optional(),
  /** Labels of the month columns, in order (default 'Ene 2025', ...). */
  monthHeaders: z.array(z.string().max(40)).max(36).optional(),
  /** The brand's name as the screen shows it (header block and file name). */
  marcaSeleccionada: z.string().max(120).optional(),
  /** First month of the range (month defaults to January). */
  rangeFrom: z.object({ year: year().optional(), month: month().optional() }).optional(),
  /** Last month of the range. */
  rangeDays: z.object({ year: year().optional(), month: month().optional() }).optional(),
  /** Brand id or code; empty or 0 = every brand. */
  manufacturer: z.union([z.number().int().nonnegative(), z.string().max(10)]).optional(),
  year: year().optional(),
  month: month().optional(),
  /** Dealer id (0 or absent = every dealer in the caller's scope; a dealer user: its own, another 404). */
  dealer: dealerBodyField(),
});
export type ReportRequest = z.infer<typeof reportRequestSchema>;

// ---------- Answers ----------

export interface PullReportEntry {
  row: number;
  ok: boolean;
  errors: string[];
  vin?: string;
}

/** GET /api/transaction-api: what the SIMA pull did (added + updated + unchanged = received). */
export interface SimaPullResult {
  received: number;
  added: number;
  updated: number;
  unchanged: number;
  failed: number;
  months: string[];
  report: PullReportEntry[];
}

export interface DealerMonthRow {
  dealer_id: number;
  dealer_code: string;
  dealer_name: string;
  zone_name: string | null;
  /** Units per month number. */
  months: Record<number, number>;
  total: number;
}

/** GET /api/transaction-summary. */
export interface TransactionSummary {
  year: number;
  months: number[];
  rows: DealerMonthRow[];
  totals: { months: Record<number, number>; total: number };
}

export type PacingStatus = 'adelantado' | 'en_linea' | 'atrasado' | 'sin_objetivo';

export interface ObjectiveSummaryRow {
  dealer_id: number;
  dealer_code: string;
  dealer_name: string;
  manufacturer_id: number;
  manufacturer_name: string;
  objective: number;
  units: number;
  /** units ÷ objective × 100, null without objective. */
  compliance: number | null;
  /**
   * The objective due by the day of the period reached, exact (a fraction of a unit; screens and
   * files round it only to show it): a month's objective prorated by its days, a year's months
   * summed (complete months in full, the current one prorated).
   */
  objective_to_date: number;
  /** units ÷ objective_to_date × 100. */
  pacing: number | null;
  status: PacingStatus;
  /** Units the dealer reported as sold (daily sales) in the same days. */
  sold: number;
}

/** GET /api/objectives-summary. */
export interface ObjectivesSummary {
  year: number;
  month: number | null;
  as_of: string;
  days_elapsed: number;
  days_total: number;
  rows: ObjectiveSummaryRow[];
  totals: { objective: number; units: number; objective_to_date: number; sold: number };
  /** The totals' pace (%), from the exact objective to date (not from the rounded one shown). */
  pacing: number | null;
  status: PacingStatus;
}

export interface DailyGridRow {
  dealer_id: number;
  dealer_code: string;
  dealer_name: string;
  manufacturer_id: number;
  manufacturer_name: string;
  manufacturer_model_id: number;
  model_name: string;
  /** Units per day of month. */
  days: Record<number, number>;
  total: number;
}

/** GET /api/daily-sales. */
export interface DailyGrid {
  year: number;
  month: number;
  days: number;
  rows: DailyGridRow[];
  totals: { days: Record<number, number>; total: number };
}

export interface DealerModel {
  manufacturer_model_id: number;
  model_name: string;
  manufacturer_id: number;
  manufacturer_name: string;
  units: number;
}

// ---------- Their schemas (the calls' results: /api/docs and the fuzzer's check) ----------
// Each held to its interface above, so a call declaring it answers that type. Loose objects: the
// server serializes its answer as it is (a result schema is documentation, never a filter).

const units = z.number();
/** Units per month or day number (JSON object keys). */
const unitsByKey = z.record(z.string(), units);

export const simaPullResultSchema: z.ZodType<SimaPullResult> = z.looseObject({
  received: z.int(),
  added: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  failed: z.int(),
  months: z.array(z.string()),
  report: z.array(
    z.looseObject({ row: z.int(), ok: z.boolean(), errors: z.array(z.string()), vin: z.string().optional() }),
  ),
});

export const transactionSummarySchema: z.ZodType<TransactionSummary> = z.looseObject({
  year: z.int(),
  months: z.array(z.int()),
  rows: z.array(
    z.looseObject({
      dealer_id: z.int(),
      dealer_code: z.string(),
      dealer_name: z.string(),
      zone_name: z.string().nullable(),
      months: unitsByKey,
      total: units,
    }),
  ),
  totals: z.looseObject({ months: unitsByKey, total: units }),
});

const pacingStatusSchema = z.enum(['adelantado', 'en_linea', 'atrasado', 'sin_objetivo']);

/** The dealer and brand that head a row of the objectives summary and of the daily grid. */
const dealerBrandFields = {
  dealer_id: z.int(),
  dealer_code: z.string(),
  dealer_name: z.string(),
  manufacturer_id: z.int(),
  manufacturer_name: z.string(),
};

export const objectivesSummarySchema: z.ZodType<ObjectivesSummary> = z.looseObject({
  year: z.int(),
  month: z.int().nullable(),
  as_of: z.string(),
  days_elapsed: z.int(),
  days_total: z.int(),
  rows: z.array(
    z.looseObject({
      ...dealerBrandFields,
      objective: units,
      units,
      compliance: z.number().nullable(),
      objective_to_date: z.number(),
      pacing: z.number().nullable(),
      status: pacingStatusSchema,
      sold: units,
    }),
  ),
  totals: z.looseObject({ objective: units, units, objective_to_date: z.number(), sold: units }),
  pacing: z.number().nullable(),
  status: pacingStatusSchema,
});

export const dailyGridSchema: z.ZodType<DailyGrid> = z.looseObject({
  year: z.int(),
  month: z.int(),
  days: z.int(),
  rows: z.array(
    z.looseObject({
      ...dealerBrandFields,
      manufacturer_model_id: z.int(),
      model_name: z.string(),
      days: unitsByKey,
      total: units,
    }),
  ),
  totals: z.looseObject({ days: unitsByKey, total: units }),
});

// ---------- File names (SPEC §7) and labels ----------

export const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** Months as a file name part: a run '1-3', else '1_3_5'. */
export function monthsPart(months: number[]): string {
  const sorted = [...new Set(months)].sort((a, b) => a - b);
  if (sorted.length === 0) return '';
  const run = sorted.every((m, i) => i === 0 || m === sorted[i - 1] + 1);
  if (run && sorted.length > 1) return `${sorted[0]}-${sorted[sorted.length - 1]}`;
  return sorted.join('_');
}

/** A name safe in a file name: no path or reserved characters. */
export const filePart = (s: string) =>
  s
    .replace(/[\\/:*?"<>|\s]+/g, ' ')
    .trim()
    .replace(/ /g, '_') || 'Todas';

export const DISPATCH_FILES = {
  objectivesTemplate: 'Formato_Objetivos.xlsx',
  dailyTemplate: (y: number, m: number) => `Formato_Daily_${y}_${m}.xlsx`,
  dailyReport: (brand: string, y: number, m: number) => `Reporte_Daily_${filePart(brand)}_${y}_${m}.xlsx`,
  dispatchReport: (brand: string, y: number, months: number[]) =>
    `Reporte-Despachos-${filePart(brand)}-${y}-${monthsPart(months)}.xlsx`,
  dynamicReport: (title?: string) => `${filePart(title?.replace(/\.xlsx$/i, '') || 'Reporte')}.xlsx`,
  internalReport: (brand: string, y: number, m: number) =>
    `Reporte-Interno-${filePart(brand)}-${y}-${m}.xlsx`,
  internalDailyReport: (brand: string, y: number, m: number) =>
    `Reporte_Daily_Interno_${filePart(brand)}_${y}_${m}.xlsx`,
} as const;

/** The header row of Formato_Objetivos.xlsx: a row per dealer, brand and year, a column per month. */
export const OBJECTIVES_TEMPLATE_HEADERS = ['Concesionario', 'Marca', 'Año', ...MONTH_SHORT] as const;

/** The first columns of Formato_Daily; the days of the month follow (1, 2, ...). */
export const DAILY_TEMPLATE_HEADERS = ['Concesionario', 'Marca', 'Modelo'] as const;

export const PACING_STATUSES: { id: PacingStatus; name: string }[] = [
  { id: 'adelantado', name: 'Adelantado' },
  { id: 'en_linea', name: 'En línea' },
  { id: 'atrasado', name: 'Atrasado' },
  { id: 'sin_objetivo', name: 'Sin objetivo' },
];

/** The module's resource contracts (gathered into RESOURCE_CONTRACTS). */
export const DISPATCH_CONTRACTS = [
  storedOfficeContract,
  dispatchContract,
  objectiveContract,
  dailySaleEntryContract,
] as const;
