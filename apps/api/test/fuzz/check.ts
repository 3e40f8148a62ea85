// What the fuzzer checks on every answer, and the state it compares around refused calls:
// no 5xx; an error is the envelope with a message and shows no stack, SQL or file path (the
// request's own text echoed back does not count); a refused write leaves every table as it was
// (row count and newest row version, xmin, of each table).
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { DatabaseHandle } from '../../src/db/client';
import * as tables from '../../src/modules/tables';

/**
 * Tables a refused call may write by design (the failed login is counted, the limits count), and
 * catalogue_versions, which a trigger moves with every write to a catalogue: that write shows in
 * the catalogue's own fingerprint.
 */
const WRITTEN_WHEN_REFUSED = new Set(['login_attempts', 'rate_limit_hits', 'catalogue_versions']);

const TABLES = (Object.values(tables) as unknown[])
  .filter((t): t is PgTable => is(t, PgTable))
  .map((t) => getTableName(t))
  .filter((name) => !WRITTEN_WHEN_REFUSED.has(name))
  .sort();

// One statement: the row count and the highest row version of every table. An insert or a
// delete changes the count, an update the highest xmin; a rolled-back write changes neither.
const FINGERPRINT_SQL = TABLES.map(
  (name) =>
    `select '${name}' as t, count(*)::int as n, coalesce(max(xmin::text::bigint), 0)::text as x from "${name}"`,
).join(' union all ');

export type Fingerprint = Map<string, string>;

export async function fingerprint(handle: DatabaseHandle): Promise<Fingerprint> {
  const rows = await handle.query<{ t: string; n: number; x: string }>(FINGERPRINT_SQL);
  return new Map(rows.map((r) => [r.t, `${r.n} filas, xmin ${r.x}`]));
}

/**
 * The next transaction id the server will hand out: it moves only when some transaction writes
 * (or locks rows), so an unchanged value proves that nothing was written in between.
 */
export async function nextXid(handle: DatabaseHandle): Promise<string> {
  const [row] = await handle.query<{ x: string }>(
    'select pg_snapshot_xmax(pg_current_snapshot())::text as x',
  );
  return row.x;
}

/** The tables whose fingerprint changed, as "table: before → after". */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const out: string[] = [];
  for (const [t, v] of before) if (after.get(t) !== v) out.push(`${t}: ${v} → ${after.get(t)}`);
  return out;
}

/** What an error answer must never show: a stack frame, a file path, SQL, a driver's words. */
export const LEAK =
  /\bat \S+ \(|\bat .+:\d+:\d+|node_modules|\/src\/|\/work\/|\/home\/|\/tmp\/|\.(?:ts|js|mjs|cjs):\d+|\bselect\b[\s\S]{0,200}\bfrom\b|\binsert into\b|\bdelete from\b|\bupdate \\?"?\w+\\?"? set\b|syntax error|relation \\?"|violates|duplicate key|failed query|ECONN|\bpg_\w+/i;

/** English words an error message should not carry (a framework's text that escaped). */
export const ENGLISH = /\b(the|is not|invalid|failed|cannot|unexpected|must be|expected|required|error:)\b/i;

/** The error text with the request's own strings taken out (an echo is not a leak). */
export function leakIn(errorText: string, echo: string[]): string | undefined {
  let text = errorText;
  for (const s of [...echo].sort((a, b) => b.length - a.length))
    if (s.length >= 3) {
      text = text.split(s).join('·');
      const json = JSON.stringify(s).slice(1, -1);
      if (json !== s) text = text.split(json).join('·');
    }
  return LEAK.exec(text)?.[0];
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** The problems of one answer (empty when it is fine). */
export function answerProblems(res: Answer, echo: string[]): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`respondió ${res.status}`);
  if (res.status < 400) return problems;
  if (!res.contentType.startsWith('application/json')) {
    problems.push(`error ${res.status} sin JSON (${res.contentType})`);
    return problems;
  }
  let parsed: { success?: unknown; error?: { message?: unknown } } | undefined;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    problems.push(`error ${res.status} con JSON roto`);
    return problems;
  }
  if (parsed?.success !== false) problems.push(`error ${res.status} sin sobre {success:false}`);
  const message = parsed?.error?.message;
  if (typeof message !== 'string' || message.trim() === '') problems.push(`error ${res.status} sin mensaje`);
  const leak = leakIn(JSON.stringify(parsed?.error ?? {}), echo);
  if (leak) problems.push(`error ${res.status} muestra "${leak}": ${String(message).slice(0, 160)}`);
  return problems;
}
