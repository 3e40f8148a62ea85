// The sales spreadsheet: the rows of an uploaded .xlsx (checked and read by core/xlsx-read)
// turned into numbered sale rows, and the empty template.
import { QUERY_LABELS, SALE_ROW_KEYS, SALES_IMPORT_HEADERS, type SaleRowInput } from '@app/contracts';
import { BadRequestError } from '../../core/errors';
import { excerpt } from '../../core/import-report';
import { withoutAccents } from '../../core/text';
import type { UploadRule } from '../../core/upload';
import { loadExcel, neutralise, textCells } from '../../core/xlsx';
import {
  checkXlsxArchive,
  readSheetRows,
  type SheetRow,
  XLSX_MESSAGES,
  XLSX_UPLOAD_BYTES,
  type XlsxLimits,
} from '../../core/xlsx-read';
import type { NumberedRow } from './sales.import';

export const MAX_IMPORT_ROWS = 100_000;

/** The worksheet may hold the header, the data rows and some blank lines; no more. */
export const SALES_XLSX_LIMITS: XlsxLimits = {
  maxRows: MAX_IMPORT_ROWS + 1_000,
  maxColumns: 50,
  readBudgetMs: 120_000,
};

/**
 * The pre-check limits of a template upload, from its own row maximum and width (the header,
 * the data rows and some blank lines; a few spare columns), not the sales file's.
 */
export function templateLimits(headers: readonly string[], maxRows: number): XlsxLimits {
  return {
    maxRows: maxRows + 1_000,
    maxColumns: Math.max(headers.length + 16, 30),
    readBudgetMs: Math.min(SALES_XLSX_LIMITS.readBudgetMs, Math.max(20_000, Math.ceil(maxRows * 1.2))),
  };
}

/** An .xlsx in the multipart field `file` (every template upload). */
export const SALES_UPLOAD: UploadRule = {
  field: 'file',
  maxBytes: XLSX_UPLOAD_BYTES,
  accept: /\.xlsx$/i,
  messages: {
    noFile: XLSX_MESSAGES.noFile,
    wrongType: XLSX_MESSAGES.notXlsx,
    tooLarge: XLSX_MESSAGES.tooLarge,
  },
};

export const IMPORT_MESSAGES = {
  noRows: 'El archivo no tiene filas de ventas debajo de los encabezados',
  tooManyRows: `El archivo supera el máximo de ${MAX_IMPORT_ROWS} filas; divídalo en varios archivos`,
} as const;

/** A header cell as the templates compare it: trimmed, any case, with or without accents. */
const norm = (s: unknown) =>
  withoutAccents(String(s ?? ''))
    .trim()
    .toLowerCase();

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** What a template upload must look like: its header row and the messages of a file without rows. */
export interface SheetTemplate {
  headers: readonly string[];
  /** The file has the header but no data rows. */
  noRows: string;
  limits?: XlsxLimits;
  maxRows?: number;
}

/**
 * Checks the archive, then reads the first worksheet: the header row must be the template's,
 * the non-empty rows below it come out in batches (cell values from column A). A broken file
 * throws a 4xx AppError. Used by every template upload (sales, objectives, daily sales).
 */
