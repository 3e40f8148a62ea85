// What a file is, read from its first bytes (and, for a zip, from the names in its directory),
// never from its name: an executable renamed .pdf is an executable. Used by the document
// upload; the accepted kinds are the contract's DOCUMENT_FILE_TYPES.
import { open } from 'node:fs/promises';
import yauzl from 'yauzl';

export type DetectedKind =
  | 'pdf'
  | 'xlsx'
  | 'docx'
  | 'pptx'
  | 'ole'
  | 'png'
  | 'jpg'
  | 'zip'
  | 'executable'
  | 'unknown';

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/** The kind of a local file from its content. */
export async function detectFileKind(file: string): Promise<DetectedKind> {
  const fh = await open(file, 'r');
  const head = Buffer.alloc(16);
  try {
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  // MZ (Windows PE), ELF, Mach-O (32/64, both byte orders, fat), shell/script shebang.
  if (
    startsWith(head, [0x4d, 0x5a]) ||
    startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) ||
    [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(head.readUInt32BE(0)) ||
    startsWith(head, [0x23, 0x21])
  )
    return 'executable';
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return officeKind(await zipEntryNames(file));
  return 'unknown';
}

/** An Office Open XML package by its parts; any other zip is a zip. */
function officeKind(names: string[] | undefined): DetectedKind {
  if (!names) return 'unknown';
  if (!names.includes('[Content_Types].xml')) return 'zip';
  if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
  if (names.some((n) => n.startsWith('word/'))) return 'docx';
  if (names.some((n) => n.startsWith('ppt/'))) return 'pptx';
  return 'zip';
}

/** The entry names of a zip's central directory (nothing inflated), or undefined when broken. */
function zipEntryNames(file: string, max = 5000): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return resolve(undefined);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        if (names.length >= max) {
          zip.close();
          resolve(names);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(undefined));
      zip.readEntry();
    });
  });
}
