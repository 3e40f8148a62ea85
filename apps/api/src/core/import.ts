// An import is declared, not hand-built: defineImport() takes what only the import knows (its
// template's columns from the contracts, how a worksheet row becomes an item, how items are
// checked against the database, how the valid ones are written) and gives the rest, the same for
// every import:
// - POST <file.path>: the .xlsx upload (core/upload: size, type), judged before it is read
//   (core/xlsx-read: archive, per-cell, per-row and per-file limits, streaming reader), the header
//   row checked against the template, then every row checked with no transaction open;
// - all or nothing: only when every row is right are they written, in ONE transaction together
//   with ONE audit row (who, what, how many: `after.saved` and what `save` adds);
// - the Spanish per-row report {saved, total, failed, report}, bounded (core/import-report) by the
//   action engine or the job runner;
// - a big file (IMPORT_JOB_BYTES, config.ts) runs as a background job (core/jobs.ts): the call
//   checks only the zip's directory and answers 202 with the job; the job judges the file (a
//   refused one fails the job with the 4xx's message) and the worksheet is read in a worker thread (core/xlsx-thread.ts) so
//   the API's event loop stays free, its progress is the job's (GET /api/jobs/:id), and its
//   answer is the same report;
// - the JSON batch twin (batch.path): the same checks and save for rows sent as JSON;
// - GET <template.path>: the empty template, its header row the sheet's headers.
// - the dealer scope: every row's dealer must be in the caller's (a dealer user's own dealer),
//   checked by the module's row check with `foreignDealer`, whose rule and message are the engine's;
// A module's import is one declaration; `run` serves other sources of the same rows (an external
// API's pull), with the same rules and the same single transaction.
import { type AuditAction, importResultSchema } from '@app/contracts';
import { z } from 'zod';
import {
  type Access,
  type Action,
  type ActionDef,
  type Db,
  defineAction,
  type QueryOf,
  type Tx,
} from './action';
import { writeAudit } from './audit';
import type { CurrentUser } from './context';
import { findPgError } from './db-errors';
import { ConflictError } from './errors';
import {
  IMPORT_UPLOAD,
  MAX_IMPORT_ROWS,
  readTemplateBatches,
  type SheetTemplate,
  type TemplateSpec,
  templateBuffer,
  templateLimits,
} from './import-template';
import { defineJob, type JobDef, type JobRunContext, jobView } from './jobs';
import { queryScope, type Scope } from './scope';
import { type SpooledFile, withUploadedFile } from './upload';
import { sendXlsxBuffer } from './xlsx';
import { checkXlsxDirectory, type SheetRow, type XlsxLimits } from './xlsx-read';
import { readTemplateBatchesInThread } from './xlsx-thread';

/** Where the rows came from, as the audit row names the run. */
export type ImportSource = Extract<AuditAction, 'import' | 'batch' | 'grid' | 'sales-api'>;

/** What a run is given: the database, the caller, the parsed query and the source. */
export interface ImportContext<Q = unknown> {
  db: Db;
  user: CurrentUser;
  query: Q;
  source: ImportSource;
}

/** What the hooks of a run see: the run's context with the caller's dealer scope, resolved once. */
export interface ImportRunContext<Q = unknown> extends ImportContext<Q> {
  /** The caller's dealer scope (a dealer user's own dealer; the query's dealer; or every dealer). */
  scope: Scope;
  /**
   * The row's error when the dealer it names is outside the caller's scope (a dealer user naming
   * another dealer): 'Concesionario "X" no es su concesionario: solo puede registrar <ownRows>'.
   */
  foreignDealer(dealer: { id: number; code: string }): string | undefined;
}

/** A report entry: the row (spreadsheet row, or position in the batch from 1) and whether it is right. */
export interface ReportEntry {
  row: number;
  ok: boolean;
}