export async function* readTemplateBatches(
  file: string,
  bytes: number,
  template: SheetTemplate,
  batchSize = 5000,
): AsyncGenerator<SheetRow[]> {
  const maxRows = template.maxRows ?? MAX_IMPORT_ROWS;
  const limits = template.limits ?? templateLimits(template.headers, maxRows);
  const { headers } = template;
  await checkXlsxArchive(file, bytes, limits);
  let batch: SheetRow[] = [];
  let total = 0;
  let headerSeen = false;
  for await (const row of readSheetRows(file, limits)) {
    const { values } = row;
    if (!headerSeen) {
      if (values.every(isBlank)) continue;
      const got = headers.map((_, i) => norm(values[i]));
      const expected = headers.map(norm);
      if (got.some((g, i) => g !== expected[i])) {
        const found = values
          .slice(0, headers.length)
          .map((v) => excerpt(String(v ?? '').trim(), 40))
          .join(', ');
        throw new BadRequestError(
          'Los encabezados del archivo no son los de la plantilla',
          `Se esperaba: ${headers.join(', ')}. Se encontró: ${found || '(fila vacía)'}`,
        );
      }
      headerSeen = true;
      continue;
    }
    if (values.every(isBlank)) continue;
    if (++total > maxRows)
      throw new BadRequestError(
        `El archivo supera el máximo de ${maxRows} filas; divídalo en varios archivos`,
      );
    batch.push(row);
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (!headerSeen)
    throw new BadRequestError(
      `El archivo no tiene la fila de encabezados. La primera fila debe ser: ${headers.join(', ')}`,
    );
  if (total === 0) throw new BadRequestError(template.noRows);
  if (batch.length) yield batch;
}

export const SALES_TEMPLATE: SheetTemplate = {
  headers: SALES_IMPORT_HEADERS,
  noRows: IMPORT_MESSAGES.noRows,
  limits: SALES_XLSX_LIMITS,
};

/** The sale rows of an uploaded sales template, in batches. */
export async function* readSalesBatches(
  file: string,
  bytes: number,
  batchSize = 5000,
): AsyncGenerator<NumberedRow[]> {
  for await (const rows of readTemplateBatches(file, bytes, SALES_TEMPLATE, batchSize)) yield saleRows(rows);
}

/** A batch of worksheet rows as numbered sale rows (cells in the template's column order). */
export function saleRows(rows: SheetRow[]): NumberedRow[] {
  return rows.map(({ number, values }) => {
    const data: SaleRowInput = {};
    SALE_ROW_KEYS.forEach((k, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) data[k] = v;
    });
    return { row: number, data };
  });
}

export interface TemplateSpec {
  sheetName: string;
  headers: readonly string[];
  /** Width per header (default 16). */
  widths?: Record<string, number>;
  /** Number format per 1-based column (e.g. a date column). */
  numFmts?: Record<number, string>;
  /** Rows already filled in (e.g. this month's values), below the header. */
  rows?: (string | number | null)[][];
  /** The 'Instrucciones' sheet: column and what goes in it. */
  help: [string, string][];
}

/** An empty (or pre-filled) template: the header row, widths, and an instructions sheet. */
export async function templateBuffer(spec: TemplateSpec): Promise<Buffer> {
  const { Workbook } = await loadExcel();
  const wb = new Workbook();
  const ws = wb.addWorksheet(spec.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = spec.headers.map((h) => ({ header: h, key: h, width: spec.widths?.[h] ?? 16 }));
  ws.getRow(1).font = { bold: true };
  for (const [col, fmt] of Object.entries(spec.numFmts ?? {})) ws.getColumn(Number(col)).numFmt = fmt;
  for (const r of spec.rows ?? []) textCells(ws.addRow(r.map((v) => neutralise(v))));
  const help = wb.addWorksheet('Instrucciones');
  help.columns = [
    { header: 'Columna', key: 'c', width: 18 },
    { header: 'Contenido', key: 'd', width: 90 },
  ];
  help.getRow(1).font = { bold: true };
  for (const [c, d] of spec.help) help.addRow({ c, d });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The empty sales template: the header row, column widths, and the instructions sheet. */
export function salesTemplateBuffer(): Promise<Buffer> {
  return templateBuffer({
    sheetName: 'Ventas',
    headers: SALES_IMPORT_HEADERS,
    widths: { VIN: 22, Cliente: 28, Email: 28 },
    numFmts: { 3: 'yyyy-mm-dd' },
    help: [
      [QUERY_LABELS.dealer, 'Código del concesionario'],
      ['Sede', 'Código o nombre de la sede (opcional)'],
      ['Fecha Venta', 'Fecha YYYY-MM-DD o celda de fecha de Excel'],
      ['Tipo Documento', 'DNI, RUC, CE o PAS'],
      ['Email', 'Correo del comprador: recibe la encuesta de satisfacción'],
      ['VIN', '17 letras o dígitos (sin I, O, Q); un VIN se vende una sola vez'],
      ['Marca', 'Código de la marca: V, N, S, A'],
      ['Año', 'Año del modelo'],
      ['Forma de Pago', 'E Efectivo, T Tarjeta, D Depósito, G Gratuito'],
    ],
  });
}
