// Heavy work off the request path: a big import or export runs as a job. The queue is pg-boss
// (pinned; docs/decisions.md "Jobs"): on PostgreSQL several servers share it (a job is fetched
// by one of them, FOR UPDATE SKIP LOCKED) and a job whose server died (no heartbeat) is retried
// once by another, else failed; on PGlite it runs on the one embedded connection. What the user
// sees is the row of `background_jobs` (modules/jobs): status, progress, the call's answer (an
// import's bounded per-row report) or its file in storage, or a Spanish error.
//
// A job kind is declared once (defineJob) with the permission of the call it replaces; the call
// submits it (submitJob) when its input is big and answers 202 with the job's row. The status
// call (GET /api/jobs/:id) asks that permission again and shows only the caller's own jobs.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EXPORT_JOB_PARAM } from '@app/contracts';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { backgroundJobs } from '../db/schema';
import type { Executor } from '../db/types';
import { errorLine } from '../lib/log-redact';
import { loadCurrentUser } from './auth';
import type { CurrentUser } from './current-user';
import { AppError } from './errors';
import { boundReport } from './import-report';

/** The one queue of every kind (the kind travels in the job's data). */
export const JOB_QUEUE = 'app-jobs';
/** The application_name of the job queue's own PostgreSQL connections (they poll and listen). */
export const JOB_CONNECTION_NAME = 'app-jobs';
/** A job row and its file are kept this long after it was submitted. */
export const JOB_KEEP_HOURS = 24;
/** A running job whose server stopped beating this long is retried (once) or failed. */
export const JOB_HEARTBEAT_SECONDS = 60;
/** Jobs one server runs at once (2-core machines: one heavy job each). */
export const JOB_CONCURRENCY = 1;
/** How often the expired rows and files are swept. */
const SWEEP_MS = 3600_000;
/** Progress is written at most this often. */
const PROGRESS_MS = 500;

export const JOB_MESSAGES = {
  internal:
    'No se pudo completar el trabajo por un error interno; no se guardó nada. Intente nuevamente o avise al administrador',
  serverStopped:
    'El servidor se detuvo mientras procesaba el trabajo y no pudo retomarlo; no se guardó nada. Vuelva a intentarlo',
  noLongerAllowed: 'El usuario ya no tiene permiso para este trabajo; no se guardó nada',
  inputLost: 'El archivo del trabajo ya no está disponible; vuelva a cargarlo',
  queued: 'En cola',
} as const;

/** Units done (rows read, rows saved) and expected (undefined while unknown); step in Spanish. */
export type JobProgress = (done: number, total?: number | null, step?: string) => Promise<void>;

export interface JobRunContext<D> {
  app: FastifyInstance;
  user: CurrentUser;
  data: D;
  /** The job's input (an uploaded file), fetched from storage to a local path; undefined without one. */
  input?: { file: string; bytes: number; filename: string };
  /** A temp folder of the job's own, removed when it ends. */
  dir: string;
  progress: JobProgress;
}

export interface JobOutcome {
  /** The answer the synchronous call would have given (an import's report, bounded here). */
  result?: unknown;
  /** A file to keep in storage for its owner to download. */
  file?: { path: string; name: string };
}

export interface JobDef<D = Record<string, unknown>> {
  kind: string;
  /** The permission of the call it replaces. */
  permission: string;
  /** What the screen calls it: 'Carga de ventas'. */
  title: string;
  /** For the notification: an import or an export, and of what ('Ventas'). */
  type: 'import' | 'export';
  name: string;
  /** The screen where its owner finds it (the notification's link). */
  link?: string;
  /** The notification's line of a job done, when the import's rows or the file do not say it. */
  summary?(result: unknown): string | null;
  run(ctx: JobRunContext<D>): Promise<JobOutcome>;
}

const KINDS = new Map<string, JobDef<never>>();

export interface JobFinished {
  /** The job's id (one notification per job). */
  jobId: number | string;
  /** Who started it: only this user sees the notification. */
  userId: number;
  /** 'import' or 'export' (the title says which). */
  type: 'import' | 'export';
  /** What was imported or exported, e.g. 'Ventas (CEM)'. */
  name: string;
  ok: boolean;
  /** One line: rows read, the error, ... */
  detail?: string | null;
  /** Where the result is (the file's download route, the list). */
  link?: string | null;
}

const finishedListeners: ((tx: Executor, job: JobFinished) => Promise<unknown>)[] = [];

