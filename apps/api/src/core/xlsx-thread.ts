// A big import's spreadsheet read in a worker thread (src/xlsx-worker.ts): the same reading as
// readTemplateBatches (archive checked before any reading, streaming reader, per-cell, per-row
// and per-file limits), but its CPU off the API's event loop, and its memory capped by the
// thread's own heap limit: a file that still manages to swell past it ends the thread, not the
// server. The rows come back batch by batch as plain values.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError, BadRequestError } from './errors';
import type { SheetTemplate } from './import-template';
import type { SheetRow } from './xlsx-read';

export interface XlsxThreadInput {
  file: string;
  bytes: number;
  template: SheetTemplate;
  batchSize: number;
}

export type XlsxThreadMessage =
  | { type: 'checked'; rows: number }
  | { type: 'batch'; rows: SheetRow[] }
  | { type: 'done' }
  | { type: 'error'; error: { statusCode: number; message: string; details?: string; name?: string } };

/** Heap of the reading thread (the reader's own objects; a 100,000-row file's rows leave as plain values). */
export const XLSX_THREAD_HEAP_MB = 512;

export const XLSX_THREAD_MESSAGES = {
  outOfMemory:
    'El archivo necesita demasiada memoria para leerse; revise que sea la plantilla o divídalo en varios archivos',
} as const;

/**
 * dist/xlsx-worker.js next to the bundle; from the sources (tests, dev) src/xlsx-worker.ts
 * loaded through tsx's loader, registered inside the thread (`--import tsx` does not reach it).
 */
function workerEntry(): { script: URL | string; eval: boolean } {
  const bundled = new URL('./xlsx-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return { script: bundled, eval: false };
  const source = JSON.stringify(new URL('../xlsx-worker.ts', import.meta.url).href);
  return {
    script: `import('tsx/esm/api').then(({ register }) => { register(); return import(${source}); })`,
    eval: true,
  };
}

/** The rows of the file's first worksheet, batch by batch, read in a worker thread. */
export async function* readTemplateBatchesInThread(
  file: string,
  bytes: number,
  template: SheetTemplate,
  batchSize = 5000,
  /** Told the rows the thread's archive check counted, before the first batch. */
  onChecked?: (rows: number) => Promise<void> | void,
): AsyncGenerator<SheetRow[]> {
  const entry = workerEntry();
  const input: XlsxThreadInput = { file, bytes, template, batchSize };
  const worker = new Worker(entry.script, {
    eval: entry.eval,
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: XLSX_THREAD_HEAP_MB },
    stdout: false,
    stderr: false,
  });
  // The thread posts every batch as soon as it is read; they wait here, as plain values.
  const queue: XlsxThreadMessage[] = [];
  let wake: (() => void) | undefined;
  const deliver = (m: XlsxThreadMessage) => {
    queue.push(m);
    wake?.();
    wake = undefined;
  };
  worker.on('message', deliver);
  worker.on('error', (err: Error & { code?: string }) =>
    deliver({
      type: 'error',
      error:
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { statusCode: 400, message: XLSX_THREAD_MESSAGES.outOfMemory }
          : { statusCode: 500, message: err.message },
    }),
  );
  // An end without 'done' (its messages are delivered before 'exit'; one turn later to be sure).
  worker.on('exit', () =>
    setImmediate(() => deliver({ type: 'error', error: { statusCode: 500, message: 'xlsx-worker exit' } })),
  );
  const next = async (): Promise<XlsxThreadMessage> => {
    while (queue.length === 0)
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    return queue.shift() as XlsxThreadMessage;
  };
  try {
    for (;;) {
      const m = await next();
      if (m.type === 'done') return;
      if (m.type === 'checked') {
        await onChecked?.(m.rows);
        continue;
      }
      if (m.type === 'error') {
        const { statusCode, message, details } = m.error;
        if (statusCode === 400) throw new BadRequestError(message, details);
        if (statusCode < 500) throw new AppError(statusCode, message, details);
        throw new Error(message);
      }
      yield m.rows;
    }
  } finally {
    worker.removeAllListeners();
    await worker.terminate();
  }
}
