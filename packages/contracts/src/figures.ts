// Figures (cifras), fees (cuotas) and capacities: the monthly grids shared by both sides. The
// units of a concept, the states of a period, the bodies of the grid calls, the answers the
// screens read, and the rules that both sides compute the same way (compliance, a year's total,
// a branch's available hours).

import { MONTHS } from './fixed-lists';
import { EXCEL_PERCENT_POINTS, excelFormat, formatNumber, type NumberKind } from './format';
import { messages } from './messages';
import { declareDealer } from './query';
import { defineContract, f, field } from './resources/fields';
import { z } from './zod';

/**
 * What a concept counts, its kind (how it adds up is its `aggregation`): a count of units, a
 * percentage (0–100), money in soles, hours, or days.
 */
export const CONCEPT_UNITS = [
  { id: 'UND', name: 'Unidades' },
  { id: 'PCT', name: '%' },
  { id: 'PEN', name: 'Soles' },
  { id: 'HRS', name: 'Horas' },
  { id: 'DIA', name: 'Días' },
] as const;
export type ConceptUnit = (typeof CONCEPT_UNITS)[number]['id'];

/** The decimals a concept of each kind takes unless it declares its own. */
export const UNIT_DECIMALS: Record<ConceptUnit, number> = { UND: 0, PCT: 1, PEN: 2, HRS: 1, DIA: 1 };

/** How a concept's values read: money in soles, a percentage (0–100), a count, or a measure. */
export function conceptKind(unit: string | null | undefined): NumberKind {
  if (unit === 'PEN') return 'currency';
  if (unit === 'PCT') return 'percent';
  if (unit === 'UND') return 'integer';
  return 'number';
}

/** The .xlsx format of a concept's cells, as its grid shows them ('%' concepts hold 0–100). */
export function conceptExcelFormat(unit: string | null | undefined, decimals?: number | null): string {
  const kind = conceptKind(unit);
  if (kind === 'percent') return EXCEL_PERCENT_POINTS;
  return excelFormat(kind, undefined, kind === 'currency' ? 2 : (decimals ?? undefined));
}

/** What a value's rules need of its concept. */
export interface ConceptRule {
  name: string;
  unit: string | null;
  /** Decimals it takes: 0 for a count. */
  decimals: number | null;
  /** The plausible range of a dealer's month: beyond it the grid warns, never refuses. */
  plausible_min: number | null;
  plausible_max: number | null;
}

const NOT_NEGATIVE = new Set(['UND', 'HRS', 'DIA']);

/** Whether a value has at most `decimals` decimals (Excel's 1234.5599999999999 has two). */
function fitsDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

/**
 * Why a value breaks its concept's kind (a fractional count, more decimals than the concept
 * takes, a negative count, percentage, hours or days); null when it is acceptable. The grid
 * refuses it and the server answers 422 with it.
 */
export function conceptValueError(c: ConceptRule, value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const decimals = c.decimals ?? UNIT_DECIMALS[c.unit as ConceptUnit] ?? 2;
  if (!fitsDecimals(value, decimals))
    return decimals === 0
      ? 'debe ser un número entero'
      : `admite como máximo ${decimals} ${decimals === 1 ? 'decimal' : 'decimales'}`;
  if (value < 0 && NOT_NEGATIVE.has(c.unit ?? '')) return 'no puede ser negativo';
  return null;
}

/** A concept's value as its grid shows it ('S/ 14.00', '85.0 %', '1,250'). */
export function formatConceptValue(
  c: Pick<ConceptRule, 'unit' | 'decimals'>,
  value: number,
  currency?: string,
) {
  const kind = conceptKind(c.unit);
  return formatNumber(value, kind, currency, kind === 'number' ? (c.decimals ?? undefined) : undefined);
}

/**
 * Why a value looks wrong though it is acceptable (beyond the concept's plausible range for a
 * dealer's month); null when it is in range. Shown on the screen; the value is saved.
 */
export function conceptValueWarning(
  c: ConceptRule,
  value: number | null | undefined,
  currency?: string,
): string | null {
  if (value === null || value === undefined) return null;
  const { plausible_min: min, plausible_max: max } = c;
  if ((min === null || value >= min) && (max === null || value <= max)) return null;
  const show = (v: number) => formatConceptValue(c, v, currency);
  const range =
    min !== null && max !== null
      ? `entre ${show(min)} y ${show(max)}`
      : min !== null
        ? `desde ${show(min)}`
        : `hasta ${show(max!)}`;
  return `${show(value)} está fuera de lo habitual (${range})`;
}

