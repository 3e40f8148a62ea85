// A report is declared once: its query schema (contracts/query: period, dealer, brand...), how its
// data is loaded, and one column list (labels, types: count, number, money 'S/', percentage, date;
// which columns total). defineReport() gives the JSON call and its `/export` .xlsx from it; both are
// actions, so the permission, the parsed query with Lima's defaults and the dealer scope (a dealer
// user's own dealer, another's id 404) come from the engine, as do the /api/docs entries.
import type { z } from 'zod';
import { type Action, type ActionContext, defineAction } from './action';
import { queryScope, type Scope } from './scope';
import {
  contentDisposition,
  dateCell,
  exportFileName,
  NUM_FMT,
  type ReportCellType,
  type ReportColumn,
  streamToBuffer,
  XLSX_TYPE,
  xlsxReportStream,
  xlsxStream,
} from './xlsx';

export interface ReportColumnDef<R> {
  key: string;
  /** The header (a contract's label where there is one, e.g. QUERY_LABELS.dealer). */
  label: string;
  type?: ReportCellType;
  /** Summed into the totals row of the file. */
  total?: boolean;
  width?: number;
  /** The cell's value from the row (default: row[key]). */
  value?: (row: R) => unknown;
}

/** The file's frame: its name, sheet, and (for a titled report) the header block and totals. */
export interface ReportFile {
  filename: string;
  sheetName: string;
  /** A titled report: title, info lines and "Generado" above the table; without it, the table alone. */
  title?: string;
  info?: [string, string | number][];
  totalsLabel?: string;
  totalsFrom?: (sums: Record<string, number>) => Record<string, unknown>;
  freezeColumns?: number;
}

type Ctx<Q extends z.ZodType> = Pick<
  ActionContext<undefined, never, z.output<Q>>,
  'db' | 'query' | 'scope'
> & {
  user: ActionContext<undefined>['user'];
};

export interface ReportDef<Q extends z.ZodType, D, R> {
  /** The JSON call; the file is served at `${path}/export` unless `exportPath` says otherwise. */
  path: string;
  exportPath?: string;
  summary: string;
  exportSummary: string;
  tags: string[];
  /** The permission of the JSON call; the file's defaults to the same with `.export` for `.view`. */
  permission: string;
  exportPermission?: string;
  query: Q;
  /** The JSON answer's schema (its call contract's result), shown in /api/docs. */
  result?: z.ZodType;
  /**
   * The report's data for the parsed query; `scope` is the dealer scope to read with (a dealer
   * user's own dealer, else the dealer asked for, else every dealer).
   */
  load(ctx: Ctx<Q>): Promise<D>;
  /** The JSON answer (default: the data as loaded). */
  answer?(data: D, ctx: Ctx<Q>): unknown;
  /** The file's rows. */
  rows(data: D, ctx: Ctx<Q>): R[];
  columns: ReportColumnDef<R>[] | ((data: D, ctx: Ctx<Q>) => ReportColumnDef<R>[]);
  file(data: D, ctx: Ctx<Q>): ReportFile | Promise<ReportFile>;
  /**
   * A cell's Excel format by its row, when a column mixes units (a concept in soles, another in
   * %): 'S/ 14.00' as the screen shows it. Undefined: the column's type's format. Plain tables only.
   */
  cellFormat?(row: R, key: string): string | undefined;
}

/** What the registry knows of a declared report (the registry test reads it). */
export interface ReportInfo {
  path: string;
  exportPath: string;
}

export type ReportAction = Action & { report?: ReportInfo };

/**
 * What a report's context needs outside a request (a scheduled mail): the database, a user, the
 * query; the scope, when not given, is the query's (its dealer_id, held to a dealer user's own).
 */
export type ReportContext<Q extends z.ZodType> = Omit<Ctx<Q>, 'scope'> & { scope?: Scope };

/**
 * The JSON call and the export of a declaration, plus the same file in memory for a context made
 * outside a request (a scheduled mail attaches it): one column list, one file frame, for both.
 */
