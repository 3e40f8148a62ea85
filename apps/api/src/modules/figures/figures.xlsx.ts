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
import type { FastifyReply } from 'fastify';
import type { Db } from '../../core/action';
import { defineImport } from '../../core/import';
import { sendXlsx } from '../../core/xlsx';
import type { XlsxLimits } from '../../core/xlsx-read';
import { assertPeriods, type Cell, type CellTable, readCells, writeCells } from './figures.cells';
import { periodStates } from './figures.periods';
import { activeConcepts, monthKey, scopedDealers } from './figures.scope';

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

/** A worksheet row: its cells in the order of GRID_COLUMNS. */
interface GridItem {
  number: number;
  values: unknown[];
}

interface FileRow {
  number: number;
  year: number;
  dealer: GridDealer;
  concept: ConceptRow;
  months: (number | null)[];
}

/** A changed cell to write, with the year and dealer it belongs to. */
interface GridChange {
  cell: Cell;
  year: number;
  dealer: GridDealer;
}

type Report = GridImportReport['report'];

/** The columns the upload reads, found by name in the header (the others are only shown). */
const GRID_COLUMNS = ['Año', 'Código concesionario', 'Código concepto', ...MONTH_SHORT];

/** A row as the file says it (year, dealer in scope, active concept, numbers), or its problems. */
function readRow(
  { number, values }: GridItem,
  dealersByCode: Map<string, GridDealer>,
  conceptsByCode: Map<string, ConceptRow>,
): FileRow | string[] {
  const [y, d, c, ...m] = values;
  const problems: string[] = [];
  const year = Number(y);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) problems.push(`Año "${y ?? ''}" no es válido`);
  const dealer = dealersByCode.get(norm(d));
  if (!dealer) problems.push(`El concesionario "${d ?? ''}" no existe o no le corresponde`);
  const concept = conceptsByCode.get(norm(c));
  if (!concept) problems.push(`El concepto "${c ?? ''}" no existe o no está habilitado`);
  const months = m.map((v, i) => {
    const n = parseNumber(v);
    if (n === undefined) problems.push(`${MONTH_SHORT[i]}: "${v}" no es un número`);
    return n ?? null;
  });
  return problems.length ? problems : { number, year, dealer: dealer!, concept: concept!, months };
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * The upload of an exported grid (figures or fees), declared on the engine (core/import.ts): only
 * the cells that differ from what is stored are written (for figures, in an enabled month), all
 * in one transaction with the audit row, or none, with a report per row.
 */
export function defineGridImport(
  table: CellTable,
  head: {
    kind: string;
    title: string;
    name: string;
    link: string;
    tags: string[];
    permission: string;
    path: string;
    summary: string;
  },
  authorize?: Parameters<typeof defineImport>[0]['authorize'],
) {
  return defineImport({
    ...head,
    authorize,
    audit: TITLES[table].resource,
    file: {
      path: head.path,
      summary: head.summary,
      sheet: {
        headers: GRID_COLUMNS,
        columns: 'by-name',
        headerError: `El archivo no tiene las columnas de la plantilla. La primera fila debe ser: ${[...FIXED, ...MONTH_SHORT].join(', ')}`,
        noRows: 'El archivo no tiene filas debajo de los encabezados',
        maxRows: LIMITS.maxRows - 1,
        limits: LIMITS,
      },
      rows: (rows): GridItem[] => rows,
    },
    // The rows may name any dealer of the run's scope (the upload declares no dealer: the caller's).
    async check({ db, scope }, batches) {
      const [dealers, concepts] = await Promise.all([scopedDealers(db, scope), activeConcepts(db)]);
      const dealersByCode = new Map(dealers.map((d) => [norm(d.code), d]));
      const conceptsByCode = new Map(concepts.map((c) => [norm(c.code), c]));
      const rows: FileRow[] = [];
      const report: Report = [];
      for await (const batch of batches)
        for (const item of batch) {
          const r = readRow(item, dealersByCode, conceptsByCode);
          if (Array.isArray(r)) report.push({ row: item.number, ok: false, message: r.join('; ') });
          else rows.push(r);
        }
      const first = rows[0]?.year;
      for (const r of rows.filter((x) => x.year !== first))
        report.push({ row: r.number, ok: false, message: `Todas las filas deben ser del año ${first}` });
      const total = rows.length + report.length;
      const year = first ?? 0;
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
              (await periodStates(db, year, ids, null)).map((p) => [
                monthKey(p.dealer_id, p.month),
                p.status,
              ]),
            )
          : null;
      const changes: GridChange[] = [];
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
          else
            changes.push({
              cell: { dealer_id: r.dealer.id, concept_id: r.concept.id, month, value },
              year,
              dealer: r.dealer,
            });
          changedPerRow.set(r.number, (changedPerRow.get(r.number) ?? 0) + 1);
        });
        if (problems.length) report.push({ row: r.number, ok: false, message: problems.join('; ') });
      }
      const failed = report.filter((x) => !x.ok).length;
      const wrongRows = new Set(report.map((x) => x.row));
      const okRows = rows
        .filter((r) => !wrongRows.has(r.number))
        .map((r) => ({
          row: r.number,
          ok: true,
          message: changedPerRow.get(r.number) ? `${changedPerRow.get(r.number)} cambio(s)` : 'Sin cambios',
        }));
      const fullReport = [...report, ...okRows].sort((a, b) => a.row - b.row);
      if (failed) return { report: fullReport, valid: [], failed, total, answer: { skipped: 0 } };
      return {
        report: fullReport,
        valid: changes,
        failed: 0,
        total,
        answer: { skipped: rows.length - changedPerRow.size },
      };
    },
    async save(tx, changes, { user, source }) {
      const year = changes[0].year;
      const cells = changes.map((c) => c.cell);
      const byDealer = new Map(changes.map((c) => [c.dealer.id, c.dealer]));
      if (table === 'figures') await assertPeriods(tx, year, cells, byDealer, ['enabled']);
      await writeCells(tx, table, year, cells, user.id, source);
      return { audit: { year, cells: cells.length, dealers: byDealer.size } };
    },
  });
}