/**
 * How a concept's values add up over months and dealers, declared per concept (never guessed
 * from its unit): 'sum' adds months and dealers (units, soles, hours); 'avg' is a rate or an
 * average (%, days in the workshop): a dealer's months average, and the network is the average
 * of its dealers; 'last' is a month-end stock: a dealer's latest month, and the network adds
 * its dealers' latest months.
 */
export const CONCEPT_AGGREGATIONS = [
  { id: 'sum', name: 'Suma' },
  { id: 'avg', name: 'Promedio' },
  { id: 'last', name: 'Último valor' },
] as const;
export type ConceptAggregation = (typeof CONCEPT_AGGREGATIONS)[number]['id'];

/** A dealer's month: closed (no row) → enabled (manufacturer) → confirmed (dealer, locked). */
export const PERIOD_STATUSES = [
  { id: 'closed', name: 'Cerrado' },
  { id: 'enabled', name: 'Habilitado' },
  { id: 'confirmed', name: 'Confirmado' },
] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number]['id'];

/** Where a figure came from. */
export const FIGURE_SOURCES = [
  { id: 'grid', name: 'Digitado' },
  { id: 'concept', name: 'Fabricante' },
  { id: 'import', name: 'Carga Excel' },
  { id: 'casis', name: 'CASIS' },
] as const;

/** The largest absolute value a figure, fee or capacity cell holds (numeric(16,2)). */
export const FIGURE_MAX = 99_999_999_999_999;

export const FIGURE_MESSAGES = {
  notEnabled: (period: string) =>
    `El periodo ${period} no está habilitado: solicite al fabricante que lo habilite para registrar cifras`,
  confirmed: (period: string) =>
    `El periodo ${period} ya está confirmado: sus cifras no se pueden modificar (el fabricante puede reabrirlo)`,
  alreadyEnabled: (period: string) => `El periodo ${period} ya está habilitado`,
  confirmedCannotEnable: (period: string) =>
    `El periodo ${period} está confirmado: reábralo (con un motivo) en lugar de habilitarlo`,
  alreadyConfirmed: (period: string) => `El periodo ${period} ya está confirmado`,
  notConfirmed: (period: string) => `El periodo ${period} no está confirmado: no hay nada que reabrir`,
  manufacturerOnly: 'Esta acción la realiza solo el fabricante',
  noDealer: 'Elija un concesionario',
  future: 'No se puede habilitar un mes que aún no empieza',
} as const;

/** 'Marzo 2026 de LIM01' — how a message names a period. */
export function periodName(year: number, month: number, dealerCode?: string): string {
  const m = MONTH_NAMES[month - 1] ?? String(month);
  return `${m} ${year}${dealerCode ? ` de ${dealerCode}` : ''}`;
}

export const MONTH_NAMES = MONTHS.map((m) => m.name);
/** Column headers of the month columns (grids and the .xlsx files). */
export const MONTH_SHORT = [
  'Ene',
  'Feb',
  'Mar',
  'Abr',
  'May',
  'Jun',
  'Jul',
  'Ago',
  'Set',
  'Oct',
  'Nov',
  'Dic',
];

// ---- rules computed alike on both sides ----

/**
 * Compliance of a figure against its fee, as a fraction (1 = 100 %): figure ÷ fee, or fee ÷
 * figure for a concept where lower is better. Null when either is missing or the divisor is 0.
 */
export function compliance(
  figure: number | null | undefined,
  fee: number | null | undefined,
  higherIsBetter = true,
): number | null {
  if (figure === null || figure === undefined || fee === null || fee === undefined) return null;
  const [num, den] = higherIsBetter ? [figure, fee] : [fee, figure];
  if (den === 0) return null;
  return num / den;
}

const presentOf = (values: (number | null | undefined)[]) =>
  values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));

/**
 * One dealer's months (in month order) as one value, by the concept's aggregation; null when all
 * are empty.
 */
export function aggregate(
  values: (number | null | undefined)[],
  aggregation: string | null | undefined,
): number | null {
  const present = presentOf(values);
  if (!present.length) return null;
  if (aggregation === 'last') return present[present.length - 1];
  const sum = present.reduce((a, b) => a + b, 0);
  return aggregation === 'avg' ? sum / present.length : sum;
}

/** Hours a branch can sell in a month: bays and technicians both needed, so the smaller counts. */
export function availableHours(c: {
  bays?: number | null;
  technicians?: number | null;
  hours_per_day?: number | null;
  working_days?: number | null;
}): number | null {
  const { bays, technicians, hours_per_day, working_days } = c;
  if ([bays, technicians, hours_per_day, working_days].some((v) => v === null || v === undefined))
    return null;
  return Math.round(Math.min(bays!, technicians!) * hours_per_day! * working_days! * 100) / 100;
}