export type ReportActions<Q extends z.ZodType, D> = [Action, Action] & {
  /** The file in memory, with the data it was made of (loaded once). */
  xlsx(ctx: ReportContext<Q>): Promise<{ filename: string; content: Buffer; data: D }>;
};

/** The column of a file from its declaration. */
function fileColumn<R>(c: ReportColumnDef<R>): ReportColumn {
  return { key: c.key, header: c.label, type: c.type, total: c.total, width: c.width };
}

/** The file of a declaration for a context: its name and its workbook as a stream. */
async function reportFile<Q extends z.ZodType, D, R>(
  def: ReportDef<Q, D, R>,
  c: Ctx<Q>,
  log: (err: unknown) => void,
) {
  const data = await def.load(c);
  const declared = typeof def.columns === 'function' ? def.columns(data, c) : def.columns;
  const frame = await def.file(data, c);
  const source = def.rows(data, c);
  const rows = source.map((r) =>
    Object.fromEntries(
      declared.map((col) => [col.key, col.value ? col.value(r) : (r as Record<string, unknown>)[col.key]]),
    ),
  );
  const columns = declared.map(fileColumn);
  const origin = new Map(rows.map((row, i) => [row, source[i]]));
  const cellFormat = def.cellFormat;
  const stream =
    frame.title !== undefined
      ? await xlsxReportStream(
          { ...frame, title: frame.title, info: frame.info ?? [], columns, rows: [rows] },
          log,
        )
      : await xlsxStream(
          {
            filename: frame.filename,
            sheetName: frame.sheetName,
            columns: columns.map((col) => typedColumn(col)),
            rows: [rows],
            cellFormat: cellFormat
              ? (row, key) => {
                  const from = origin.get(row);
                  return from === undefined ? undefined : cellFormat(from, key);
                }
              : undefined,
          },
          log,
        );
  return { filename: exportFileName(frame.filename), stream, data };
}

/** The JSON call and its .xlsx export of one report declaration. */
export function defineReport<Q extends z.ZodType, D, R>(def: ReportDef<Q, D, R>): ReportActions<Q, D> {
  const exportPath = def.exportPath ?? `${def.path}/export`;
  const info: ReportInfo = { path: def.path, exportPath };
  const json = defineAction({
    method: 'GET',
    path: def.path,
    summary: def.summary,
    tags: def.tags,
    access: { permission: def.permission },
    query: def.query,
    result: def.result,
    async handler(ctx) {
      const c = ctx as unknown as Ctx<Q>;
      const data = await def.load(c);
      return def.answer ? def.answer(data, c) : data;
    },
  }) as ReportAction;
  const file = defineAction({
    method: 'GET',
    path: exportPath,
    summary: def.exportSummary,
    tags: def.tags,
    access: { permission: def.exportPermission ?? def.permission.replace(/\.view$/, '.export') },
    query: def.query,
    download: true,
    raw: true,
    async handler(ctx) {
      const { filename, stream } = await reportFile(def, ctx as unknown as Ctx<Q>, (err) =>
        ctx.reply.log.error({ err }, 'reporte xlsx interrumpido'),
      );
      return ctx.reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(filename))
        .send(stream);
    },
  }) as ReportAction;
  json.report = info;
  file.report = info;
  const actions = [json, file] as ReportActions<Q, D>;
  actions.xlsx = async (given) => {
    const c: Ctx<Q> = { ...given, scope: given.scope ?? queryScope(given.user, given.query) };
    let failed: unknown;
    const { filename, stream, data } = await reportFile(def, c, (err) => {
      failed = err;
    });
    const content = await streamToBuffer(stream);
    if (failed) throw failed;
    return { filename, content, data };
  };
  return actions;
}

/** A plain table's column with the number format and cell of its type. */
function typedColumn(c: ReportColumn) {
  const type = c.type ?? 'text';
  return {
    key: c.key,
    header: c.header,
    width: c.width,
    numFmt: NUM_FMT[type],
    cell: (v: unknown) =>
      type === 'percent' && typeof v === 'number' ? v / 100 : type === 'date' ? dateCell(v) : v,
  };
}