/** What `check` answers: the report of every row, the items to write, how many rows failed. */
export interface CheckedRows<V, E extends ReportEntry = ReportEntry> {
  report: E[];
  valid: V[];
  failed: number;
  /** Rows read, when it is not the report's length. */
  total?: number;
  /** More of the answer (e.g. `skipped`). */
  answer?: Record<string, unknown>;
}

/** What `save` may add: to the audit row's `after`, and to the answer. */
export interface SavedRows {
  audit?: Record<string, unknown>;
  answer?: Record<string, unknown>;
}

export interface ImportResultOf<E extends ReportEntry = ReportEntry> {
  saved: number;
  total: number;
  failed: number;
  report: E[];
  [more: string]: unknown;
}

export interface ImportDef<
  I,
  V,
  E extends ReportEntry,
  Q extends z.ZodType | undefined,
  B extends z.ZodType,
> {
  /** The job kind of a big file ('sales-import'; the screen follows it by this name). */
  kind: string;
  /** The job's title ('Carga de ventas') and the notification's name of what was imported ('Ventas'). */
  title: string;
  name: string;
  /** The screen where its owner finds the rows (the notification's link). */
  link?: string;
  tags: string[];
  /** Who may import (file and batch). */
  permission: string;
  /** A further check of who may import (e.g. the manufacturer only). */
  authorize?: ActionDef['authorize'];
  /** The audit row's resource ('sales'); its action is the source ('import', 'batch', ...). */
  audit: string;
  /**
   * What a dealer user may register, for the row naming another dealer ('ventas propias'; default
   * 'datos propios'). The rule itself is the engine's (ImportRunContext.foreignDealer).
   */
  ownRows?: string;
  /** The upload's query string (e.g. the month of a grid), parsed before the file is read. */
  query?: Q;
  file: {
    path: string;
    summary: string;
    /** The header row (from the contracts), the message of a file without rows, the row maximum. */
    sheet: SheetTemplate | ((query: QueryOf<Q>) => SheetTemplate);
    /** Worksheet rows (cells in the sheet's header order) as the items `check` reads. */
    rows(rows: SheetRow[], query: QueryOf<Q>): I[];
    /** A check of the upload before it is read (e.g. its name names another month): throw a 4xx. */
    accept?(upload: SpooledFile, query: QueryOf<Q>): void;
  };
  /** The empty template (GET): the sheet's headers with these widths and instructions. */
  template?: Omit<TemplateSpec, 'headers'> & {
    path: string;
    summary: string;
    filename: string;
    /** Who may download it (default: the import's permission). */
    permission?: string;
  };
  /** The JSON twin: the same rules for rows sent as JSON (its body schema is the contract's). */
  batch?: {
    method?: 'POST' | 'PUT';
    path: string;
    summary: string;
    body: B;
    bodyLimit?: number;
    access?: Access;
    /** The audit row's action (default 'batch'). */
    source?: ImportSource;
    items(body: z.output<B>): I[];
  };
  /**
   * Checks every item (the batches of a file being read, or the one batch of a JSON call), with
   * no transaction open: the per-row report in Spanish and the values to write.
   */
  check(ctx: ImportRunContext<QueryOf<Q>>, batches: AsyncIterable<I[]>): Promise<CheckedRows<V, E>>;
  /** Writes the valid values (only called when every row is right), inside the run's transaction. */
  // biome-ignore lint/suspicious/noConfusingVoidType: a save may say nothing more.
  save(tx: Tx, valid: V[], ctx: ImportRunContext<QueryOf<Q>>): Promise<SavedRows | void>;
  /** The message of a unique-key conflict with a concurrent write (else it is a 500). */
  conflict?: { message: string; details?: string };
}

/** The steps a big import's job shows. */
export const IMPORT_STEPS = {
  checking: 'Revisando el archivo',
  reading: 'Leyendo y revisando las filas',
  saving: (n: number) => `Guardando ${n} filas`,
} as const;

/** What a template import job carries: the parsed query (`rows`: jobs queued before the check moved into the job). */
export interface ImportJobData {
  rows?: number;
  query?: unknown;
}