/**
 * Told in the last transaction of every job that ends (the notifications module tells its owner:
 * 'La importación de Ventas terminó'). Registered at module load, like a job kind.
 */
export function onJobFinished(listener: (tx: Executor, job: JobFinished) => Promise<unknown>): void {
  finishedListeners.push(listener);
}

/** Declares a job kind (at module load, beside the call that submits it). */
export function defineJob<D>(def: JobDef<D>): JobDef<D> {
  KINDS.set(def.kind, def as unknown as JobDef<never>);
  return def;
}

/**
 * Recurring work (a scheduled mail): pg-boss's own schedule (cron in Lima's time zone) sends one
 * job per occurrence whatever the number of servers, and one of them runs it. It also runs once
 * when this server starts (a run missed while every server was down). `run` must itself be safe
 * to run twice (claim what it does with a unique row): the start-up runs of two servers meet.
 */
export interface RecurringDef {
  /** The pg-boss queue and schedule name. */
  name: string;
  cron: string;
  run(app: FastifyInstance): Promise<unknown>;
}

const RECURRING: RecurringDef[] = [];

export function defineRecurring(def: RecurringDef): RecurringDef {
  if (!RECURRING.some((r) => r.name === def.name)) RECURRING.push(def);
  return def;
}

export type JobRow = typeof backgroundJobs.$inferSelect;

/** What the status call and the 202 answer show of a job. */
export function jobView(row: JobRow) {
  const def = KINDS.get(row.kind);
  return {
    id: row.id,
    kind: row.kind,
    title: def?.title ?? row.kind,
    status: row.status as 'queued' | 'running' | 'done' | 'failed',
    done: row.done,
    total: row.total,
    percent:
      row.status === 'done' ? 100 : row.total ? Math.min(99, Math.floor((row.done / row.total) * 100)) : 0,
    step: row.step,
    result: row.result,
    error: row.error,
    file_name: row.file_key ? row.file_name : null,
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    expires_at: row.expires_at,
  };
}

interface QueuedData {
  kind: string;
  data: Record<string, unknown>;
  /** The input file's size and name (the file itself is in storage under input_key). */
  input?: { bytes: number; filename: string };
}

/**
 * Where the notification of a job leads: its screen; an export's with `?trabajo=<id>`, which
 * opens the job's dialog there (its download button).
 */
export function jobLink(def: JobDef<never> | undefined, id: string): string | null {
  if (!def?.link) return null;
  return def.type === 'export'
    ? `${def.link}${def.link.includes('?') ? '&' : '?'}${EXPORT_JOB_PARAM}=${id}`
    : def.link;
}

/** The notification's line of a job done: an import's rows, an export's file. */
function doneLine(def: JobDef<never> | undefined, row: JobRow): string | null {
  if (def?.summary) return def.summary(row.result);
  const r = row.result as { saved?: number; total?: number; failed?: number } | null;
  if (r && typeof r.total === 'number')
    return r.failed
      ? `${r.failed} de ${r.total} filas con errores; no se guardó ninguna`
      : `${r.saved ?? 0} filas guardadas`;
  return row.file_name ? `Archivo listo: ${row.file_name}` : null;
}

