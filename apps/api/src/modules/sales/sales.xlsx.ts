// The sales spreadsheet: reading an uploaded .xlsx with exceljs' streaming reader (the file is
// first spooled to a temp file, size-capped) and writing the empty template.
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SALE_ROW_KEYS, SALES_IMPORT_HEADERS, type SaleRowInput } from '@app/contracts';
import type ExcelJS from 'exceljs';
import { BadRequestError, PayloadTooLargeError } from '../../core/errors';
import { loadExcel } from '../../core/xlsx';
import type { NumberedRow } from './sales.rows';

export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 100_000;

export const IMPORT_MESSAGES = {
  tooLarge: 'El archivo supera el tamaño maximo de 20 MB',
  empty: 'El archivo esta vacio',
  notXlsx: 'El archivo no es un Excel (.xlsx) valido. Descargue la plantilla y guarde el archivo como .xlsx',
  noFile: 'Adjunte el archivo Excel (.xlsx) en el campo "file"',
  noHeader: `El archivo no tiene la fila de encabezados. La primera fila debe ser: ${SALES_IMPORT_HEADERS.join(', ')}`,
  noRows: 'El archivo no tiene filas de ventas debajo de los encabezados',
  tooManyRows: `El archivo supera el maximo de ${MAX_IMPORT_ROWS} filas; dividalo en varios archivos`,
} as const;

/** Writes an upload stream to a temp file, refusing more than MAX_IMPORT_BYTES. */
export async function spoolUpload(
  source: NodeJS.ReadableStream,
): Promise<{ file: string; bytes: number; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sales-import-'));
  const file = path.join(dir, 'upload.xlsx');
  const cleanup = () => rm(dir, { recursive: true, force: true });
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      bytes += chunk.length;
      if (bytes > MAX_IMPORT_BYTES) cb(new PayloadTooLargeError(IMPORT_MESSAGES.tooLarge));
      else cb(null, chunk);
    },
  });
  try {
    await pipeline(source, counter, createWriteStream(file));
  } catch (err) {
    await cleanup();
    throw err;
  }
  // @fastify/multipart truncates at its own limit instead of failing.
  if ((source as { truncated?: boolean }).truncated) {
    await cleanup();
    throw new PayloadTooLargeError(IMPORT_MESSAGES.tooLarge);
  }
  return { file, bytes, cleanup };
}

/** Plain value of an exceljs cell: rich text, hyperlinks, formulas and errors flattened. */
function cellValue(v: ExcelJS.CellValue): string | number | Date | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || v instanceof Date) return v;
  if (typeof v === 'boolean') return v ? 'SI' : 'NO';
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('formula' in v || 'sharedFormula' in v)
      return cellValue((v as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if ('text' in v && typeof v.text === 'string') return v.text;
    if ('error' in v) return null;
  }
  return String(v);
}

const norm = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase();

/** An .xlsx is a zip archive: anything else (csv, xls, junk) is refused before reading. */
export async function assertXlsxFile(file: string, bytes: number): Promise<void> {
  if (bytes === 0) throw new BadRequestError(IMPORT_MESSAGES.empty);
  const fh = await open(file, 'r');
  const magic = Buffer.alloc(4);
  await fh.read(magic, 0, 4, 0);
  await fh.close();
  if (magic.readUInt32BE(0) !== 0x504b0304) throw new BadRequestError(IMPORT_MESSAGES.notXlsx);
}

/**
 * Reads the first worksheet with the streaming reader: checks the header row, then yields the
 * non-empty data rows in batches. A broken file throws a BadRequestError, even mid-way.
 */
