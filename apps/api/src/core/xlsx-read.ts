// Reading an uploaded .xlsx safely. An .xlsx is a zip of XML files, so a small upload can
// unpack to gigabytes or be cut off mid-entry. Before the spreadsheet reader sees a byte,
// checkXlsxArchive() reads the zip's directory (entry count, declared sizes) and inflates
// every entry once, streaming, counting the real bytes, the rows (empty ones too) and the
// cells of each worksheet; a truncated, broken or oversized file is refused there, in about
// the time it takes to inflate what it declares. readSheetRows() then reads the first
// worksheet with exceljs' streaming reader under a time budget (ReadClock: the time spent reading,
// not the time the process spent on other clients' queries). Neither touches the database:
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

/** Characters of one string (a shared string, an inline string, a cell's text): Excel's own cell limit. */
export const XLSX_MAX_STRING_CHARS = 32_767;
/** Bytes of one XML tag (its name and attributes) in a worksheet or the shared strings. */
export const XLSX_MAX_TAG_BYTES = 64 * 1024;
/** Inflated bytes of styles.xml and of every other XML part the reader parses (a real one: a few KB). */
export const XLSX_MAX_PART_BYTES = 4 * 1024 * 1024;

export interface XlsxLimits {
  /** Rows of one worksheet, empty rows included. */
  maxRows: number;
  /** Cells of one row. */
  maxColumns: number;
  /** Time for readSheetRows to go through the worksheet. */
  readBudgetMs: number;
}

/** Inflated bytes of xl/sharedStrings.xml: ~512 bytes per allowed row, between 4 and 64 MB. */
export function maxSharedStringsBytes(limits: XlsxLimits): number {
  return Math.min(64 << 20, Math.max(4 << 20, limits.maxRows * 512));
}

/** Characters of text the rows read may carry in all (~600 per allowed row, at least 8 million). */
export function maxSheetTextChars(limits: XlsxLimits): number {
  return Math.max(8_000_000, limits.maxRows * 600);
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
  stringTooLong: `Una celda del archivo Excel tiene un texto de más de ${XLSX_MAX_STRING_CHARS} caracteres (el máximo de Excel); revise el archivo o use la plantilla`,
  tagTooLong:
    'El archivo Excel tiene una parte interna con un formato inválido; guárdelo de nuevo desde Excel o use la plantilla',
  partTooLarge: (part: string, mb: number) =>
    `La parte interna ${part} del archivo Excel supera ${mb} MB al descomprimirla; guárdelo de nuevo desde la plantilla o divídalo en varios archivos`,
  misplacedSheet:
    'El archivo Excel tiene una hoja guardada fuera de su lugar (xl/worksheets/); guárdelo de nuevo desde Excel o use la plantilla',
  tooMuchText: (millions: number) =>
    `El archivo tiene demasiado texto (más de ${millions} millones de caracteres); divídalo en varios archivos`,
} as const;

/**
 * The time a file's reading takes, for its budgets, without the time this process spent on
 * other work: PGlite runs every query on this thread, so while other clients write, the event
 * loop is held for long stretches that are no fault of the file (a valid 400-row file was
 * refused after "10 seconds" of mostly waiting). A 20 ms ticker counts each gap between its
 * ticks up to 40 ms: idle waiting (a reader that hangs, slow I/O) counts in full, a stretch of
 * the loop held by someone else counts 40 ms. The file's own work is bounded apart from it
 * (bytes unpacked, rows, cells).
 */
