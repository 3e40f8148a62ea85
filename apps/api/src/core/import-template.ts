// The template of every import (core/import.ts): the upload rule of an .xlsx, the checks of its
// header row, the non-empty rows below it read in batches under the file's limits (archive
// judged before any reading: core/xlsx-read), and the empty or pre-filled template a user
// downloads. Modules import these from here, never from one another.
import { BadRequestError } from './errors';
import { excerpt } from './import-report';
import { withoutAccents } from './text';
import type { UploadRule } from './upload';
import { loadExcel, neutralise, textCells } from './xlsx';
import {
  checkXlsxArchive,
  readSheetRows,
  type SheetRow,
  XLSX_MESSAGES,
  XLSX_UPLOAD_BYTES,
  type XlsxLimits,
} from './xlsx-read';

export const MAX_IMPORT_ROWS = 100_000;

/** The largest template: the header, MAX_IMPORT_ROWS data rows and some blank lines; no more. */
export const IMPORT_XLSX_LIMITS: XlsxLimits = {
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
    readBudgetMs: Math.min(IMPORT_XLSX_LIMITS.readBudgetMs, Math.max(20_000, Math.ceil(maxRows * 1.2))),
  };
}

/** An .xlsx in the multipart field `file` (every template upload). */
export const IMPORT_UPLOAD: UploadRule = {
  field: 'file',
  maxBytes: XLSX_UPLOAD_BYTES,
  accept: /\.xlsx$/i,
  messages: {
    noFile: XLSX_MESSAGES.noFile,
    wrongType: XLSX_MESSAGES.notXlsx,
    tooLarge: XLSX_MESSAGES.tooLarge,
  },
};

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
  /**
   * 'by-name': the header row must hold these columns in any order, others besides (a file the
   * app exported, with columns only shown); the values come out in `headers` order. Default
   * 'in-order': the header row is exactly the template's, from column A.
   */
  columns?: 'in-order' | 'by-name';
  /** The message of a header without the template's columns (by-name). */
  headerError?: string;
}

/** Where each of the template's headers is in the header row (by-name), or a 4xx. */
function headerIndexes(template: SheetTemplate, values: unknown[]): number[] | null {
  const names = values.map(norm);
  const at = template.headers.map((h) => names.indexOf(norm(h)));
  return at.some((i) => i < 0) ? null : at;
}

/**
 * Checks the archive, then reads the first worksheet: the header row must be the template's,
 * the non-empty rows below it come out in batches (cell values from column A). A broken file
 * throws a 4xx AppError. Used by every import (core/import.ts), in the request or in the worker thread.
 */
export async function* readTemplateBatches(
  file: string,
  bytes: number,
  template: SheetTemplate,
  batchSize = 5000,
  /** Told the rows the archive check counted (empty ones too), before any row is read. */
  onChecked?: (rows: number) => void,
): AsyncGenerator<SheetRow[]> {
  const maxRows = template.maxRows ?? MAX_IMPORT_ROWS;
  const limits = template.limits ?? templateLimits(template.headers, maxRows);
  const { headers } = template;
  const { rows: counted } = await checkXlsxArchive(file, bytes, limits);
  onChecked?.(counted);
  let batch: SheetRow[] = [];
  let total = 0;
  let headerSeen = false;
  let byName: number[] | null = null;
  for await (const row of readSheetRows(file, limits)) {
    const { values } = row;
    if (!headerSeen && template.columns === 'by-name') {
      if (values.every(isBlank)) continue;
      byName = headerIndexes(template, values);
      if (!byName)
        throw new BadRequestError(
          template.headerError ??
            `El archivo no tiene las columnas de la plantilla. La primera fila debe tener: ${headers.join(', ')}`,
        );
      headerSeen = true;
      continue;
    }
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
    batch.push(byName ? { ...row, values: byName.map((i) => values[i] ?? null) } : row);
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