// ---- bodies of the calls ----

const year = field.int('Año', 2000, 2100);
const month = field.int('Mes', 1, 12);
const cell = (label: string) =>
  z
    .number({ error: (i) => (i.input === undefined ? messages.required(label) : `${label} no es un número`) })
    .min(-FIGURE_MAX, messages.min(label, -FIGURE_MAX))
    .max(FIGURE_MAX, messages.max(label, FIGURE_MAX))
    .nullable();
const dealerRef = field.ref('Concesionario');
const optDealer = field.optRef('Concesionario');
/** The dealer a whole body is about: declared, so a dealer user's is always its own (engine). */
const bodyDealer = () => declareDealer(field.optRef('Concesionario'));

/** POST /api/figures/enable: one dealer, several, or every dealer (`all`). */
export const figureEnableSchema = z
  .object({ year, month, dealer_ids: z.array(dealerRef).max(5000).optional(), all: z.boolean().optional() })
  .refine((b) => b.all || (b.dealer_ids?.length ?? 0) > 0, {
    message: 'Elija los concesionarios o marque todos',
    path: ['dealer_ids'],
  });

/** POST /api/figures/confirm: a dealer user confirms its own month (dealer_id is forced). */
export const figureConfirmSchema = z.object({ year, month, dealer_id: bodyDealer() });

/** POST /api/figure-periods/:id/reopen */
export const figureReopenSchema = z.object({ reason: field.text('Motivo', 300) });

/** POST /api/figure-dealers/remind: mails the dealers of the month still to confirm. */
export const figureRemindSchema = z.object({
  year,
  month,
  dealer_ids: z.array(dealerRef).max(5000).optional(),
});

const gridCell = z.object({
  dealer_id: optDealer,
  concept_id: field.ref('Concepto'),
  month,
  value: cell('Valor'),
});

/** PUT /api/figure-batch and PUT /api/fees-batch: cells of one year, in one transaction. */
export const gridBatchSchema = z.object({
  year,
  /** The dealer of cells that name none (a dealer user's cells are always its own). */
  dealer_id: bodyDealer(),
  values: z.array(gridCell).min(1, 'No hay cambios para guardar').max(200_000),
});

/** PUT /api/figure-concept: one concept of one month for several dealers (manufacturer). */
export const figureConceptSchema = z.object({
  year,
  month,
  concept_id: field.ref('Concepto'),
  values: z
    .array(z.object({ dealer_id: dealerRef, value: cell('Valor') }))
    .min(1, 'No hay cambios para guardar')
    .max(5000),
});

/** POST /api/casis-api: the month's figures from CASIS (a dealer user: its own). */
export const casisRequestSchema = z.object({ year, month, dealer_id: bodyDealer() });

const capacityCell = (label: string, max: number, whole = false) => {
  const n = z
    .number({ error: (i) => (i.input === undefined ? messages.required(label) : `${label} no es un número`) })
    .min(0, messages.min(label, 0))
    .max(max, messages.max(label, max));
  return (whole ? n.int(`${label} debe ser un número entero`) : n).nullable().optional();
};

/** A branch's capacity: bays, technicians and working days are counted; hours per day may take 8.5. */
export const CAPACITY_FIELDS = [
  { key: 'bays', label: 'Bahías', max: 500, whole: true, plausible: [1, 60] },
  { key: 'technicians', label: 'Técnicos', max: 2000, whole: true, plausible: [1, 200] },
  { key: 'hours_per_day', label: 'Horas por día', max: 24, whole: false, plausible: [4, 12] },
  { key: 'working_days', label: 'Días laborables', max: 31, whole: true, plausible: [15, 27] },
] as const;

/** PUT /api/capacity-batch: rows of one month, one per branch. */
export const capacityBatchSchema = z.object({
  year,
  month,
  rows: z
    .array(
      z.object({
        dealer_branch_id: field.ref('Sede'),
        bays: capacityCell('Bahías', 500, true),
        technicians: capacityCell('Técnicos', 2000, true),
        hours_per_day: capacityCell('Horas por día', 24),
        working_days: capacityCell('Días laborables', 31, true),
      }),
    )
    .min(1, 'No hay cambios para guardar')
    .max(20_000),
});
export type CapacityBatchInput = z.input<typeof capacityBatchSchema>;