export class ReadClock {
  private static readonly TICK_MS = 20;
  private static readonly MAX_GAP_MS = 40;
  private used = 0;
  private last = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.tick(), ReadClock.TICK_MS);
    this.timer.unref();
  }

  private tick(): void {
    const now = performance.now();
    this.used += Math.min(now - this.last, ReadClock.MAX_GAP_MS);
    this.last = now;
  }

  /** Milliseconds of reading so far. */
  elapsed(): number {
    this.tick();
    return this.used;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Where a worksheet lives in a real workbook. */
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;
/** What exceljs' reader takes for a worksheet: unanchored, so `a/xl/worksheets/sheet1.xml` too. */
const READER_WORKSHEET = /xl\/worksheets\/sheet\d+[.]xml/;
const SHARED_STRINGS = /^xl\/sharedStrings\.xml$/i;
/** XML parts (styles, workbook, relationships...): bounded by XLSX_MAX_PART_BYTES. */
const XML_PART = /\.(xml|rels)$/i;

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
 * Measures, byte by byte as the inflated XML streams by, the text of each string-holding element
 * (a `<si>` shared string, a `<c>` cell with its inline string or formula; a `<row>` starts
 * afresh too) and the length of each tag, and throws as soon as one crosses its bound. Text is
 * counted in characters: an entity (`&amp;`) is one, UTF-8 continuation bytes are not counted.
 */
export class StringMeter {
  private state: 'text' | 'tag' | 'entity' = 'text';
  /** Characters of text since the last element start. */
  private chars = 0;
  private tagBytes = 0;
  /** The current tag's name (after `<`, up to 12 bytes; empty for a closing tag). */
  private name = '';
  private nameDone = false;
  constructor(
    private readonly maxChars = XLSX_MAX_STRING_CHARS,
    private readonly maxTagBytes = XLSX_MAX_TAG_BYTES,
  ) {}

  push(chunk: Buffer): void {
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const b = chunk[i]!;
      if (this.state === 'tag') {
        if (b === 0x3e /* > */) {
          this.state = 'text';
          this.startElement();
          continue;
        }
        if (++this.tagBytes > this.maxTagBytes) throw new BadRequestError(XLSX_MESSAGES.tagTooLong);
        if (!this.nameDone) {
          // A space, a slash (a closing or empty tag) or 12 bytes end the name.
          if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x2f || this.name.length >= 12)
            this.nameDone = true;
          else this.name += String.fromCharCode(b);
        }
        continue;
      }
      if (b === 0x3c /* < */) {
        this.state = 'tag';
        this.tagBytes = 0;
        this.name = '';
        this.nameDone = false;
        continue;
      }
      if (this.state === 'entity') {
        if (b === 0x3b /* ; */) this.state = 'text';
        continue;
      }
      if ((b & 0xc0) === 0x80) continue; // UTF-8 continuation byte
      if (b === 0x26 /* & */) this.state = 'entity';
      if (++this.chars > this.maxChars) throw new BadRequestError(XLSX_MESSAGES.stringTooLong);
    }
  }

  private startElement(): void {
    const colon = this.name.indexOf(':');
    const local = colon >= 0 ? this.name.slice(colon + 1) : this.name;
    if (local === 'si' || local === 'c' || local === 'row') this.chars = 0;
  }
}

/** Opens the upload as a zip: a 4xx when it is not one, or is cut off (no end-of-directory record). */
async function openArchive(file: string, bytes: number): Promise<yauzl.ZipFile> {
  await assertZipMagic(file, bytes);
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    // No end-of-directory record: cut off, or not a zip at all.
    throw new BadRequestError(XLSX_MESSAGES.broken);
  }
  if (zip.entryCount > XLSX_MAX_ENTRIES) {
    zip.close();
    throw new PayloadTooLargeError(XLSX_MESSAGES.tooManyEntries);
  }
  return zip;
}

/** The next entry of the zip's directory (undefined at its end). */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise<yauzl.Entry | undefined>((resolve, reject) => {
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
}

/** What the directory says of one entry, judged on its name and declared size alone. */
interface EntryKind {
  isSheet: boolean;
  isStrings: boolean;
  /** Inflated bytes it may reach. */
  maxBytes: number;
  tooLarge: PayloadTooLargeError;
}

function judgeEntry(entry: yauzl.Entry, limits: XlsxLimits): EntryKind {
  const isSheet = WORKSHEET.test(entry.fileName);
  // A part the reader would take for a worksheet must be one, where the check counts it.
  if (!isSheet && READER_WORKSHEET.test(entry.fileName))
    throw new BadRequestError(XLSX_MESSAGES.misplacedSheet);
  const isStrings = SHARED_STRINGS.test(entry.fileName);
  // Shared strings are cached whole by the reader, and other XML parts parsed whole: both bounded.
  const maxBytes = isSheet
    ? Number.POSITIVE_INFINITY
    : isStrings
      ? maxSharedStringsBytes(limits)
      : XML_PART.test(entry.fileName)
        ? XLSX_MAX_PART_BYTES
        : Number.POSITIVE_INFINITY;
  const tooLarge = new PayloadTooLargeError(
    XLSX_MESSAGES.partTooLarge(entry.fileName.slice(0, 80), Math.round(maxBytes / 2 ** 20)),
  );
  if (entry.uncompressedSize > maxBytes) throw tooLarge;
  return { isSheet, isStrings, maxBytes, tooLarge };
}

/**
 * The bounded part of the check, for a big import's request (issue 24: the 202 at once): the
 * zip's signature and directory only, nothing inflated (a few hundred entries at most, so
 * milliseconds whatever the file's size): a file that is not a zip or is cut off, too many
 * entries, declared sizes past the caps, a worksheet out of its place, no worksheet. The rest
 * (real sizes, rows, cells, strings) is checkXlsxArchive's, in the job.
 */
export async function checkXlsxDirectory(file: string, bytes: number, limits: XlsxLimits): Promise<void> {
  const zip = await openArchive(file, bytes);
  try {
    let unpacked = 0;
    let sawWorksheet = false;
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue;
      unpacked += entry.uncompressedSize;
      if (unpacked > XLSX_MAX_UNPACKED) throw new PayloadTooLargeError(XLSX_MESSAGES.unpackedTooLarge);
      if (judgeEntry(entry, limits).isSheet) sawWorksheet = true;
    }
    if (!sawWorksheet) throw new BadRequestError(XLSX_MESSAGES.notXlsx);
  } catch (err) {
    if (err instanceof BadRequestError || err instanceof PayloadTooLargeError) throw err;
    throw new BadRequestError(XLSX_MESSAGES.broken);
  } finally {
    zip.close();
  }
}

