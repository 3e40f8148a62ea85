// Objectives per dealer, brand and month: from JSON rows (one month each) or from the uploaded
// Formato_Objetivos.xlsx (a row per dealer, brand and year, a column per month). Every row is
// checked here; the engine (core/import.ts) writes them all (insert or replace) in one transaction
// with its audit row, or none, with the report per row.
import {
  DISPATCH_FILES,
  dispatchCalls,
  type ImportReportEntry,
  MONTH_SHORT,
  OBJECTIVES_TEMPLATE_HEADERS,
  type ObjectiveRowInput,
  objectivesBatchSchema,
  QUERY_LABELS,
} from '@app/contracts';
import { sql } from 'drizzle-orm';
import { defineImport, type ImportRunContext } from '../../core/import';
import { text, up } from '../../core/import-kit';
import type { SheetRow } from '../../core/xlsx-read';
import { type Lookups, loadLookups } from './dispatches.lookups';
import { dispatchObjectives } from './dispatches.tables';

type NewObjective = typeof dispatchObjectives.$inferInsert;

/** One objective to check: the report row it belongs to, and (from the file) its month's name. */
interface ObjectiveCell {
  row: number;
  label?: string;
  data: ObjectiveRowInput;
}

const intIn = (v: unknown, min: number, max: number): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
};

/** Checks the cells, grouped by report row; answers the report and the objectives to write. */
function checkObjectives(
  cells: ObjectiveCell[],
  l: Lookups,
  foreignDealer: ImportRunContext['foreignDealer'],
) {
  const report = new Map<number, ImportReportEntry>();
  const valid: NewObjective[] = [];
  const firstRow = new Map<string, number>();
  let failed = 0;
  for (const { row, label, data } of cells) {
    const entry = report.get(row) ?? { row, ok: true, errors: [] };
    report.set(row, entry);
    const errors: string[] = [];
    const at = label ? `${label}: ` : '';
    const dealerCode = text(data.dealer_code);
    const dealer = data.dealer_id
      ? l.dealersById.get(data.dealer_id)
      : dealerCode
        ? l.dealersByCode.get(up(dealerCode))
        : undefined;
    if (!data.dealer_id && !dealerCode) errors.push('Concesionario es obligatorio');
    else if (!dealer) errors.push(`Concesionario "${dealerCode ?? data.dealer_id}" no existe`);
    else {
      const own = foreignDealer(dealer);
      if (own) errors.push(own);
    }
    const brandRaw = text(data.brand);
    const brand = data.manufacturer_id
      ? l.brandsById.get(data.manufacturer_id)
      : brandRaw
        ? l.brands.get(up(brandRaw))
        : undefined;
    if (!data.manufacturer_id && !brandRaw) errors.push('Marca es obligatorio');
    else if (!brand) errors.push(`Marca "${brandRaw ?? data.manufacturer_id}" no existe`);
    const year = intIn(data.year, 2016, 2100);
    if (data.year === undefined || data.year === null || data.year === '') errors.push('Año es obligatorio');
    else if (year === undefined) errors.push(`Año "${data.year}" no es válido (2016 a 2100)`);
    const month = intIn(data.month, 1, 12);
    if (month === undefined) errors.push(`Mes "${data.month ?? ''}" no es válido (1 a 12)`);
    const units = intIn(data.units, 0, 100_000);
    if (data.units === undefined || data.units === null || data.units === '')
      errors.push(`${at}Objetivo es obligatorio`);
    else if (units === undefined)
      errors.push(`${at}Objetivo "${data.units}" no es válido (entero de 0 a 100000)`);
    if (!errors.length) {
      const key = `${dealer!.id}|${brand!.id}|${year}|${month}`;
      const first = firstRow.get(key);
      if (first !== undefined && first !== row)
        errors.push(`${at}Objetivo repetido: ya figura en la fila ${first}`);
      else if (first !== undefined) errors.push(`${at}Objetivo repetido en la misma fila`);
      else firstRow.set(key, row);
    }
    if (errors.length) {
      // Several cells of one file row share an entry: the header errors once.
      for (const e of errors) if (!entry.errors.includes(e)) entry.errors.push(e);
      if (entry.ok) failed++;
      entry.ok = false;
      continue;
    }
    valid.push({
      dealer_id: dealer!.id,
      manufacturer_id: brand!.id,
      year: year!,
      month: month!,
      units: units!,
    });
  }
  return { report: [...report.values()], valid, failed };
}