// ---- answers (the result schemas of calls/figures.ts; their types are what the screens read) ----

const nullNum = z.number().nullable();
const nullStr = z.string().nullable();

export const conceptRowSchema = z.looseObject({
  id: z.int(),
  code: z.string(),
  name: z.string(),
  unit: nullStr,
  group: nullStr,
  order: z.number(),
  higher_is_better: z.boolean(),
  aggregation: z.enum(['sum', 'avg', 'last']),
  decimals: nullNum,
  plausible_min: nullNum,
  plausible_max: nullNum,
});
export type ConceptRow = z.output<typeof conceptRowSchema>;

export const gridDealerSchema = z.looseObject({ id: z.int(), code: z.string(), name: z.string() });
export type GridDealer = z.output<typeof gridDealerSchema>;

export const periodStateSchema = z.looseObject({
  id: z.int().nullable(),
  dealer_id: z.int(),
  month: z.int(),
  status: z.enum(['closed', 'enabled', 'confirmed']),
  enabled_at: nullStr,
  enabled_by_name: nullStr,
  confirmed_at: nullStr,
  confirmed_by_name: nullStr,
  reopened_at: nullStr,
  reopen_reason: nullStr,
  reminded_at: nullStr,
});
export type PeriodState = z.output<typeof periodStateSchema>;

/** One stored value of a grid (figures or fees). */
export const gridValueSchema = z.looseObject({
  dealer_id: z.int(),
  concept_id: z.int(),
  month: z.int(),
  value: z.number(),
});
export type GridValue = z.output<typeof gridValueSchema>;

/** GET /api/figures: the concepts (rows), and the dealers' months with their state, values and fees. */
export const figuresAnswerSchema = z.object({
  list: z.array(conceptRowSchema),
  figures: z.object({
    year: z.int(),
    month: z.int().nullable(),
    dealers: z.array(gridDealerSchema),
    periods: z.array(periodStateSchema),
    values: z.array(gridValueSchema),
    fees: z.array(gridValueSchema),
  }),
});
export type FiguresAnswer = z.output<typeof figuresAnswerSchema>;

/** GET /api/fees */
export const feesAnswerSchema = z.object({
  list: z.array(conceptRowSchema),
  fees: z.object({ year: z.int(), dealers: z.array(gridDealerSchema), values: z.array(gridValueSchema) }),
});
export type FeesAnswer = z.output<typeof feesAnswerSchema>;

/** GET /api/figure-dealers: each dealer's state for the month. */
export const figureDealerRowSchema = periodStateSchema.extend({
  dealer_code: z.string(),
  dealer_name: z.string(),
  /** Concepts with a value / active concepts. */
  filled: z.int(),
  concepts: z.int(),
});
export type FigureDealerRow = z.output<typeof figureDealerRowSchema>;

/** GET /api/resumen-comparativo: one row per concept. */
export const resumenRowSchema = z.looseObject({
  concept_id: z.int(),
  code: z.string(),
  name: z.string(),
  unit: nullStr,
  group: nullStr,
  higher_is_better: z.boolean(),
  month: nullNum,
  month_prev: nullNum,
  month_var: nullNum,
  month_var_pct: nullNum,
  ytd: nullNum,
  ytd_prev: nullNum,
  ytd_var: nullNum,
  ytd_var_pct: nullNum,
  fee: nullNum,
  compliance: nullNum,
  ytd_fee: nullNum,
  ytd_compliance: nullNum,
  /**
   * The months both sides of the accumulated compliance cover (those with a figure and a fee):
   * 'Cumpl. acum.' compares the figures and the fees of these months only.
   */
  ytd_compliance_months: z.array(z.int()),
});
export type ResumenRow = z.output<typeof resumenRowSchema>;

export const resumenAnswerSchema = z.object({
  year: z.int(),
  month: z.int(),
  /** null: every dealer. */
  dealer_id: z.int().nullable(),
  dealer_name: nullStr,
  rows: z.array(resumenRowSchema),
});
export type ResumenAnswer = z.output<typeof resumenAnswerSchema>;

export const capacityRowSchema = z.looseObject({
  dealer_id: z.int(),
  dealer_code: z.string(),
  dealer_name: z.string(),
  dealer_branch_id: z.int(),
  branch_name: z.string(),
  bays: nullNum,
  technicians: nullNum,
  hours_per_day: nullNum,
  working_days: nullNum,
  available_hours: nullNum,
});
export type CapacityRow = z.output<typeof capacityRowSchema>;

