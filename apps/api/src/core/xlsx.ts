// Streaming .xlsx export (exceljs WorkbookWriter): a header row of Spanish labels, typed cells,
// and text that starts like a formula (= + - @) neutralised so a spreadsheet never runs it.
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

let excel: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded on first use: it costs about 150 ms to load, which every start would pay,
 * while only the export and import calls need it.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  excel ??= import('exceljs').then((m) => m.default);
  return excel;
}

export interface XlsxColumn {
  key: string;
  header: string;
  width?: number;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return FORMULA_START.test(value) ? `'${value}` : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 'Si' : 'No';
  if (value instanceof Date) return value;
  if (typeof value === 'bigint') return Number(value);
  const json = JSON.stringify(value);
  return FORMULA_START.test(json) ? `'${json}` : json;
}

export function contentDisposition(filename: string): string {
  const ascii = filename
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/["\\]/g, '');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

export interface XlsxExport {
  filename: string;
  sheetName?: string;
  columns: XlsxColumn[];
  /** Batches of rows, read lazily so a large export never sits in memory. */
  rows: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>;
}

/**
 * Sends the workbook as the reply body; call as `return sendXlsx(reply, {...})`. The first batch
 * of rows is read before a byte is sent, so a query that fails (a bad filter value, a database
 * error) answers the error envelope instead of a file cut short.
 */
export async function sendXlsx(reply: FastifyReply, spec: XlsxExport): Promise<FastifyReply> {
  const source = (
    Symbol.asyncIterator in spec.rows
      ? (spec.rows as AsyncIterable<Record<string, unknown>[]>)[Symbol.asyncIterator]()
      : (spec.rows as Iterable<Record<string, unknown>[]>)[Symbol.iterator]()
  ) as AsyncIterator<Record<string, unknown>[]> | Iterator<Record<string, unknown>[]>;
  const first = await source.next();
  const { stream: excelStream } = await loadExcel();
  const stream = new PassThrough();
  const workbook = new excelStream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet((spec.sheetName ?? 'Datos').slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = spec.columns.map((c) => ({ key: c.key, header: c.header, width: c.width ?? 18 }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  (async () => {
    for (let next = first; !next.done; next = await source.next()) {
      for (const row of next.value) {
        sheet.addRow(spec.columns.map((c) => neutralise(row[c.key]))).commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => {
    reply.log.error({ err }, 'exportacion xlsx interrumpida');
    stream.destroy(err as Error);
  });
  reply.header('content-type', XLSX_TYPE).header('content-disposition', contentDisposition(spec.filename));
  return reply.send(stream);
}