/** JSON rows: one objective each, numbered from 1. */
const cellsFromRows = (rows: ObjectiveRowInput[]): ObjectiveCell[] =>
  rows.map((data, i) => ({ row: i + 1, data }));

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A file row (Concesionario, Marca, Año, Ene..Dic): one cell per filled month; a row without any month is wrong. */
function cellsFromSheet(rows: SheetRow[]): ObjectiveCell[] {
  const out: ObjectiveCell[] = [];
  for (const { number, values } of rows) {
    const [dealer, brand, year] = values;
    const head = { dealer_code: text(dealer) ?? undefined, brand: text(brand) ?? undefined, year };
    let any = false;
    MONTH_SHORT.forEach((label, i) => {
      const v = values[3 + i];
      if (blank(v)) return;
      any = true;
      out.push({ row: number, label, data: { ...head, month: i + 1, units: v } });
    });
    if (!any) out.push({ row: number, data: { ...head, month: 1, units: undefined } });
  }
  return out;
}

export const objectivesImport = defineImport({
  kind: 'objectives-import',
  title: 'Carga de objetivos',
  name: 'Objetivos',
  link: '/main/dispatches',
  tags: ['Despachos'],
  permission: 'Transactions.store',
  audit: 'dispatches-objectives',
  file: {
    path: dispatchCalls.objectivesImport.path,
    summary: 'Objetivos desde Formato_Objetivos.xlsx (campo file)',
    sheet: {
      headers: OBJECTIVES_TEMPLATE_HEADERS,
      noRows: 'El archivo no tiene filas de objetivos debajo de los encabezados',
      maxRows: 20_000,
    },
    rows: cellsFromSheet,
  },
  template: {
    path: dispatchCalls.objectivesTemplate.path,
    summary: 'Plantilla vacía Formato_Objetivos.xlsx',
    permission: 'Transactions.view',
    filename: DISPATCH_FILES.objectivesTemplate,
    sheetName: 'Objetivos',
    widths: Object.fromEntries(MONTH_SHORT.map((m) => [m, 9])),
    help: [
      [QUERY_LABELS.dealer, 'Código del concesionario (por ejemplo LIM01)'],
      ['Marca', 'Código o nombre de la marca: V, N, S, A'],
      ['Año', 'Año de los objetivos (2016 en adelante)'],
      ['Ene ... Dic', 'Unidades objetivo del mes (entero de 0 a 100000); una celda vacía no cambia ese mes'],
      ['Reglas', 'Si alguna fila tiene errores no se guarda ninguna; un objetivo ya cargado se reemplaza'],
    ],
  },
  batch: {
    path: dispatchCalls.objectivesBatch.path,
    summary: 'Objetivos por concesionario, marca y mes como JSON {rows}; todo o nada, con reporte por fila',
    body: objectivesBatchSchema,
    items: (body) => cellsFromRows(body.rows),
  },
  async check({ db, foreignDealer }, batches) {
    const cells: ObjectiveCell[] = [];
    // One push per cell, not a spread of a whole batch (too many arguments for the stack).
    for await (const batch of batches) for (const cell of batch) cells.push(cell);
    return checkObjectives(cells, await loadLookups(db), foreignDealer);
  },
  // An objective already loaded (dealer, brand, month) is replaced.
  async save(tx, valid) {
    for (let i = 0; i < valid.length; i += 5000) {
      await tx
        .insert(dispatchObjectives)
        .values(valid.slice(i, i + 5000))
        .onConflictDoUpdate({
          target: [
            dispatchObjectives.dealer_id,
            dispatchObjectives.manufacturer_id,
            dispatchObjectives.year,
            dispatchObjectives.month,
          ],
          set: { units: sql`excluded.units`, updated_at: sql`now()` },
        });
    }
    return { audit: { dealers: new Set(valid.map((v) => v.dealer_id)).size } };
  },
});
