// Stored files (the documents' files) behind one small interface: put a file under a key, read
// it back as a stream, delete it. The server uses the folder DATA_DIR/files; when several
// servers run, an object store (S3-compatible) implements the same three calls and replaces
// the folder without touching the modules. Keys are made by the server (never a client's file
// name): lowercase letters, digits, '/', '-' and '.'.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface FileStorage {
  /** Stores the bytes of `source` (a stream or a local file path) under `key`. */
  put(key: string, source: Readable | string): Promise<void>;
  /** The stored bytes as a stream, or undefined when there is no such key. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes the key (no error when it is absent). */
  delete(key: string): Promise<void>;
}

const KEY_RE = /^[a-z0-9][a-z0-9/.-]{0,190}$/;

function assertKey(key: string): void {
  if (!KEY_RE.test(key) || key.includes('..') || key.includes('//'))
    throw new Error(`Clave de archivo no válida: ${key}`);
}

/** The folder store: DATA_DIR/files/<key>; writes land in a temp name, then are renamed. */
export class FolderStorage implements FileStorage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    assertKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, source: Readable | string): Promise<void> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.parcial`;
    try {
      await pipeline(
        typeof source === 'string' ? createReadStream(source) : source,
        createWriteStream(partial),
      );
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    const file = this.file(key);
    try {
      if (!(await stat(file)).isFile()) return undefined;
    } catch {
      return undefined;
    }
    return createReadStream(file);
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}

/**
 * The storage of a server: the folder `files` of DATA_DIR (which `npm run backup` copies with
 * the database). Without a DATA_DIR (tests that set none) a folder of the system's temp dir.
 */
export function folderStorageFor(dataDir: string): FolderStorage {
  const root = dataDir ? path.resolve(dataDir, 'files') : path.join(tmpdir(), `app-files-${process.pid}`);
  return new FolderStorage(root);
}
