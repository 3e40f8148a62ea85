// Reading an uploaded .xlsx safely. An .xlsx is a zip of XML files, so a small upload can
// unpack to gigabytes or be cut off mid-entry. Before the spreadsheet reader sees a byte,
// checkXlsxArchive() reads the zip's directory (entry count, declared sizes) and inflates
// every entry once, streaming, counting the real bytes, the rows (empty ones too) and the
// cells of each worksheet; a truncated, broken or oversized file is refused there, in about
// the time it takes to inflate what it declares. readSheetRows() then reads the first
// worksheet with exceljs' streaming reader under a time budget. Neither touches the database:
// imports parse first and open their transaction only to write.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { BadRequestError, PayloadTooLargeError } from './errors';
import { loadExcel } from './xlsx';

export const XLSX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Entries of a real workbook: a few dozen. */
export const XLSX_MAX_ENTRIES = 500;
/** Unpacked bytes of all entries together (a 100,000-row sales file unpacks to ~60 MB). */
export const XLSX_MAX_UNPACKED = 150 * 1024 * 1024;
/** Inflating and counting every entry must end within this budget. */
export const XLSX_CHECK_BUDGET_MS = 10_000;

export interface XlsxLimits {
  /** Rows of one worksheet, empty rows included. */
  maxRows: number;
  /** Cells of one row. */
  maxColumns: number;
  /** Time for readSheetRows to go through the worksheet. */
  readBudgetMs: number;
}

export const XLSX_MESSAGES = {
  noFile: 'Adjunte el archivo Excel (.xlsx) en el campo "file"',
  tooLarge: `El archivo supera el tamaño máximo de ${XLSX_UPLOAD_BYTES / 1024 / 1024} MB`,
  empty: 'El archivo está vacío',
  notXlsx: 'El archivo no es un Excel (.xlsx) válido. Descargue la plantilla y guarde el archivo como .xlsx',
  broken:
    'El archivo no es un Excel (.xlsx) válido: está dañado o incompleto (¿se corto al copiarlo o descargarlo?). Ábralo en Excel, guárdelo de nuevo como .xlsx e intente otra vez',
  unpackedTooLarge: `El contenido del archivo Excel supera ${XLSX_MAX_UNPACKED / 1024 / 1024} MB al descomprimirlo; divídalo en varios archivos`,
  tooManyEntries: 'El archivo Excel tiene demasiadas partes internas; guárdelo de nuevo desde la plantilla',
  tooManyRows: (max: number) =>
    `El archivo supera el máximo de ${max} filas (incluidas las filas vacías con formato); divídalo en varios archivos o borre las filas vacías`,
  tooManyColumns: (max: number) =>
    `Una fila del archivo tiene más de ${max} celdas; use las columnas de la plantilla`,
  tooSlow: (seconds: number) =>
    `El archivo tarda demasiado en leerse (más de ${seconds} segundos); revise que sea la plantilla o divídalo en varios archivos`,
} as const;

const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;
const SHARED_STRINGS = /^xl\/sharedStrings\.xml$/i;

/** Zip "local file header" signature: every .xlsx starts with it. */
async function assertZipMagic(file: string, bytes: number): Promise<void> {
  if (bytes === 0) throw new BadRequestError(XLSX_MESSAGES.empty);
  const fh = await open(file, 'r');
  try {
    const magic = Buffer.alloc(4);
    await fh.read(magic, 0, 4, 0);
    if (magic.readUInt32BE(0) !== 0x504b0304) throw new BadRequestError(XLSX_MESSAGES.notXlsx);
  } finally {
    await fh.close();
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('zip')) : resolve(zip),
    );
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) =>
      err || !stream ? reject(err ?? new Error('entry')) : resolve(stream),
    );
  });
}

/**
 * Counts rows and cells of a worksheet (or strings of the shared-strings part) in the inflated
 * XML as it streams by, without parsing it: `<row`, `<c`, `<si` tags, namespace prefix allowed.
 */
class TagCounter {
  private static readonly TAG = /<(?:[A-Za-z]\w{0,9}:)?(row|c|si)[\s/>]/g;
  private static readonly CARRY = 16;
  private carry = '';
  rows = 0;
  cells = 0;
  strings = 0;
  private rowCells = 0;
  maxRowCells = 0;

  push(chunk: Buffer, final = false): void {
    const text = this.carry + chunk.toString('latin1');
    const limit = final ? text.length : text.length - TagCounter.CARRY;
    TagCounter.TAG.lastIndex = 0;
    for (let m = TagCounter.TAG.exec(text); m && m.index < limit; m = TagCounter.TAG.exec(text)) {
      if (m[1] === 'row') {
        this.rows++;
        this.rowCells = 0;
      } else if (m[1] === 'c') {
        this.cells++;
        if (++this.rowCells > this.maxRowCells) this.maxRowCells = this.rowCells;
      } else {
        this.strings++;
      }
    }
    this.carry = final ? '' : text.slice(Math.max(0, limit));
  }
}

/**
 * Refuses, before any spreadsheet parsing, a file that is not a complete zip, has too many
 * entries, unpacks (declared or real) beyond XLSX_MAX_UNPACKED, or whose worksheets hold more
 * rows or wider rows than the import accepts. Throws a 4xx AppError with a Spanish message.
 */
