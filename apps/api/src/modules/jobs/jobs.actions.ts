// The status of a background job (core/jobs.ts) and its file: only the caller's own jobs (which
// are within its dealer), and only while it holds the permission of the call the job replaces.
// Another user's job, a job of another dealer, an unknown or malformed id: 404.
import { shellCalls as calls } from '@app/contracts';
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { defineAction } from '../../core/action';
import { assertPermission } from '../../core/auth';
import type { CurrentUser } from '../../core/context';
import { NotFoundError } from '../../core/errors';
import { jobView } from '../../core/jobs';
import { contentDisposition, exportFileName, XLSX_TYPE } from '../../core/xlsx';
import { backgroundJobs } from '../../db/schema';

const tags = ['Trabajos'];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const JOB_NOT_FOUND = 'El trabajo no existe o ya expiró';

/** The caller's own jobs, within its dealer. */
function mine(user: CurrentUser): SQL {
  return and(
    eq(backgroundJobs.user_id, user.id),
    user.dealerId === null ? isNull(backgroundJobs.dealer_id) : eq(backgroundJobs.dealer_id, user.dealerId),
  ) as SQL;
}

async function ownJob(db: Db, user: CurrentUser, rawId: unknown) {
  const id = String(rawId ?? '');
  if (!UUID_RE.test(id)) throw new NotFoundError(JOB_NOT_FOUND);
  const [row] = await db
    .select()
    .from(backgroundJobs)
    .where(and(eq(backgroundJobs.id, id.toLowerCase()), mine(user)));
  if (!row) throw new NotFoundError(JOB_NOT_FOUND);
  assertPermission(user, row.permission);
  return row;
}

const status = defineAction({
  ...calls.job,
  summary:
    'Estado de un trabajo en segundo plano (carga o exportación grande): avance, resultado o error. Solo los propios',
  tags,
  access: 'login',
  async handler({ app, db, user, params }) {
    const row = await app.ctx.jobs.reconcile(await ownJob(db, user, params.id));
    return jobView(row);
  },
});

const list = defineAction({
  ...calls.jobs,
  summary: 'Los últimos trabajos en segundo plano del usuario (de un tipo con ?kind=)',
  tags,
  access: 'login',
  async handler({ db, user, query }) {
    const { kind } = query;
    const rows = await db
      .select()
      .from(backgroundJobs)
      .where(and(mine(user), kind ? eq(backgroundJobs.kind, kind) : undefined))
      .orderBy(desc(backgroundJobs.created_at))
      .limit(20);
    return rows.filter((r) => user.permissions.has(r.permission)).map(jobView);
  },
});

const file = defineAction({
  ...calls.jobFile,
  summary: 'Descarga el archivo de una exportación terminada en segundo plano (solo su dueño)',
  tags,
  access: 'login',
  download: true,
  raw: true,
  async handler({ app, db, user, params, reply }) {
    const row = await ownJob(db, user, params.id);
    if (row.status !== 'done' || !row.file_key)
      throw new NotFoundError('El archivo del trabajo no está listo');
    const stream = await app.ctx.storage.get(row.file_key);
    if (!stream) throw new NotFoundError(JOB_NOT_FOUND);
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', contentDisposition(exportFileName(row.file_name ?? 'exportacion.xlsx')))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .send(stream);
  },
});

export const jobsActions = [list, status, file];
