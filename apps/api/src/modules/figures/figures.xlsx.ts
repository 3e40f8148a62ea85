// The figures and fees grids as .xlsx, and the upload of that same file. One row per dealer ×
// concept with the twelve months as columns (what the grid shows); the upload applies only the
// cells that differ from what is stored, checks every row first (dealer in the caller's scope,
// active concept, numbers, and for figures an enabled month for each change) and writes all the
// changes in one transaction, or nothing, with a report per row.
import {
  CONCEPT_UNITS,
  type ConceptRow,
  conceptExcelFormat,
  conceptValueError,
  type GridDealer,
  type GridImportReport,
  MONTH_SHORT,
  QUERY_LABELS,
} from '@app/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../core/action';
import { writeAudit } from '../../core/audit';
import type { CurrentUser } from '../../core/context';
import { BadRequestError } from '../../core/errors';
import { withUploadedFile } from '../../core/upload';
import { sendXlsx } from '../../core/xlsx';
import {
  checkXlsxArchive,
  readSheetRows,
  XLSX_MESSAGES,
  XLSX_UPLOAD_BYTES,
  type XlsxLimits,
} from '../../core/xlsx-read';
import { assertPeriods, type Cell, type CellTable, readCells, writeCells } from './figures.cells';
import { periodStates } from './figures.periods';
import { activeConcepts, dealersInScope, monthKey } from './figures.scope';

const FIXED = ['Año', 'Código concesionario', QUERY_LABELS.dealer, 'Código concepto', 'Concepto', 'Unidad'];
const LIMITS: XlsxLimits = { maxRows: 50_000, maxColumns: 40, readBudgetMs: 60_000 };
const unitName = new Map<string, string>(CONCEPT_UNITS.map((u) => [u.id, u.name]));

const TITLES: Record<CellTable, { file: string; resource: string }> = {
  figures: { file: 'Cifras', resource: 'figure-values' },
  fees: { file: 'Cuotas', resource: 'fee-values' },
};

/** The grid of `year` for these dealers as an .xlsx download. */
export async function sendGridXlsx(
  reply: FastifyReply,
  db: Db,
  table: CellTable,
  year: number,
  dealers: GridDealer[],
): Promise<FastifyReply> {
  const [list, values] = await Promise.all([
    activeConcepts(db),
    readCells(
      db,
      table,
      year,
      dealers.map((d) => d.id),
      null,
    ),
  ]);
  const byCell = new Map(values.map((v) => [`${v.dealer_id}:${v.concept_id}:${v.month}`, v.value]));
  const columns = [...FIXED, ...MONTH_SHORT].map((header, i) => ({
    key: `c${i}`,
    header,
    width: i === 2 || i === 4 ? 32 : i < FIXED.length ? 14 : 11,
  }));
  const formats = new Map(list.map((c) => [c.code, conceptExcelFormat(c.unit, c.decimals)]));
  function* rows() {
    for (const d of dealers) {
      yield list.map((c) => {
        const row: Record<string, unknown> = {
          c0: year,
          c1: d.code,
          c2: d.name,
          c3: c.code,
          c4: c.name,
          c5: unitName.get(c.unit ?? '') ?? c.unit,
        };
        for (let m = 1; m <= 12; m++)
          row[`c${FIXED.length + m - 1}`] = byCell.get(`${d.id}:${c.id}:${m}`) ?? null;
        return row;
      });
    }
  }
  const who = dealers.length === 1 ? `_${dealers[0].code}` : '';
  return sendXlsx(reply, {
    filename: `${TITLES[table].file}_${year}${who}.xlsx`,
    sheetName: `${TITLES[table].file} ${year}`,
    columns,
    rows: rows(),
    // Each concept's cells read as in its grid: 'S/ 14.00', '85.0 %', '1,250'.
    cellFormat: (row, key) =>
      Number(key.slice(1)) >= FIXED.length ? formats.get(String(row.c3)) : undefined,
  });
}

