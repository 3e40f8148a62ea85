// CEM sales: the sale record, the import/batch row, the import report and the survey request.

import { limaDate, limaYearNow } from './clock';
import { PAYMENT_METHODS } from './fixed-lists';
import { declareDealer } from './query';
import { defineContract, f, field } from './resources/fields';
import { z } from './zod';

/** The header row of the import template, in order (issue 6). */
export const SALES_IMPORT_HEADERS = [
  'Concesionario',
  'Sede',
  'Fecha Venta',
  'Factura',
  'Tipo Documento',
  'Documento',
  'Cliente',
  'Email',
  'Teléfono',
  'VIN',
  'Marca',
  'Modelo',
  'Año',
  'Vendedor',
  'Forma de Pago',
] as const;

/** The keys of one incoming sale row (import, batch, sales API), in header order. */
export const SALE_ROW_KEYS = [
  'dealer_code',
  'branch',
  'sale_date',
  'invoice',
  'document_type',
  'document_number',
  'buyer_name',
  'email',
  'phone',
  'vin',
  'brand',
  'model',
  'year',
  'seller',
  'payment_method',
] as const;
export type SaleRowKey = (typeof SALE_ROW_KEYS)[number];

/** A sale row as it arrives: every cell is text, a number or (from Excel) a date. */
export type SaleRowInput = Partial<Record<SaleRowKey, string | number | Date | null>>;

export const DOCUMENT_TYPES = [
  { id: 'DNI', name: 'DNI' },
  { id: 'RUC', name: 'RUC' },
  { id: 'CE', name: 'Carnet de extranjería' },
  { id: 'PAS', name: 'Pasaporte' },
] as const;

/** Survey state of a sale. */
export const SURVEY_STATUSES = [
  { id: 'sin_enviar', name: 'Sin enviar' },
  { id: 'enviada', name: 'Enviada' },
  { id: 'respondida', name: 'Respondida' },
  { id: 'contacto_invalido', name: 'Contacto inválido' },
] as const;

const paymentCodes = PAYMENT_METHODS.map((p) => p.id) as [string, ...string[]];
const documentCodes = DOCUMENT_TYPES.map((d) => d.id) as unknown as [string, ...string[]];
const surveyCodes = SURVEY_STATUSES.map((s) => s.id) as unknown as [string, ...string[]];

export const VIN_RE = /^[A-HJ-NPR-Z0-9]{17}$/;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The rules a sale obeys wherever it comes from: the dialog (saleContract), the .xlsx import,
 * the JSON batch and the external sales API all check these, with these messages.
 */
export const SALE_RULES = {
  minDate: '2000-01-01',
  minYear: 1990,
  /** Next year's models are sold from the middle of this year. */
  maxYear: () => limaYearNow() + 1,
  /** Today in Lima as YYYY-MM-DD (a sale of later than today is refused). */
  today: () => limaDate(),
} as const;

/** Document number by document type (upper-cased before the check). */
export const DOCUMENT_RULES: Record<string, { re: RegExp; message: string }> = {
  DNI: { re: /^\d{8}$/, message: 'Documento: un DNI tiene 8 dígitos' },
  RUC: {
    re: /^(10|15|17|20)\d{9}$/,
    message: 'Documento: un RUC tiene 11 dígitos y empieza con 10, 15, 17 o 20',
  },
  CE: {
    re: /^[A-Z0-9]{6,12}$/,
    message: 'Documento: un carnet de extranjería tiene de 6 a 12 letras o dígitos',
  },
  PAS: { re: /^[A-Z0-9]{6,12}$/, message: 'Documento: un pasaporte tiene de 6 a 12 letras o dígitos' },
};

/** Why a valid YYYY-MM-DD date cannot be a sale date, or undefined. */
export function saleDateError(date: string, today: string = SALE_RULES.today()): string | undefined {
  if (date > today) return 'Fecha Venta no puede ser una fecha futura';
  if (date < SALE_RULES.minDate) return `Fecha Venta no puede ser anterior al ${SALE_RULES.minDate}`;
  return undefined;
}

