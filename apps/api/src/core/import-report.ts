// The per-row report of every import and batch (sales, objectives, daily sales, workshop,
// figures, fees, the external pulls) is bounded here, in one place, before it is answered: a
// value quoted in a message is cut to a short excerpt, a message to a few hundred characters,
// a row to a few messages, and the report to REPORT_MAX_ERROR_ROWS rows with errors, with a
// line saying how many more there are. The counts (total, failed) still cover every row.

/** Characters of a value shown in a message. */
export const REPORT_EXCERPT_CHARS = 60;
/** Characters of one message. */
export const REPORT_MESSAGE_CHARS = 300;
/** Messages of one row. */
export const REPORT_MESSAGES_PER_ROW = 20;
/** Rows with errors listed; the rest are counted in `omitted`. */
export const REPORT_MAX_ERROR_ROWS = 200;

/** A value as a message shows it: at most REPORT_EXCERPT_CHARS characters, then '…'. */
export function excerpt(value: unknown, max = REPORT_EXCERPT_CHARS): string {
  const s = typeof value === 'string' ? value : String(value ?? '');
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A quoted value ("…") longer than the excerpt is cut to it; a message past its maximum too. */
export function boundMessage(message: string): string {
  if (message.length <= REPORT_EXCERPT_CHARS + 2) return message;
  const quoted = message.replace(/"([^"]*)"/g, (whole, inner: string) =>
    inner.length > REPORT_EXCERPT_CHARS ? `"${excerpt(inner)}"` : whole,
  );
  return excerpt(quoted, REPORT_MESSAGE_CHARS);
}

function boundMessages(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  const out = list
    .slice(0, REPORT_MESSAGES_PER_ROW)
    .map((m) => (typeof m === 'string' ? boundMessage(m) : m));
  if (list.length > REPORT_MESSAGES_PER_ROW)
    out.push(`... y ${list.length - REPORT_MESSAGES_PER_ROW} errores mas en esta fila`);
  return out;
}

export const omittedLine = (n: number) =>
  `Hay ${n} filas mas con errores que no se muestran: corrija las mostradas y vuelva a cargar el archivo para ver las siguientes`;

interface ReportLike {
  report: Record<string, unknown>[];
  omitted?: number;
  note?: string;
}

const isReport = (v: unknown): v is ReportLike =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Array.isArray((v as { report?: unknown }).report) &&
  typeof (v as { failed?: unknown }).failed === 'number';

/**
 * An import answer ({saved, total, failed, report}) with its report bounded; anything else as
 * it is. Entries keep their shape (row, ok, errors / message, warnings, vin); rows with errors
 * past REPORT_MAX_ERROR_ROWS are left out and counted in `omitted`, with `note` saying so.
 */
export function boundReport<T>(result: T): T {
  if (!isReport(result)) return result;
  let errorRows = 0;
  let omitted = 0;
  const report: Record<string, unknown>[] = [];
  for (const entry of result.report) {
    if (!entry || typeof entry !== 'object') continue;
    if (entry.ok === false && ++errorRows > REPORT_MAX_ERROR_ROWS) {
      omitted++;
      continue;
    }
    const e: Record<string, unknown> = { ...entry };
    if ('errors' in e) e.errors = boundMessages(e.errors);
    if ('warnings' in e) e.warnings = boundMessages(e.warnings);
    if (typeof e.message === 'string') e.message = boundMessage(e.message);
    if (typeof e.vin === 'string') e.vin = excerpt(e.vin, 40);
    report.push(e);
  }
  if (!omitted) return { ...result, report };
  return { ...result, report, omitted, note: omittedLine(omitted) };
}
