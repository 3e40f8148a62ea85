// Streaming .xlsx export (exceljs WorkbookWriter): a header row of Spanish labels, typed cells,
// and text that starts like a formula (= + - @) written as a Text cell so a spreadsheet never runs it.
import { createWriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { excelFormat } from '@app/contracts';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { limaWallClock } from './lima';

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
  /** The cell of a value (a list's label for its code, a date for 'YYYY-MM-DD'); default as is. */
  cell?: (value: unknown) => unknown;
  /** Excel number format of the column (e.g. 'yyyy-mm-dd' for dates). */
  numFmt?: string;
}

/** A date-only value ('YYYY-MM-DD', as PostgreSQL `date` answers) as an Excel date; else as is. */
export function dateCell(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : value;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A value as an export cell. Text is written as a text cell (never a formula: exceljs writes a
 * string as a string); text that starts like a formula (= + - @) keeps its characters (a phone
 * '+51 …' stays as typed) and textCells() gives its cell the Text format (@), so editing it in
 * Excel keeps it text instead of running it.
 */
export function neutralise(value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (value instanceof Date) return value;
  if (typeof value === 'bigint') return Number(value);
  return JSON.stringify(value);
}

/** Gives the Text format (@) to the row's cells whose text starts like a formula; answers the row. */
export function textCells(row: ExcelJS.Row): ExcelJS.Row {
  row.eachCell((cell) => {
    if (typeof cell.value === 'string' && FORMULA_START.test(cell.value)) cell.numFmt = '@';
  });
  return row;
}

/**
 * One style object per number format and kind of value, shared by the cells that have them.
 * exceljs finds the style of an object it has already seen by identity (a WeakMap), while each
 * new object (what every cell gets by default) is rendered to XML to find its index: about a
 * quarter of an export's CPU. The kind of value is part of the key because exceljs gives a
 * format-less number or date a default format of its own, remembered with the object.
 */
function sharedStyles(): (numFmt: string | undefined, value: ExcelJS.CellValue) => Partial<ExcelJS.Style> {
  const known = new Map<string, Partial<ExcelJS.Style>>();
  return (numFmt, value) => {
    const kind = value instanceof Date ? 'date' : typeof value === 'number' ? 'number' : 'other';
    const key = `${numFmt ?? ''}\u0000${kind}`;
    let style = known.get(key);
    if (!style) {
      style = Object.freeze(numFmt ? { numFmt } : {});
      known.set(key, style);
    }
    return style;
  };
}

/** An export's file name without spaces ('Tipos generales_2026-12-01.xlsx' → 'Tipos_generales_…'). */
export const exportFileName = (name: string): string => name.trim().replace(/\s+/g, '_');

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
  /** A cell's own number format when a column mixes kinds (a grid row in soles, another in %). */
  cellFormat?: (row: Record<string, unknown>, key: string) => string | undefined;
}

/**
 * The workbook of `spec` as a stream of bytes, written while the rows are read. The first batch
 * of rows is read before this answers, so a query that fails (a bad filter value, a database
 * error) throws here instead of cutting a file short; a later failure destroys the stream.
 */
