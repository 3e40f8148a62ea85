// Hostile .xlsx files for the upload tests, built in memory in a few milliseconds: a zip
// writer that takes ready-made deflate data, so an entry can inflate to gigabytes from a few
// hundred KB (the same compressed block repeated) and declare any size it likes.
import { PassThrough } from 'node:stream';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { type Cell, salesWorkbook } from './sales-fixtures';

export interface ZipEntry {
  name: string;
  /** Raw deflate data. */
  deflated: Buffer;
  /** Real inflated size and CRC. */
  size: number;
  crc: number;
  /** What the headers claim (defaults to the real size): a lying entry declares less. */
  declaredSize?: number;
}

/** An entry whose inflated content is head + filler × repeat + tail, without building it. */
export function repeatedEntry(
  name: string,
  head: string,
  filler: string,
  repeat: number,
  tail: string,
): ZipEntry {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const fillerChunk = Buffer.from(filler.repeat(Math.max(1, Math.floor((1 << 20) / filler.length))));
  const per = Math.ceil((repeat * filler.length) / fillerChunk.length);
  const headBuf = Buffer.from(head);
  const tailBuf = Buffer.from(tail);
  const block = deflateRawSync(fillerChunk, flush);
  // The real CRC only where it is cheap: nobody reads a bomb that far.
  let crc = 0;
  if (per <= 1000) {
    crc = crc32(headBuf);
    for (let i = 0; i < per; i++) crc = crc32(fillerChunk, crc);
    crc = crc32(tailBuf, crc);
  }
  const deflated = Buffer.concat([
    deflateRawSync(headBuf, flush),
    Buffer.concat(Array.from({ length: per }, () => block)),
    deflateRawSync(tailBuf),
  ]);
  return { name, deflated, size: headBuf.length + per * fillerChunk.length + tailBuf.length, crc };
}

export function plainEntry(name: string, content: Buffer): ZipEntry {
  return { name, deflated: deflateRawSync(content), size: content.length, crc: crc32(content) };
}

/** A zip archive (method deflate, no zip64) of the given entries. */
export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const size = Math.min(e.declaredSize ?? e.size, 0xffffffff);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.deflated);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The entries of a real workbook (made by exceljs), to build a hostile variant of it. */
export async function workbookEntries(file: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(file, { lazyEntries: false }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
  const out = new Map<string, Buffer>();
  // Resolves when every entry has been read whole, not a while after the directory ends: under
  // load a fixed wait (it was 20 ms) lost the worksheet now and then, and the "hostile" file
  // became one without a worksheet (refused as not an .xlsx before the check under test).
  await new Promise<void>((resolve, reject) => {
    let pending = 0;
    let listed = false;
    const settle = () => {
      if (listed && pending === 0) resolve();
    };
    zip.on('entry', (entry: yauzl.Entry) => {
      pending++;
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const parts: Buffer[] = [];
        stream.on('data', (d: Buffer) => parts.push(d));
        stream.on('error', reject);
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(parts));
          pending--;
          settle();
        });
      });
    });
    zip.on('end', () => {
      listed = true;
      settle();
    });
    zip.on('error', reject);
  });
  return out;
}

/** The sales template (header row only) with one of its parts replaced. */
export async function templateWith(replace: ZipEntry): Promise<Buffer> {
  const entries = await workbookEntries(await salesWorkbook([]));
  const list: ZipEntry[] = [];
  let replaced = false;
  for (const [name, content] of entries) {
    if (name === replace.name) {
      list.push(replace);
      replaced = true;
    } else list.push(plainEntry(name, content));
  }
  if (!replaced) list.push(replace);
  return zipOf(list);
}

const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';
const SST_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

/** Hostile files, each a few hundred KB (the last one ~10 MB). */
export async function bombs(): Promise<Record<string, Buffer>> {
  const strings = (mb: number, declaredSize?: number) => ({
    ...repeatedEntry(
      'xl/sharedStrings.xml',
      SST_HEAD,
      `<si><t>${'A'.repeat(100)}</t></si>`,
      (mb << 20) / 113,
      '</sst>',
    ),
    declaredSize,
  });
  return {
    // 300 MB of shared strings, sizes declared honestly.
    'shared strings': await templateWith(strings(300)),
    // The same, declaring 10 KB.
    'shared strings, lying sizes': await templateWith(strings(300, 10_000)),
    // 120 MB of empty rows (under the unpacked cap: the row count must stop it).
    'empty rows': await templateWith(
      repeatedEntry('xl/worksheets/sheet1.xml', SHEET_HEAD, '<row/>', 20_000_000, SHEET_TAIL),
    ),
    // One row of 10 million empty cells.
    'wide row': await templateWith(
      repeatedEntry(
        'xl/worksheets/sheet1.xml',
        `${SHEET_HEAD}<row r="1">`,
        '<c/>',
        10_000_000,
        `</row>${SHEET_TAIL}`,
      ),
    ),
    // ~10 MB upload that inflates to ~10 GB of shared strings, declaring 1 MB.
    '10 MB shared strings': await templateWith(strings(10_000, 1 << 20)),
  };
}

/**
 * A sales file written by exceljs' streaming writer, as large exports and many tools write them:
 * entries carry their sizes after the data (data descriptors), so a reader that streams the zip
 * cannot tell where a cut-off entry ends.
 */
export async function streamedWorkbook(rows: Cell[][]): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (d: Buffer) => parts.push(d));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const ws = wb.addWorksheet('Ventas');
  ws.addRow([...SALES_IMPORT_HEADERS]).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(parts);
}
