// The worker thread of a big import (core/xlsx-thread.ts starts it): reads the uploaded .xlsx
// with the same checks as a small one (checkXlsxArchive before any reading: the request only
// looked at the zip's directory; then the streaming reader under its limits and time budget) and posts the rows to the main thread batch by batch
// as compact arrays, as fast as it reads them: exceljs' reader does not wait for a slow
// consumer, and its row objects held in a backlog weigh ~10× the plain values. The parsing's CPU
// is spent here, so the API's event loop keeps answering. Built as its own file (tsup entry
// dist/xlsx-worker.js); never imported by the server.
import { parentPort, workerData } from 'node:worker_threads';
import { readTemplateBatches } from './core/import-template';
import type { XlsxThreadInput, XlsxThreadMessage } from './core/xlsx-thread';

const input = workerData as XlsxThreadInput;
const port = parentPort;
if (!port) throw new Error('xlsx-worker: se ejecuta solo como hilo de trabajo');

const post = (m: XlsxThreadMessage) => port.postMessage(m);

async function read(): Promise<void> {
  try {
    for await (const rows of readTemplateBatches(
      input.file,
      input.bytes,
      input.template,
      input.batchSize,
      (rows) => post({ type: 'checked', rows }),
    ))
      post({ type: 'batch', rows });
    post({ type: 'done' });
  } catch (err) {
    const e = err as { statusCode?: number; message?: string; details?: string; name?: string };
    post({
      type: 'error',
      error: {
        statusCode: typeof e.statusCode === 'number' ? e.statusCode : 500,
        message: String(e.message ?? err),
        details: e.details,
        name: e.name,
      },
    });
  }
}

void read();