export async function xlsxStream(spec: XlsxExport, onError: (err: unknown) => void): Promise<PassThrough> {
  const { source, first } = await firstBatch(spec.rows);
  const { stream: excelStream } = await loadExcel();
  const stream = new PassThrough();
  const workbook = new excelStream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet((spec.sheetName ?? 'Datos').slice(0, 31).replace(/[\\/?*[\]:]/g, ' '));
  sheet.columns = spec.columns.map((c) => ({
    key: c.key,
    header: c.header,
    width: c.width ?? 18,
    style: c.numFmt ? { numFmt: c.numFmt } : undefined,
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const styles = sharedStyles();
  (async () => {
    for (let next = first; !next.done; next = await source.next()) {
      for (const row of next.value) {
        const added = sheet.addRow(
          spec.columns.map((c) => neutralise(c.cell ? c.cell(row[c.key]) : row[c.key])),
        );
        // The cell's format: text (@) when it starts like a formula, else the row's own format
        // (cellFormat), else its column's.
        added.eachCell((cell, n) => {
          const c = spec.columns[n - 1];
          const value = cell.value;
          const fmt =
            typeof value === 'string' && FORMULA_START.test(value)
              ? '@'
              : (spec.cellFormat?.(row, c.key) ?? c.numFmt);
          cell.style = styles(fmt, value);
        });
        added.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => {
    onError(err);
    stream.destroy(err as Error);
  });
  return stream;
}

/** Sends the workbook as the reply body; call as `return sendXlsx(reply, {...})`. */
export async function sendXlsx(reply: FastifyReply, spec: XlsxExport): Promise<FastifyReply> {
  const stream = await xlsxStream(spec, (err) => reply.log.error({ err }, 'exportación xlsx interrumpida'));
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition(exportFileName(spec.filename)));
  return reply.send(stream);
}

/** Writes the workbook to a file (a background export job); rejects when a batch fails. */
export async function writeXlsxFile(file: string, spec: XlsxExport): Promise<void> {
  await pipeline(await xlsxStream(spec, () => {}), createWriteStream(file));
}

/**
 * How a report column's cells are typed and formatted: counts ('int' or 'count'), numbers, money
 * in soles ('S/'), percentages (given as 0–100, written as the fraction with the % format), dates.
 */
export type ReportCellType = 'text' | 'int' | 'count' | 'number' | 'money' | 'percent' | 'date';

export interface ReportColumn {
  key: string;
  header: string;
  width?: number;
  type?: ReportCellType;
  /** Summed into the totals row. */
  total?: boolean;
}

export interface XlsxReport {
  filename: string;
  sheetName: string;
  /** The header block: a title, then label/value lines (brand, period, ...); "Generado" is added. */
  title: string;
  info: [string, string | number][];
  columns: ReportColumn[];
  rows: AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>;
  /** The label of the totals row (first column); the sums of `total` columns, as numbers. */
  totalsLabel?: string;
  /** Values of the totals row computed from the sums (e.g. a compliance % of two sums). */
  totalsFrom?: (sums: Record<string, number>) => Record<string, unknown>;
  /** Columns kept in view when scrolling right (e.g. code and name). */
  freezeColumns?: number;
}

/** The screens' formats (the contracts' formatter): 1,250 · 1,171.15 · S/ 2,355,699.70 · 85.0 %. */
export const NUM_FMT: Record<ReportCellType, string | undefined> = {
  text: undefined,
  int: excelFormat('integer'),
  count: excelFormat('integer'),
  number: excelFormat('number'),
  money: excelFormat('currency'),
  percent: excelFormat('percent'),
  date: 'yyyy-mm-dd',
};

/** A report cell: numbers stay numbers (percent given as 0–100 becomes a fraction), text is neutralised. */
export function reportCell(type: ReportCellType, value: unknown): ExcelJS.CellValue {
  if (value === null || value === undefined || value === '') return null;
  if (type === 'text') return neutralise(typeof value === 'number' ? String(value) : value);
  if (type === 'date') {
    if (value instanceof Date) return value;
    const d = new Date(`${String(value).slice(0, 10)}T00:00:00Z`);
    return Number.isNaN(d.getTime()) ? neutralise(String(value)) : d;
  }
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return null;
  return type === 'percent' ? n / 100 : n;
}

/** The rows source as an iterator whose first batch is read before anything is sent. */
async function firstBatch(rows: XlsxExport['rows']) {
  const source = (
    Symbol.asyncIterator in rows
      ? (rows as AsyncIterable<Record<string, unknown>[]>)[Symbol.asyncIterator]()
      : (rows as Iterable<Record<string, unknown>[]>)[Symbol.iterator]()
  ) as AsyncIterator<Record<string, unknown>[]> | Iterator<Record<string, unknown>[]>;
  return { source, first: await source.next() };
}

/**
 * A named report as the reply body: the header block (title, info lines, generated at), a bold
 * header row frozen with the first `freezeColumns` columns, typed cells (numbers, percents and
 * dates as such; text neutralised), and a totals row of numbers (sums computed while streaming,
 * not formulas). Streamed with exceljs' WorkbookWriter; the first batch is read before a byte is
 * sent, as sendXlsx does.
 */
export async function sendXlsxReport(reply: FastifyReply, spec: XlsxReport): Promise<FastifyReply> {
  const stream = await xlsxReportStream(spec, (err) => reply.log.error({ err }, 'reporte xlsx interrumpido'));
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition(exportFileName(spec.filename)));
  return reply.send(stream);
}

/** The workbook of `sendXlsxReport` as a stream (the first batch read before it is answered). */
export async function xlsxReportStream(
  spec: XlsxReport,
  onError: (err: unknown) => void,
): Promise<PassThrough> {
  const { source, first } = await firstBatch(spec.rows);
  const { stream: excelStream } = await loadExcel();
  const stream = new PassThrough();
  const workbook = new excelStream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Red de Concesionarios';
  const headerRow = spec.info.length + 4;
  const sheet = workbook.addWorksheet(spec.sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, ' '), {
    views: [{ state: 'frozen', xSplit: spec.freezeColumns ?? 0, ySplit: headerRow }],
  });
  sheet.columns = spec.columns.map((c) => ({
    key: c.key,
    width: c.width ?? (c.type === 'text' || !c.type ? 24 : 12),
    style: NUM_FMT[c.type ?? 'text'] ? { numFmt: NUM_FMT[c.type ?? 'text'] } : {},
  }));
  const title = textCells(sheet.addRow([neutralise(spec.title)]));
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const [label, value] of spec.info) {
    const r = textCells(sheet.addRow([`${label}:`, typeof value === 'number' ? value : neutralise(value)]));
    r.getCell(1).font = { bold: true };
    r.getCell(2).numFmt = '@';
    r.commit();
  }
  // Excel dates carry no time zone: the generation time is written as Lima's wall clock (UTC-5, no DST).
  const generated = sheet.addRow(['Generado:', limaWallClock()]);
  generated.getCell(1).font = { bold: true };
  generated.getCell(2).numFmt = 'yyyy-mm-dd hh:mm';
  generated.getCell(2).alignment = { horizontal: 'left' };
  generated.commit();
  sheet.addRow([]).commit();
  const header = textCells(sheet.addRow(spec.columns.map((c) => neutralise(c.header))));
  header.font = { bold: true };
  header.eachCell((cell) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFD9ECEE' } };
    cell.border = { bottom: { style: 'thin' } };
    cell.numFmt = '@';
  });
  header.commit();
  const sums: Record<string, number> = {};
  for (const c of spec.columns) if (c.total) sums[c.key] = 0;
  (async () => {
    for (let next = first; !next.done; next = await source.next()) {
      for (const row of next.value) {
        textCells(sheet.addRow(spec.columns.map((c) => reportCell(c.type ?? 'text', row[c.key])))).commit();
        for (const key of Object.keys(sums)) {
          const n = Number(row[key]);
          if (Number.isFinite(n)) sums[key] += n;
        }
      }
    }
    if (spec.totalsLabel !== undefined) {
      const extra = spec.totalsFrom?.(sums) ?? {};
      const values: Record<string, unknown> = { ...sums, ...extra, [spec.columns[0].key]: spec.totalsLabel };
      const totals = sheet.addRow(
        spec.columns.map((c, i) => reportCell(i === 0 ? 'text' : (c.type ?? 'text'), values[c.key])),
      );
      totals.font = { bold: true };
      totals.eachCell((cell) => {
        cell.border = { top: { style: 'thin' } };
      });
      totals.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => {
    onError(err);
    stream.destroy(err as Error);
  });
  return stream;
}

/** A whole stream in memory (a small workbook to attach to a mail). */
export async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks);
}

/** A workbook already in memory (a template) as the reply body, under its file name. */
export function sendXlsxBuffer(reply: FastifyReply, filename: string, body: Buffer): FastifyReply {
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition(exportFileName(filename)))
    .send(body);
}