/**
 * Refuses, before any spreadsheet parsing, a file that is not a complete zip, has too many
 * entries, unpacks (declared or real) beyond XLSX_MAX_UNPACKED, or whose worksheets hold more
 * rows or wider rows than the import accepts. Throws a 4xx AppError with a Spanish message.
 * Answers the rows its worksheets hold (empty ones too): a big import's expected total.
 */
export async function checkXlsxArchive(
  file: string,
  bytes: number,
  limits: XlsxLimits,
): Promise<{ rows: number }> {
  const zip = await openArchive(file, bytes);
  const clock = new ReadClock();
  try {
    let unpacked = 0;
    let sawWorksheet = false;
    let sheetRows = 0;
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      if (entry.fileName.endsWith('/')) continue;
      // The declared size first: an honest bomb is refused without inflating anything.
      unpacked += entry.uncompressedSize;
      if (unpacked > XLSX_MAX_UNPACKED) throw new PayloadTooLargeError(XLSX_MESSAGES.unpackedTooLarge);
      const { isSheet, isStrings, maxBytes, tooLarge } = judgeEntry(entry, limits);
      sawWorksheet ||= isSheet;
      const counter = isSheet || isStrings ? new TagCounter() : undefined;
      const meter = isSheet || isStrings ? new StringMeter() : undefined;
      let inflated = 0;
      const maxCells = limits.maxRows * limits.maxColumns;
      const check = () => {
        if (clock.elapsed() > XLSX_CHECK_BUDGET_MS)
          throw new BadRequestError(XLSX_MESSAGES.tooSlow(XLSX_CHECK_BUDGET_MS / 1000));
        if (inflated > maxBytes) throw tooLarge;
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
              inflated += chunk.length;
              counter?.push(chunk);
              meter?.push(chunk);
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
              if (isSheet && counter) sheetRows += counter.rows;
              cb();
            } catch (err) {
              cb(err as Error);
            }
          },
        }),
      );
    }
    if (!sawWorksheet) throw new BadRequestError(XLSX_MESSAGES.notXlsx);
    return { rows: sheetRows };
  } catch (err) {
    if (err instanceof BadRequestError || err instanceof PayloadTooLargeError) throw err;
    throw new BadRequestError(XLSX_MESSAGES.broken);
  } finally {
    clock.stop();
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
  // The budget counts reading (ReadClock), checked four times a second, so a reader that hangs
  // is stopped too.
  const clock = new ReadClock();
  // Not a Promise.race per row against one long-lived promise: every race leaves a reaction on
  // it holding that row, so 100,000 rows kept ~500 MB alive until the end of the file.
  let expired: BadRequestError | undefined;
  const timer = setInterval(
    () => {
      if (expired || clock.elapsed() <= limits.readBudgetMs) return;
      expired = new BadRequestError(XLSX_MESSAGES.tooSlow(Math.round(limits.readBudgetMs / 1000)));
      input.destroy(expired);
    },
    Math.min(250, limits.readBudgetMs),
  );
  timer.unref();
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
  let text = 0;
  const maxText = maxSheetTextChars(limits);
  try {
    for (;;) {
      let next: IteratorResult<ExcelJS.Row>;
      try {
        next = await rows.next();
        if (expired) throw expired;
      } catch (err) {
        if (expired) throw expired;
        if (err instanceof BadRequestError) throw err;
        throw new BadRequestError(XLSX_MESSAGES.broken, err instanceof Error ? err.message : undefined);
      }
      if (next.done) return;
      if (++count > limits.maxRows) throw new BadRequestError(XLSX_MESSAGES.tooManyRows(limits.maxRows));
      const values = (next.value.values as ExcelJS.CellValue[]).slice(1);
      if (values.length > limits.maxColumns)
        throw new BadRequestError(XLSX_MESSAGES.tooManyColumns(limits.maxColumns));
      const cells = values.map(cellValue);
      for (const v of cells) if (typeof v === 'string') text += v.length;
      if (text > maxText) throw new BadRequestError(XLSX_MESSAGES.tooMuchText(Math.round(maxText / 1e6)));
      yield { number: next.value.number, values: cells };
    }
  } finally {
    clearInterval(timer);
    clock.stop();
    input.destroy();
  }
}
