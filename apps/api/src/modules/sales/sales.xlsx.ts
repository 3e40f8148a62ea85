// The sales spreadsheet: the rows of an uploaded .xlsx (checked and read by core/xlsx-read)
// turned into numbered sale rows, and the empty template.
import { SALE_ROW_KEYS, SALES_IMPORT_HEADERS, type SaleRowInput } from '@app/contracts';
import { BadRequestError } from '../../core/errors';
import type { UploadRule } from '../../core/upload';
import { loadExcel } from '../../core/xlsx';
import {
  checkXlsxArchive,
  readSheetRows,
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
  noHeader: `El archivo no tiene la fila de encabezados. La primera fila debe ser: ${SALES_IMPORT_HEADERS.join(', ')}`,
  noRows: 'El archivo no tiene filas de ventas debajo de los encabezados',
  tooManyRows: `El archivo supera el maximo de ${MAX_IMPORT_ROWS} filas; dividalo en varios archivos`,
} as const;

const norm = (s: unknown) =>
  String(s ?? '')
    .trim()
    .toLowerCase();

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * Checks the archive, then reads the first worksheet: the header row must be the template's,
 * the non-empty rows below it come out in batches. A broken file throws a 4xx AppError.
 */
export async function* readSalesBatches(
  file: string,
  bytes: number,
  batchSize = 5000,
): AsyncGenerator<NumberedRow[]> {
  await checkXlsxArchive(file, bytes, SALES_XLSX_LIMITS);
  let batch: NumberedRow[] = [];
  let total = 0;
  let headerSeen = false;
  for await (const { number, values } of readSheetRows(file, SALES_XLSX_LIMITS)) {
    if (!headerSeen) {
      if (values.every(isBlank)) continue;
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
    if (values.every(isBlank)) continue;
    if (++total > MAX_IMPORT_ROWS) throw new BadRequestError(IMPORT_MESSAGES.tooManyRows);
    const data: SaleRowInput = {};
    SALE_ROW_KEYS.forEach((k, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) data[k] = v;
    });
    batch.push({ row: number, data });
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (!headerSeen) throw new BadRequestError(IMPORT_MESSAGES.noHeader);
  if (total === 0) throw new BadRequestError(IMPORT_MESSAGES.noRows);
  if (batch.length) yield batch;
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