/** One per app: starts pg-boss on first use (or at start-up in main.ts) and runs the jobs. */
export class JobRunner {
  private starting?: Promise<PgBoss>;
  private sweeper?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.ctx.handle.db;
  }

  /** Starts the queue and this server's worker (idempotent). */
  start(): Promise<PgBoss> {
    this.starting ??= this.open().catch((err) => {
      this.starting = undefined;
      throw err;
    });
    return this.starting;
  }

  private async open(): Promise<PgBoss> {
    const { PgBoss, fromPglite } = await import('pg-boss');
    const target = this.app.ctx.handle.jobTarget;
    const common = {
      schema: 'pgboss',
      // Our own sweeper keeps the rows users see; pg-boss keeps its own for a week.
      superviseIntervalSeconds: 60,
      monitorIntervalSeconds: 30,
      openTelemetry: { enabled: false },
    } as const;
    const boss =
      target.kind === 'postgres'
        ? new PgBoss({
            ...common,
            connectionString: target.url,
            max: 3,
            application_name: JOB_CONNECTION_NAME,
            useListenNotify: true,
          })
        : new PgBoss({ ...common, db: fromPglite(target.client as never), backend: 'pglite' });
    boss.on('error', (err) => this.app.log.warn(`Cola de trabajos: ${errorLine(err)}`));
    await boss.start();
    await boss.createQueue(JOB_QUEUE, {
      retryLimit: 1,
      retryDelay: 5,
      heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
      expireInSeconds: 3 * 3600,
      notify: target.kind === 'postgres',
    } as never);
    await boss.work<QueuedData>(
      JOB_QUEUE,
      { localConcurrency: JOB_CONCURRENCY, pollingIntervalSeconds: 1 },
      async ([job]) => {
        if (job) await this.run(job.id, job.data);
      },
    );
    for (const r of RECURRING) await this.startRecurring(boss, r);
    if (!this.stopped) {
      this.sweeper = setInterval(() => void this.sweep().catch(() => {}), SWEEP_MS);
      this.sweeper.unref();
      void this.sweep().catch(() => {});
    }
    return boss;
  }

  private async startRecurring(boss: PgBoss, def: RecurringDef): Promise<void> {
    const run = () =>
      def.run(this.app).catch((err) => this.app.log.warn(`Tarea programada ${def.name}: ${errorLine(err)}`));
    await boss.createQueue(def.name, { policy: 'singleton', retryLimit: 0, expireInSeconds: 600 } as never);
    await boss.schedule(def.name, def.cron, null, { tz: 'America/Lima', singletonKey: def.name });
    await boss.work(def.name, { pollingIntervalSeconds: 5 }, async () => {
      await run();
    });
    if (!this.stopped) void run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    if (!this.starting) return;
    const boss = await this.starting.catch(() => undefined);
    // Not graceful: a job in flight is left to its heartbeat (retried elsewhere), never half-saved.
    await boss?.stop({ graceful: false, close: true, timeout: 2000 }).catch(() => {});
  }

  /**
   * Queues a job for `user`: its input file (a local path, e.g. the spooled upload) is first put
   * in storage, so whichever server runs it can read it. Answers the job's row.
   */
  async submit(
    user: CurrentUser,
    def: JobDef<never>,
    data: Record<string, unknown>,
    input?: { file: string; bytes: number; filename: string },
    /** The units expected, when known at once (an import's rows as the archive check counted them). */
    total?: number,
  ): Promise<JobRow> {
    const boss = await this.start();
    const id = randomUUID();
    let inputKey: string | null = null;
    if (input) {
      inputKey = `jobs/${id}/entrada.bin`;
      await this.app.ctx.storage.put(inputKey, input.file);
    }
    const [row] = await this.db
      .insert(backgroundJobs)
      .values({
        id,
        kind: def.kind,
        permission: def.permission,
        user_id: user.id,
        dealer_id: user.dealerId,
        step: JOB_MESSAGES.queued,
        total: total ?? null,
        input_key: inputKey,
        expires_at: sql`now() + make_interval(hours => ${JOB_KEEP_HOURS})`,
      })
      .returning();
    const queued: QueuedData = { kind: def.kind, data };
    if (input) queued.input = { bytes: input.bytes, filename: input.filename.slice(0, 200) };
    await boss.send(JOB_QUEUE, queued, { id });
    return row;
  }

  /** Runs one job on this server: the kind's run, then the row says done or failed (never both). */
  private async run(id: string, queued: QueuedData): Promise<void> {
    const [row] = await this.db.select().from(backgroundJobs).where(eq(backgroundJobs.id, id));
    // Done once: a row already settled (or swept) is not run again.
    if (!row || row.status === 'done' || row.status === 'failed') return;
    const def = KINDS.get(row.kind);
    const [job] = await this.db
      .update(backgroundJobs)
      .set({
        status: 'running',
        started_at: sql`now()`,
        attempts: sql`${backgroundJobs.attempts} + 1`,
        step: null,
      })
      .where(and(eq(backgroundJobs.id, id), inArray(backgroundJobs.status, ['queued', 'running'])))
      .returning();
    if (!job) return;
    const dir = await mkdtemp(path.join(tmpdir(), 'job-'));
    let last = 0;
    const progress: JobProgress = async (done, total, step) => {
      const now = Date.now();
      if (now - last < PROGRESS_MS) return;
      last = now;
      await this.db
        .update(backgroundJobs)
        .set({
          done,
          ...(total !== undefined ? { total } : {}),
          ...(step ? { step: step.slice(0, 200) } : {}),
        })
        .where(and(eq(backgroundJobs.id, id), eq(backgroundJobs.status, 'running')));
    };
    let outcome: { status: 'done' | 'failed'; set: Partial<JobRow> };
    try {
      if (!def) throw new Error(`Tipo de trabajo desconocido: ${row.kind}`);
      const user = await loadCurrentUser(this.app, row.user_id);
      if (!user || !user.permissions.has(row.permission))
        throw new AppError(403, JOB_MESSAGES.noLongerAllowed);
      const input = row.input_key ? await this.fetchInput(row.input_key, queued, dir) : undefined;
      const out = await def.run({
        app: this.app,
        user,
        data: (queued.data ?? {}) as never,
        input,
        dir,
        progress,
      });
      const set: Partial<JobRow> = { result: (boundReport(out.result) ?? null) as never };
      if (out.file) {
        const key = `jobs/${id}/archivo.xlsx`;
        await this.app.ctx.storage.put(key, out.file.path);
        set.file_key = key;
        set.file_name = out.file.name;
      }
      outcome = { status: 'done', set };
    } catch (err) {
      const known = err instanceof AppError;
      if (!known) this.app.log.error({ err }, `Trabajo ${row.kind} ${id} falló`);
      const message = known
        ? err.details
          ? `${err.message}. ${err.details}`
          : err.message
        : JOB_MESSAGES.internal;
      outcome = { status: 'failed', set: { error: message.slice(0, 1000) } };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await this.settle(id, ['running'], { ...outcome.set, status: outcome.status });
    if (row.input_key) await this.app.ctx.storage.delete(row.input_key).catch(() => {});
  }

  /**
   * Marks the job ended (if it is still in one of `from`) and tells its owner (the notifications
   * centre, issue 29: 'La importación de Ventas terminó'), in one transaction.
   */
  private settle(id: string, from: string[], set: Partial<JobRow>): Promise<JobRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(backgroundJobs)
        .set({ ...set, step: null, finished_at: sql`now()` })
        .where(and(eq(backgroundJobs.id, id), inArray(backgroundJobs.status, from)))
        .returning();
      if (!row) return undefined;
      const def = KINDS.get(row.kind);
      const finished: JobFinished = {
        jobId: row.id,
        userId: row.user_id,
        type: def?.type ?? 'import',
        name: def?.name ?? row.kind,
        ok: row.status === 'done',
        detail: row.status === 'done' ? doneLine(def, row) : row.error,
        link: jobLink(def, row.id),
      };
      for (const listener of finishedListeners) await listener(tx, finished);
      return row;
    });
  }

  private async fetchInput(key: string, queued: QueuedData, dir: string) {
    const stream = await this.app.ctx.storage.get(key);
    if (!stream) throw new AppError(410, JOB_MESSAGES.inputLost);
    const file = path.join(dir, 'entrada.bin');
    await pipeline(stream, createWriteStream(file));
    return { file, bytes: (await stat(file)).size, filename: queued.input?.filename ?? '' };
  }

  /**
   * A row still queued or running whose pg-boss job has failed (its server died and the retry
   * too, or the job expired): marked failed, with the message that says nothing was saved.
   */
  async reconcile(row: JobRow): Promise<JobRow> {
    if (row.status !== 'queued' && row.status !== 'running') return row;
    const boss = await this.start();
    const [job] = await boss.findJobs(JOB_QUEUE, { id: row.id });
    if (job && job.state !== 'failed' && job.state !== 'cancelled') return row;
    // Just submitted: its pg-boss job may not be written yet.
    if (!job && Date.now() - new Date(row.created_at).getTime() < 60_000) return row;
    const settled = await this.settle(row.id, ['queued', 'running'], {
      status: 'failed',
      error: JOB_MESSAGES.serverStopped,
    });
    if (!settled) return row;
    if (row.input_key) await this.app.ctx.storage.delete(row.input_key).catch(() => {});
    return settled;
  }

  /** Removes the expired rows and their files (every server may sweep; each row goes once). */
  async sweep(): Promise<number> {
    const gone = await this.db
      .delete(backgroundJobs)
      .where(lt(backgroundJobs.expires_at, sql`now()`))
      .returning({ file: backgroundJobs.file_key, input: backgroundJobs.input_key });
    for (const g of gone)
      for (const key of [g.file, g.input]) if (key) await this.app.ctx.storage.delete(key).catch(() => {});
    return gone.length;
  }
}