const norm = (v: unknown) =>
  String(v ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();
const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A cell as a number: Excel numbers as they are, text in the es-PE way ('1,234.50'). */
function parseNumber(v: unknown): number | null | undefined {
  if (blank(v)) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  const text = String(v)
    .replace(/\s|S\/|%/g, '')
    .replace(/,/g, '');
  if (!/^-?\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

interface FileRow {
  number: number;
  year: number;
  dealer: GridDealer;
  concept: ConceptRow;
  months: (number | null)[];
}

/** Reads and checks the uploaded grid; answers the rows or the report of what is wrong. */
async function readGridFile(
  file: string,
  bytes: number,
  dealersByCode: Map<string, GridDealer>,
  conceptsByCode: Map<string, ConceptRow>,
): Promise<{ rows: FileRow[]; report: GridImportReport['report'] }> {
  await checkXlsxArchive(file, bytes, LIMITS);
  let header: number[] | null = null;
  const rows: FileRow[] = [];
  const report: GridImportReport['report'] = [];
  for await (const r of readSheetRows(file, LIMITS)) {
    if (!header) {
      const names = r.values.map(norm);
      const at = (h: string) => names.indexOf(norm(h));
      header = [at('Año'), at('Código concesionario'), at('Código concepto'), ...MONTH_SHORT.map(at)];
      if (header.some((i) => i < 0))
        throw new BadRequestError(
          `El archivo no tiene las columnas de la plantilla. La primera fila debe ser: ${[...FIXED, ...MONTH_SHORT].join(', ')}`,
        );
      continue;
    }
    if (r.values.every(blank)) continue;
    const [yi, di, ci, ...mi] = header;
    const problems: string[] = [];
    const year = Number(r.values[yi]);
    if (!Number.isInteger(year) || year < 2000 || year > 2100)
      problems.push(`Año "${r.values[yi] ?? ''}" no es válido`);
    const dealer = dealersByCode.get(norm(r.values[di]));
    if (!dealer) problems.push(`El concesionario "${r.values[di] ?? ''}" no existe o no le corresponde`);
    const concept = conceptsByCode.get(norm(r.values[ci]));
    if (!concept) problems.push(`El concepto "${r.values[ci] ?? ''}" no existe o no está habilitado`);
    const months = mi.map((i, m) => {
      const n = parseNumber(r.values[i]);
      if (n === undefined) problems.push(`${MONTH_SHORT[m]}: "${r.values[i]}" no es un número`);
      return n ?? null;
    });
    if (problems.length) report.push({ row: r.number, ok: false, message: problems.join('; ') });
    else rows.push({ number: r.number, year, dealer: dealer!, concept: concept!, months });
  }
  if (!header) throw new BadRequestError(XLSX_MESSAGES.empty);
  const years = new Set(rows.map((r) => r.year));
  if (years.size > 1) {
    const first = rows[0].year;
    for (const r of rows.filter((x) => x.year !== first))
      report.push({ row: r.number, ok: false, message: `Todas las filas deben ser del año ${first}` });
  }
  return { rows, report };
}

export const GRID_UPLOAD = {
  field: 'file',
  maxBytes: XLSX_UPLOAD_BYTES,
  accept: /\.xlsx$/i,
  messages: {
    noFile: XLSX_MESSAGES.noFile,
    wrongType: XLSX_MESSAGES.notXlsx,
    tooLarge: XLSX_MESSAGES.tooLarge,
  },
};

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The upload of an exported grid: all changed cells or none, with a report per row. */
export async function importGridFile(
  request: FastifyRequest,
  db: Db,
  user: CurrentUser,
  table: CellTable,
): Promise<GridImportReport> {
  const [dealers, concepts] = await Promise.all([dealersInScope(db, user), activeConcepts(db)]);
  const dealersByCode = new Map(dealers.map((d) => [norm(d.code), d]));
  const conceptsByCode = new Map(concepts.map((c) => [norm(c.code), c]));
  const { rows, report } = await withUploadedFile(request, GRID_UPLOAD, (u) =>
    readGridFile(u.file, u.bytes, dealersByCode, conceptsByCode),
  );
  const total = rows.length + report.length;
  if (!total) throw new BadRequestError('El archivo no tiene filas debajo de los encabezados');
  const year = rows[0]?.year ?? 0;
  const ids = [...new Set(rows.map((r) => r.dealer.id))];
  const stored = new Map(
    (await readCells(db, table, year, ids, null)).map((v) => [
      `${v.dealer_id}:${v.concept_id}:${v.month}`,
      v.value,
    ]),
  );
  const states =
    table === 'figures'
      ? new Map(
          (await periodStates(db, year, ids, null)).map((p) => [monthKey(p.dealer_id, p.month), p.status]),
        )
      : null;
  const cells: Cell[] = [];
  const changedPerRow = new Map<number, number>();
  for (const r of rows) {
    const problems: string[] = [];
    r.months.forEach((value, i) => {
      const month = i + 1;
      const before = stored.get(`${r.dealer.id}:${r.concept.id}:${month}`);
      const same =
        value === null ? before === undefined : before !== undefined && round2(before) === round2(value);
      if (same) return;
      const status = states?.get(monthKey(r.dealer.id, month));
      const wrong = conceptValueError(r.concept, value);
      if (wrong) problems.push(`${MONTH_SHORT[i]}: ${wrong} (se ingresó ${value})`);
      else if (states && status !== 'enabled')
        problems.push(
          `${MONTH_SHORT[i]}: el periodo está ${status === 'confirmed' ? 'confirmado' : 'cerrado'}, no se puede cambiar`,
        );
      else cells.push({ dealer_id: r.dealer.id, concept_id: r.concept.id, month, value });
      changedPerRow.set(r.number, (changedPerRow.get(r.number) ?? 0) + 1);
    });
    if (problems.length) report.push({ row: r.number, ok: false, message: problems.join('; ') });
  }
  const failed = report.filter((x) => !x.ok).length;
  const okRows = rows
    .filter((r) => !report.some((x) => x.row === r.number))
    .map((r) => ({
      row: r.number,
      ok: true,
      message: changedPerRow.get(r.number) ? `${changedPerRow.get(r.number)} cambio(s)` : 'Sin cambios',
    }));
  const fullReport = [...report, ...okRows].sort((a, b) => a.row - b.row);
  if (failed) return { saved: 0, total, failed, skipped: 0, report: fullReport };
  if (cells.length) {
    await db.transaction(async (tx) => {
      const byDealer = new Map(dealers.map((d) => [d.id, d]));
      if (table === 'figures') await assertPeriods(tx, year, cells, byDealer, ['enabled']);
      await writeCells(tx, table, year, cells, user.id, 'import');
      await writeAudit(tx, {
        user,
        resource: TITLES[table].resource,
        recordId: null,
        action: 'import',
        after: { year, cells: cells.length, dealers: new Set(cells.map((c) => c.dealer_id)).size },
      });
    });
  }
  return {
    saved: cells.length,
    total,
    failed: 0,
    skipped: rows.length - changedPerRow.size,
    report: fullReport,
  };
}