export async function checkXlsxArchive(file: string, bytes: number, limits: XlsxLimits): Promise<void> {
  await assertZipMagic(file, bytes);
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    // No end-of-directory record: cut off, or not a zip at all.
    throw new BadRequestError(XLSX_MESSAGES.broken);
  }
  const deadline = Date.now() + XLSX_CHECK_BUDGET_MS;
  try {
    if (zip.entryCount > XLSX_MAX_ENTRIES) throw new PayloadTooLargeError(XLSX_MESSAGES.tooManyEntries);
    let unpacked = 0;
    let sawWorksheet = false;
    for (;;) {
      const entry = await new Promise<yauzl.Entry | undefined>((resolve, reject) => {
        const onEntry = (e: yauzl.Entry) => done(() => resolve(e));
        const onEnd = () => done(() => resolve(undefined));
        const onError = (err: Error) => done(() => reject(err));
        const done = (then: () => void) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          then();
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!entry) break;
      if (entry.fileName.endsWith('/')) continue;
      // The declared size first: an honest bomb is refused without inflating anything.
      unpacked += entry.uncompressedSize;
      if (unpacked > XLSX_MAX_UNPACKED) throw new PayloadTooLargeError(XLSX_MESSAGES.unpackedTooLarge);
      const isSheet = WORKSHEET.test(entry.fileName);
      const isStrings = SHARED_STRINGS.test(entry.fileName);
      sawWorksheet ||= isSheet;
      const counter = isSheet || isStrings ? new TagCounter() : undefined;
      const maxCells = limits.maxRows * limits.maxColumns;
      const check = () => {
        if (Date.now() > deadline)
          throw new BadRequestError(XLSX_MESSAGES.tooSlow(XLSX_CHECK_BUDGET_MS / 1000));
        if (!counter) return;
        if (counter.rows > limits.maxRows)
          throw new BadRequestError(XLSX_MESSAGES.tooManyRows(limits.maxRows));
        if (counter.maxRowCells > limits.maxColumns)
          throw new BadRequestError(XLSX_MESSAGES.tooManyColumns(limits.maxColumns));
        if (counter.cells > maxCells || counter.strings > maxCells)
          throw new BadRequestError(XLSX_MESSAGES.tooManyRows(limits.maxRows));
      };
      // yauzl checks the real inflated size against the declared one (a lying entry fails as
      // soon as it inflates past it) and fails on a cut-off deflate stream.
      const source = await openEntry(zip, entry);
      await pipeline(
        source,
        new Writable({
          write(chunk: Buffer, _enc, cb) {
            try {
              counter?.push(chunk);
              check();
              cb();
            } catch (err) {
              cb(err as Error);
            }
          },
          final(cb) {
            try {
              counter?.push(Buffer.alloc(0), true);
              check();
              cb();
            } catch (err) {
              cb(err as Error);
            }
          },
        }),
      );
    }
    if (!sawWorksheet) throw new BadRequestError(XLSX_MESSAGES.notXlsx);
  } catch (err) {
    if (err instanceof BadRequestError || err instanceof PayloadTooLargeError) throw err;
    throw new BadRequestError(XLSX_MESSAGES.broken);
  } finally {
    zip.close();
  }
}

/** Plain value of an exceljs cell: rich text, hyperlinks, formulas and errors flattened. */
export function cellValue(v: ExcelJS.CellValue): string | number | Date | null {
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

export interface SheetRow {
  /** 1-based row number as Excel shows it. */
  number: number;
  /** Cell values from column A on. */
  values: (string | number | Date | null)[];
}

/**
 * The rows of the first worksheet (empty ones included, so the caller decides), read with
 * exceljs' streaming reader from a stream this function owns and closes. Run checkXlsxArchive
 * first. Past `limits.readBudgetMs` the read stops with a 400, even if the reader hangs.
 */
export async function* readSheetRows(file: string, limits: XlsxLimits): AsyncGenerator<SheetRow> {
  const { stream } = await loadExcel();
  const input = createReadStream(file);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new BadRequestError(XLSX_MESSAGES.tooSlow(Math.round(limits.readBudgetMs / 1000)))),
      limits.readBudgetMs,
    );
  });
  timedOut.catch(() => {});
  const rows = (async function* () {
    const reader = new stream.xlsx.WorkbookReader(input, {
      entries: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      worksheets: 'emit',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) yield row as ExcelJS.Row;
      break; // only the first worksheet
    }
  })();
  let count = 0;
  try {
    for (;;) {
      let next: IteratorResult<ExcelJS.Row>;
      try {
        next = await Promise.race([rows.next(), timedOut]);
      } catch (err) {
        if (err instanceof BadRequestError) throw err;
        throw new BadRequestError(XLSX_MESSAGES.broken, err instanceof Error ? err.message : undefined);
      }
      if (next.done) return;
      if (++count > limits.maxRows) throw new BadRequestError(XLSX_MESSAGES.tooManyRows(limits.maxRows));
      const values = (next.value.values as ExcelJS.CellValue[]).slice(1);
      if (values.length > limits.maxColumns)
        throw new BadRequestError(XLSX_MESSAGES.tooManyColumns(limits.maxColumns));
      yield { number: next.value.number, values: values.map(cellValue) };
    }
  } finally {
    clearTimeout(timer);
    input.destroy();
  }
}
