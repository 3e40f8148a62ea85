// The worker thread of a big import (core/xlsx-thread.ts starts it): reads the uploaded .xlsx
// with the same checks as a small one (checkXlsxArchive before any reading, then the streaming
// reader under its limits and time budget) and hands the rows to the main thread one batch at a
// time, when asked. The parsing's CPU is spent here, so the API's event loop keeps answering.
// Built as its own file (tsup entry dist/xlsx-worker.js); never imported by the server.
import { parentPort, workerData } from 'node:worker_threads';
import type { XlsxThreadInput, XlsxThreadMessage } from './core/xlsx-thread';
import { readTemplateBatches } from './modules/sales/sales.xlsx';

const input = workerData as XlsxThreadInput;
const port = parentPort;
if (!port) throw new Error('xlsx-worker: se ejecuta solo como hilo de trabajo');

const post = (m: XlsxThreadMessage) => port.postMessage(m);
const batches = readTemplateBatches(input.file, input.bytes, input.template, input.batchSize);

port.on('message', async (m: 'next' | 'stop') => {
  if (m === 'stop') {
    await batches.return(undefined).catch(() => {});
    port.close();
    return;
  }
  try {
    const next = await batches.next();
    post(next.done ? { type: 'done' } : { type: 'batch', rows: next.value });
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
});