/** Why an integer cannot be a model year, or undefined. */
export function saleYearError(year: number, shown: string | number = year): string | undefined {
  const max = SALE_RULES.maxYear();
  if (!Number.isInteger(year) || year < SALE_RULES.minYear || year > max)
    return `Año "${shown}" no es válido (entre ${SALE_RULES.minYear} y ${max})`;
  return undefined;
}

/** Why a document number does not fit its type, or undefined (unknown types are checked elsewhere). */
export function documentNumberError(type: string, number: string): string | undefined {
  const rule = DOCUMENT_RULES[type];
  return rule && !rule.re.test(number.toUpperCase()) ? rule.message : undefined;
}

/**
 * The cross-field rules of a whole sale record (create, or update merged with the stored
 * record): document number against its type. Field paths as in the form.
 */
export function saleRecordErrors(sale: {
  document_type?: string | null;
  document_number?: string | null;
}): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  if (sale.document_type && sale.document_number) {
    const doc = documentNumberError(sale.document_type, sale.document_number);
    if (doc) out.push({ field: 'document_number', message: doc });
  }
  return out;
}

/** A VIN field: 17 letters or digits without I, O, Q, upper-cased; searched and sorted. */
export const vinField = () =>
  f.rule(
    'VIN',
    (l) =>
      field
        .text(l, 17)
        .transform((v) => v.toUpperCase())
        .refine((v) => VIN_RE.test(v), `${l} debe tener 17 caracteres (letras y números, sin I, O, Q)`),
    { search: true, sort: true, column: { width: 175 } },
  );

/** The sale record as edited in the dialog of /sales (the generic CRUD). */
export const saleContract = defineContract(
  {
    path: 'sales',
    permission: 'Sales',
    title: 'CEM',
    sort: { field: 'sale_date', order: 'desc' },
    menu: { group: 'cem', name: 'sales', path: '/sales', icon: 'ReceiptLong', first: true },
  },
  {
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { sort: true, column: { flex: 1.3 } }),
    dealer_branch_id: f.optRef('Sede', 'dealer-branches', { within: 'dealer_id', filter: true }),
    dealer_branch_name: f.display('Sede'),
    sale_date: f.rule(
      'Fecha Venta',
      (l) =>
        field.date(l).superRefine((date, ctx) => {
          const problem = saleDateError(date);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      { input: 'date', sort: true, column: { width: 105, type: 'date' } },
    ),
    invoice: f.text('Factura', 40, { search: true, sort: true, column: { chars: 14 } }),
    buyer_name: f.text('Cliente', 200, { search: true, sort: true, column: { flex: 1.5 } }),
    document_type: f.rule('Tipo Documento', (l) => field.choice(l, documentCodes), {
      options: DOCUMENT_TYPES,
      generalType: 'DOCUMENT_TYPES',
    }),
    document_number: f.text('Documento', 20, { search: true }),
    email: f.optEmail('Email', { search: true, column: { flex: 1.3 } }),
    phone: f.optText('Teléfono', 30),
    vin: vinField(),
    manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { sort: true, column: { width: 110 } }),
    manufacturer_model_id: f.optRef('Modelo', 'manufacturer-models', { within: 'manufacturer_id' }),
    model_name: f.text('Modelo', 150, { search: true, sort: true, column: { chars: 12 } }),
    year: f.rule(
      'Año',
      (l) =>
        field.int(l, SALE_RULES.minYear, 2100).superRefine((year, ctx) => {
          const problem = saleYearError(year);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        }),
      // A year reads as a code (2025), not as a quantity the grid would group (2,025).
      { sort: true, filter: true, column: { width: 70, type: 'string' } },
    ),
    seller: f.optText('Vendedor', 150, { search: true }),
    payment_method: f.rule('Forma de Pago', (l) => field.choice(l, paymentCodes, `${l} no es válida`), {
      filter: true,
      options: PAYMENT_METHODS,
      generalType: 'PAYMENT_METHODS',
    }),
    survey_status: f.rule('Encuesta', () => z.enum(surveyCodes).optional(), {
      sort: true,
      filter: true,
      options: SURVEY_STATUSES,
      generalType: 'SURVEY_STATUSES',
      input: false,
      column: { width: 150 },
    }),
    created_at: f.created(),
  },
  {
    refine: (schema) =>
      schema.superRefine((sale, ctx) => {
        for (const e of saleRecordErrors(sale))
          ctx.addIssue({ code: 'custom', path: [e.field], message: e.message });
      }),
  },
);

