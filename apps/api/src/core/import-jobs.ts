// A template import (.xlsx) becomes a background job when its file is big (IMPORT_JOB_BYTES,
// config.ts): the archive is judged in the request as for a small file (a broken or swollen
// file still answers its 4xx at once, before anything is queued), then the call answers 202
// with the job, and the job reads the worksheet in a worker thread (core/xlsx-thread.ts) and
// saves all rows or none in one transaction, as the synchronous call does.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SheetTemplate } from '../modules/sales/sales.xlsx';
import type { CurrentUser } from './context';
import { type JobDef, type JobRunContext, type JobView, jobView } from './jobs';
import type { SpooledFile } from './upload';
import { checkXlsxArchive, type SheetRow, type XlsxLimits } from './xlsx-read';
import { readTemplateBatchesInThread } from './xlsx-thread';

/** The data a template import job carries: the worksheet's rows as the archive check counted them. */
export interface ImportJobData {
  rows?: number;
}

/**
 * When the upload is big: checks the archive, queues `def` with the file and answers the job
 * (the call's answer becomes 202). Small files: undefined, and the call goes on as before.
 */
export async function importAsJobWhenBig(
  ctx: { app: FastifyInstance; user: CurrentUser; reply: FastifyReply },
  upload: SpooledFile,
  def: JobDef<ImportJobData>,
  limits: XlsxLimits,
): Promise<JobView | undefined> {
  const { app, user, reply } = ctx;
  if (upload.bytes < app.ctx.config.importJobBytes) return undefined;
  const { rows } = await checkXlsxArchive(upload.file, upload.bytes, limits);
  const expected = Math.max(0, rows - 1);
  const job = await app.ctx.jobs.submit(user, def as JobDef<never>, { rows: expected }, upload, expected);
  reply.status(202);
  return jobView(job);
}

export const IMPORT_STEPS = {
  reading: 'Leyendo y revisando las filas',
  saving: (n: number) => `Guardando ${n} filas`,
} as const;

/** The job's template rows, read in the worker thread, batch by batch, with the job's progress. */
export async function* jobTemplateRows(
  ctx: JobRunContext<ImportJobData>,
  template: SheetTemplate,
): AsyncGenerator<SheetRow[]> {
  const input = ctx.input;
  if (!input) throw new Error('import job without input');
  const total = ctx.data.rows || null;
  let done = 0;
  await ctx.progress(0, total, IMPORT_STEPS.reading);
  for await (const rows of readTemplateBatchesInThread(input.file, input.bytes, template)) {
    done += rows.length;
    await ctx.progress(done, total && Math.max(total, done), IMPORT_STEPS.reading);
    yield rows;
  }
}