export interface ImportDeclaration<I, E extends ReportEntry, Q> {
  /** The calls: upload, template and batch, as declared. */
  actions: Action[];
  job: JobDef<ImportJobData>;
  /** The same rules and save for rows from elsewhere (an external API). */
  run(ctx: ImportContext<Q>, items: I[]): Promise<ImportResultOf<E>>;
}

const sheetLimits = (sheet: SheetTemplate): XlsxLimits =>
  sheet.limits ?? templateLimits(sheet.headers, sheet.maxRows ?? MAX_IMPORT_ROWS);

/** Checks every row, then writes them all with the one audit row in one transaction, or none. */
async function runImport<I, V, E extends ReportEntry, Q>(
  def: Pick<ImportDef<I, V, E, never, never>, 'audit' | 'conflict' | 'ownRows'> & {
    check(ctx: ImportRunContext<Q>, batches: AsyncIterable<I[]>): Promise<CheckedRows<V, E>>;
    // biome-ignore lint/suspicious/noConfusingVoidType: as in ImportDef.
    save(tx: Tx, valid: V[], ctx: ImportRunContext<Q>): Promise<SavedRows | void>;
  },
  given: ImportContext<Q>,
  batches: AsyncIterable<I[]>,
  beforeSave?: (rows: number) => Promise<void>,
): Promise<ImportResultOf<E>> {
  const scope = queryScope(given.user, given.query);
  const own = def.ownRows ?? 'datos propios';
  const ctx: ImportRunContext<Q> = {
    ...given,
    scope,
    foreignDealer: (d) =>
      scope.admits(d.id)
        ? undefined
        : `Concesionario "${d.code}" no es su concesionario: solo puede registrar ${own}`,
  };
  const checked = await def.check(ctx, batches);
  const result: ImportResultOf<E> = {
    saved: 0,
    total: checked.total ?? checked.report.length,
    failed: checked.failed,
    report: checked.report,
    ...checked.answer,
  };
  if (checked.failed > 0 || checked.valid.length === 0) return result;
  await beforeSave?.(checked.valid.length);
  let saved: SavedRows | undefined;
  try {
    await ctx.db.transaction(async (tx) => {
      saved = (await def.save(tx, checked.valid, ctx)) ?? undefined;
      await writeAudit(tx, {
        user: ctx.user,
        resource: def.audit,
        recordId: null,
        action: ctx.source,
        after: { saved: checked.valid.length, ...saved?.audit },
      });
    });
  } catch (err) {
    if (def.conflict && findPgError(err)?.code === '23505')
      throw new ConflictError(def.conflict.message, def.conflict.details);
    throw err;
  }
  return { ...result, saved: checked.valid.length, ...saved?.answer };
}

async function* itemsOf<I>(rows: AsyncIterable<SheetRow[]>, toItems: (rows: SheetRow[]) => I[]) {
  for await (const batch of rows) yield toItems(batch);
}

async function* once<I>(items: I[]) {
  yield items;
}

/** The query of an upload that takes no parameters: declared, so nothing raw reaches the hooks. */
const NO_QUERY = z.object({});

/** Declares an import: its upload (a job when big), its template and its JSON batch twin. */
export function defineImport<
  I,
  V,
  E extends ReportEntry,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType = z.ZodType,