/** Per-row report of a grid upload or a CASIS pull (all rows or none). */
export const gridImportReportSchema = z.looseObject({
  saved: z.int(),
  total: z.int(),
  failed: z.int(),
  skipped: z.int(),
  report: z.array(z.looseObject({ row: z.int(), ok: z.boolean(), message: z.string() })),
  /** Rows with errors left out of the report (it lists the first 200). */
  omitted: z.int().optional(),
  /** The line saying so. */
  note: z.string().optional(),
});
export type GridImportReport = z.output<typeof gridImportReportSchema>;

// ---- the declared (read-only) lists ----

const common = {
  dealer_id: f.ref('Concesionario', 'dealers', { filter: true, input: false }),
  dealer_name: f.display('Concesionario', { sort: true, column: { flex: 1 } }),
  year: f.int('Año', 2000, 2100, { sort: true, filter: true, column: { width: 80, type: 'string' } }),
  month: f.int('Mes', 1, 12, { sort: true, filter: true, column: { width: 70 } }),
};
const concept = {
  concept_id: f.ref('Concepto', 'concepts', { filter: true, input: false }),
  concept_name: f.display('Concepto', { sort: true, column: { flex: 1 } }),
};

/** The periods: who enabled, confirmed and reopened each dealer's month, and when. */
export const figurePeriodContract = defineContract(
  {
    path: 'figure-periods',
    permission: 'Figures',
    title: 'Periodos de cifras',
    sort: { field: 'id', order: 'desc' },
  },
  {
    ...common,
    status: f.oneOf('Estado', PERIOD_STATUSES, { filter: true, sort: true, column: { width: 120 } }),
    enabled_at: f.display('Habilitado el', { sort: true, column: { width: 170, type: 'date' } }),
    enabled_by_name: f.display('Habilitado por', { column: { width: 140 } }),
    confirmed_at: f.display('Confirmado el', { sort: true, column: { width: 170, type: 'date' } }),
    confirmed_by_name: f.display('Confirmado por', { column: { width: 140 } }),
    reopened_at: f.display('Reabierto el', { column: { width: 170, type: 'date' } }),
    reopen_reason: f.display('Motivo de reapertura', { column: { flex: 1 } }),
    reminded_at: f.display('Recordado el', { column: { width: 170, type: 'date' } }),
  },
);

/** Every stored figure (the grid writes them; this list reads them). */
export const figureValueContract = defineContract(
  { path: 'figure-values', permission: 'Figures', title: 'Cifras', sort: { field: 'id', order: 'desc' } },
  {
    ...common,
    ...concept,
    value: f.optNumber('Valor', -FIGURE_MAX, FIGURE_MAX, { sort: true, column: { width: 120 } }),
    source: f.oneOf('Origen', FIGURE_SOURCES, { filter: true, column: { width: 110 } }),
    updated_at: f.display('Actualizado', { sort: true, column: { width: 170, type: 'date' } }),
  },
);

/** Every stored fee (monthly target). */
export const feeValueContract = defineContract(
  { path: 'fee-values', permission: 'Fees', title: 'Cuotas', sort: { field: 'id', order: 'desc' } },
  {
    ...common,
    ...concept,
    value: f.optNumber('Cuota', -FIGURE_MAX, FIGURE_MAX, { sort: true, column: { width: 120 } }),
    updated_at: f.display('Actualizado', { sort: true, column: { width: 170, type: 'date' } }),
  },
);

/** Every stored capacity row (dealer, branch, month). */
export const capacityContract = defineContract(
  {
    path: 'workshop-capacities',
    permission: 'Capacities',
    title: 'Capacidades',
    sort: { field: 'id', order: 'desc' },
  },
  {
    ...common,
    dealer_branch_id: f.ref('Sede', 'dealer-branches', { filter: true, input: false }),
    branch_name: f.display('Sede', { sort: true, column: { flex: 1 } }),
    bays: f.optNumber('Bahías', 0, 500, { column: { width: 90 } }),
    technicians: f.optNumber('Técnicos', 0, 2000, { column: { width: 90 } }),
    hours_per_day: f.optNumber('Horas por día', 0, 24, { column: { width: 110 } }),
    working_days: f.optNumber('Días laborables', 0, 31, { column: { width: 120 } }),
    available_hours: f.display('Horas disponibles', { sort: true, column: { width: 140, type: 'number' } }),
  },
);

/** This module's contracts (RESOURCE_CONTRACTS gathers every module's); none is in the menu. */
export const FIGURE_CONTRACTS = [
  figurePeriodContract,
  figureValueContract,
  feeValueContract,
  capacityContract,
] as const;