/** One line of an import/batch report: the spreadsheet row number (header = 1) and its fate. */
export interface ImportReportEntry {
  row: number;
  ok: boolean;
  errors: string[];
  /** Accepted, but worth knowing (e.g. an email that cannot receive the survey). */
  warnings?: string[];
  vin?: string;
}

export interface ImportResult {
  saved: number;
  /** Of the saved values, those that differ from what was stored (when the import tells). */
  changed?: number;
  total: number;
  failed: number;
  report: ImportReportEntry[];
  /** Rows with errors left out of the report (it lists the first 200). */
  omitted?: number;
  /** The line saying so. */
  note?: string;
}

/**
 * What an import or batch answers (the engine bounds the report: `omitted`, `note`), held to
 * ImportResult: a call declaring it answers that type. Loose objects, as answered (documentation
 * and the fuzzer's check only: the server serializes its answer as it is).
 */
export const importResultSchema: z.ZodType<ImportResult> = z.looseObject({
  saved: z.int(),
  changed: z.int().optional(),
  total: z.int(),
  failed: z.int(),
  /** Each row's outcome: its errors (and warnings, the VIN) beside row and ok. */
  report: z.array(
    z.looseObject({
      row: z.int(),
      ok: z.boolean(),
      errors: z.array(z.string()),
      warnings: z.array(z.string()).optional(),
      vin: z.string().optional(),
    }),
  ),
  omitted: z.int().optional(),
  note: z.string().optional(),
});

/** POST /api/sales/batch body. */
export const salesBatchSchema = z.object({
  rows: z
    .array(z.record(z.string(), z.unknown()), { error: () => 'rows es obligatorio' })
    .min(1, 'No hay filas para guardar')
    .max(100_000, 'Como máximo 100000 filas por envío'),
});

/** The filters of the sales list, also accepted by sales-quiz-request. */
export const salesFilterSchema = z.object({
  date_from: z.string().regex(DATE_RE, 'Formato de fecha YYYY-MM-DD').optional(),
  date_to: z.string().regex(DATE_RE, 'Formato de fecha YYYY-MM-DD').optional(),
  manufacturer_id: z.coerce.number().int().nonnegative().optional(),
  /** The dealer whose sales are invited: declared, so a dealer user is held to its own (another: 404). */
  dealer_id: declareDealer(z.coerce.number().int().nonnegative().optional()),
  survey_status: z.enum(surveyCodes).optional(),
});
export type SalesFilter = z.infer<typeof salesFilterSchema>;

/** POST /api/sales-quiz-request body: ids or the list filters. */
export const salesQuizRequestSchema = z
  .object({
    sale_ids: z.array(z.number().int().positive()).max(100_000).optional(),
    filters: salesFilterSchema.optional(),
    /** Questionnaire to send; default: the active sales questionnaire of the sale's brand. */
    quiz_id: z.number().int().positive().optional(),
    reminder: z.boolean().optional(),
  })
  .refine((v) => (v.sale_ids && v.sale_ids.length > 0) || v.filters, {
    message: 'Indique las ventas (sale_ids) o los filtros',
    path: ['sale_ids'],
  });
export type SalesQuizRequest = z.infer<typeof salesQuizRequestSchema>;

export interface SalesQuizRequestResult {
  invited: number;
  reminded: number;
  /** The sales not sent, with their buyer's name (absent when the sale was not found). */
  skipped: { sale_id: number; buyer?: string | null; reason: string }[];
}

/** POST /api/sales-api body: the period to pull from the external sales system. */
export const salesApiRequestSchema = z.object({
  date_from: z.string().regex(DATE_RE, 'Formato de fecha YYYY-MM-DD').optional(),
  date_to: z.string().regex(DATE_RE, 'Formato de fecha YYYY-MM-DD').optional(),
});

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const SALE_CONTRACTS = [saleContract] as const;