>(def: ImportDef<I, V, E, Q, B>): ImportDeclaration<I, E, QueryOf<Q>> {
  type Query = QueryOf<Q>;
  const sheetOf = (query: Query) =>
    typeof def.file.sheet === 'function' ? def.file.sheet(query) : def.file.sheet;
  const access = { permission: def.permission };

  const job = defineJob<ImportJobData>({
    kind: def.kind,
    permission: def.permission,
    title: def.title,
    type: 'import',
    name: def.name,
    link: def.link,
    async run(ctx: JobRunContext<ImportJobData>) {
      const input = ctx.input;
      if (!input) throw new Error('import job without input');
      const query = (ctx.data.query ?? {}) as Query;
      let total = ctx.data.rows || null;
      let done = 0;
      await ctx.progress(0, total, IMPORT_STEPS.checking);
      // The file is judged here, in the thread (the request only looked at the zip's directory):
      // a refused file fails the job with the same Spanish message, before any row is checked.
      const checked = async (rows: number) => {
        total = Math.max(0, rows - 1) || null;
        await ctx.progress(0, total, IMPORT_STEPS.reading);
      };
      async function* batches() {
        for await (const rows of readTemplateBatchesInThread(
          input!.file,
          input!.bytes,
          sheetOf(query),
          undefined,
          checked,
        )) {
          done += rows.length;
          await ctx.progress(done, total && Math.max(total, done), IMPORT_STEPS.reading);
          yield def.file.rows(rows, query);
        }
      }
      const result = await runImport(
        def,
        { db: ctx.app.ctx.handle.db, user: ctx.user, query, source: 'import' },
        batches(),
        (n) => ctx.progress(n, n, IMPORT_STEPS.saving(n)),
      );
      return { result };
    },
  });

  // Its rows and its one audit row are written in runImport's own transaction.
  const pipelineNote = `defineImport: todas las filas y una fila de auditoría (${def.audit}) en una transacción`;
  const upload = defineAction({
    method: 'POST',
    path: def.file.path,
    summary: `${def.file.summary}. Todo o nada, con reporte por fila; un archivo grande responde 202 con un trabajo (GET /api/jobs/:id)`,
    tags: def.tags,
    access,
    authorize: def.authorize,
    // Declared even when empty: the engine parses it (no raw parameters reach the hooks).
    query: def.query ?? NO_QUERY,
    audit: { pipeline: pipelineNote },
    rateLimit: 'upload',
    job: true,
    async handler({ app, request, reply, user, db, query }) {
      const q = query as Query;
      return withUploadedFile(request, IMPORT_UPLOAD, async (file) => {
        def.file.accept?.(file, q);
        const sheet = sheetOf(q);
        if (file.bytes >= app.ctx.config.importJobBytes) {
          // Only the bounded checks here (signature, zip directory, declared sizes: milliseconds),
          // so the 202 comes at once; the inflating check runs in the job, whose failure carries
          // the same Spanish message (issue 24: a 100,000-row file's 202 took ~5 s).
          await checkXlsxDirectory(file.file, file.bytes, sheetLimits(sheet));
          const row = await app.ctx.jobs.submit(user, job as JobDef<never>, { query: q }, file);
          reply.status(202);
          return jobView(row);
        }
        const batches = itemsOf(readTemplateBatches(file.file, file.bytes, sheet), (rows) =>
          def.file.rows(rows, q),
        );
        return runImport(def, { db, user, query: q, source: 'import' }, batches);
      });
    },
  });
  const actions: Action[] = [upload];

  const { template, batch } = def;
  if (template) {
    const { path, summary, filename, permission, ...spec } = template;
    actions.push(
      defineAction({
        method: 'GET',
        path,
        summary,
        tags: def.tags,
        access: { permission: permission ?? def.permission },
        download: true,
        raw: true,
        async handler({ reply }) {
          const headers = sheetOf({} as Query).headers;
          return sendXlsxBuffer(reply, filename, await templateBuffer({ ...spec, headers }));
        },
      }),
    );
  }
  if (batch) {
    actions.push(
      defineAction({
        method: batch.method ?? 'POST',
        path: batch.path,
        summary: batch.summary,
        tags: def.tags,
        access: batch.access ?? access,
        authorize: def.authorize,
        audit: { pipeline: pipelineNote },
        body: batch.body,
        result: importResultSchema,
        bodyLimit: batch.bodyLimit,
        async handler({ body, user, db }) {
          const ctx = { db, user: user as CurrentUser, query: {} as Query, source: batch.source ?? 'batch' };
          return runImport(def, ctx, once(batch.items(body as z.output<B>)));
        },
      }),
    );
  }

  return {
    actions,
    job,
    run: (ctx, items) => runImport(def, ctx, once(items)),
  };
}