export async function* readSalesBatches(file: string, batchSize = 5000): AsyncGenerator<NumberedRow[]> {
  let batch: NumberedRow[] = [];
  let total = 0;
  let headerSeen = false;
  let sheetSeen = false;
  const { stream } = await loadExcel();
  try {
    const reader = new stream.xlsx.WorkbookReader(file, {
      entries: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    for await (const sheet of reader) {
      sheetSeen = true;
      for await (const row of sheet) {
        const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellValue);
        if (!headerSeen) {
          if (values.every((v) => v === null || String(v).trim() === '')) continue;
          const got = SALES_IMPORT_HEADERS.map((_, i) => norm(values[i]));
          const expected = SALES_IMPORT_HEADERS.map(norm);
          if (got.some((g, i) => g !== expected[i])) {
            const found = values
              .slice(0, SALES_IMPORT_HEADERS.length)
              .map((v) => String(v ?? '').trim())
              .join(', ');
            throw new BadRequestError(
              'Los encabezados del archivo no son los de la plantilla',
              `Se esperaba: ${SALES_IMPORT_HEADERS.join(', ')}. Se encontro: ${found || '(fila vacia)'}`,
            );
          }
          headerSeen = true;
          continue;
        }
        if (values.every((v) => v === null || (typeof v === 'string' && v.trim() === ''))) continue;
        if (++total > MAX_IMPORT_ROWS) throw new BadRequestError(IMPORT_MESSAGES.tooManyRows);
        const data: SaleRowInput = {};
        SALE_ROW_KEYS.forEach((k, i) => {
          const v = values[i];
          if (v !== null && v !== undefined) data[k] = v;
        });
        batch.push({ row: row.number, data });
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      break; // only the first worksheet
    }
  } catch (err) {
    if (err instanceof BadRequestError) throw err;
    throw new BadRequestError(IMPORT_MESSAGES.notXlsx, err instanceof Error ? err.message : undefined);
  }
  if (!sheetSeen || !headerSeen) throw new BadRequestError(IMPORT_MESSAGES.noHeader);
  if (total === 0) throw new BadRequestError(IMPORT_MESSAGES.noRows);
  if (batch.length) yield batch;
}

/** Every data row at once (small files, tools). */
export async function readSalesWorkbook(file: string, bytes: number): Promise<NumberedRow[]> {
  await assertXlsxFile(file, bytes);
  const rows: NumberedRow[] = [];
  for await (const batch of readSalesBatches(file)) rows.push(...batch);
  return rows;
}

/** The empty template: the header row, column widths, and one note row explaining the codes. */
export async function salesTemplateBuffer(): Promise<Buffer> {
  const { Workbook } = await loadExcel();
  const wb = new Workbook();
  const ws = wb.addWorksheet('Ventas');
  ws.columns = SALES_IMPORT_HEADERS.map((h) => ({
    header: h,
    key: h,
    width: h === 'VIN' ? 22 : h === 'Cliente' || h === 'Email' ? 28 : 16,
  }));
  ws.getRow(1).font = { bold: true };
  ws.getColumn(3).numFmt = 'yyyy-mm-dd';
  const help = wb.addWorksheet('Instrucciones');
  help.columns = [
    { header: 'Columna', key: 'c', width: 18 },
    { header: 'Contenido', key: 'd', width: 90 },
  ];
  help.getRow(1).font = { bold: true };
  for (const [c, d] of [
    ['Concesionario', 'Codigo del concesionario'],
    ['Sede', 'Codigo o nombre de la sede (opcional)'],
    ['Fecha Venta', 'Fecha YYYY-MM-DD o celda de fecha de Excel'],
    ['Tipo Documento', 'DNI, RUC, CE o PAS'],
    ['Email', 'Correo del comprador: recibe la encuesta de satisfaccion'],
    ['VIN', '17 letras o digitos (sin I, O, Q); un VIN se vende una sola vez'],
    ['Marca', 'Codigo de la marca: V, N, S, A'],
    ['Año', 'Año del modelo'],
    ['Forma de Pago', 'E Efectivo, T Tarjeta, D Deposito, G Gratuito'],
  ]) {
    help.addRow({ c, d });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}
