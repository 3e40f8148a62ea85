// The workshop import, declared on the engine (core/import.ts): rows from the template (.xlsx) or
// JSON are checked here (dealer, branch, period, each figure); the engine writes them all in one
// transaction with its audit row, or none, with the report per row.
import {
  type ImportReportEntry,
  QUERY_LABELS,
  WORKSHOP_COLUMNS,
  WORKSHOP_FILES,
  WORKSHOP_TEMPLATE_HEADERS,
  type WorkshopRowInput,
  workshopCalls,
} from '@app/contracts';
import { sql } from 'drizzle-orm';
import { defineImport, type ImportRunContext } from '../../core/import';
import { loadReferences, type References, text, up } from '../../core/import-kit';
import { limaWallClock } from '../../core/lima';
import type { SheetRow } from '../../core/xlsx-read';
import { workshopInfos } from './workshop.tables';

type NewInfo = typeof workshopInfos.$inferInsert;

export interface WorkshopRow {
  /** Spreadsheet row number (header = 1) or position in the batch (first = 1). */
  row: number;
  data: WorkshopRowInput;
}

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** A number from a cell: a number, or text like "1234.5", "1,234.50" or "1234,5". */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  let s = String(v).trim().replace(/\s/g, '');
  if (s.includes(',') && !s.includes('.')) s = s.replace(',', '.');
  else s = s.replace(/,/g, '');
  return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN;
}

/** This month in Lima (UTC-5): a later month cannot have workshop figures yet. */
const currentPeriod = () => {
  const d = limaWallClock();
  return d.getUTCFullYear() * 100 + d.getUTCMonth() + 1;
};

/** Checks every row; answers the report, the rows to write and how many failed. */
function checkWorkshopRows(
  rows: WorkshopRow[],
  l: References,
  foreignDealer: ImportRunContext['foreignDealer'],
) {
  const report: ImportReportEntry[] = [];
  const valid: NewInfo[] = [];
  const firstRow = new Map<string, number>();
  const now = currentPeriod();
  let failed = 0;
  for (const { row, data } of rows) {
    const errors: string[] = [];
    const values: Record<string, number | string | null> = {};
    // The dealer: by code (template) or id (JSON).
    const code = text(data.dealer_code);
    const dealer = data.dealer_id
      ? l.dealersById.get(Number(data.dealer_id))
      : code
        ? l.dealersByCode.get(up(code))
        : undefined;
    if (!data.dealer_id && !code) errors.push('Concesionario es obligatorio');
    else if (!dealer) errors.push(`Concesionario "${code ?? data.dealer_id}" no existe`);
    else if (foreignDealer(dealer)) errors.push(foreignDealer(dealer)!);
    // The branch (optional): code or name within the dealer, or its id.
    const branchText = text(data.branch);
    let branchId: number | null = null;
    if (data.dealer_branch_id && dealer) {
      const b = l.branchesById.get(Number(data.dealer_branch_id));
      if (!b || b.dealer_id !== dealer.id) errors.push('La sede no pertenece al concesionario');
      else branchId = b.id;
    } else if (branchText && dealer) {
      const id = l.branches.get(`${dealer.id}|${up(branchText)}`);
      if (id === undefined) errors.push(`Sede "${branchText}" no existe en el concesionario ${dealer.code}`);
      else branchId = id;
    }
    for (const c of WORKSHOP_COLUMNS) {
      if (c.key === 'dealer_code' || c.key === 'branch') continue;
      const v = data[c.key];
      if (blank(v)) {
        if (c.required) errors.push(`${c.header} es obligatorio`);
        values[c.key] = null;
        continue;
      }
      if (c.kind === 'text') {
        const s = text(v);
        if (s && s.length > c.max) errors.push(`${c.header} admite como máximo ${c.max} caracteres`);
        values[c.key] = s;
        continue;
      }
      const n = toNumber(v);
      const range = `${c.kind === 'int' ? 'entero ' : ''}de ${c.min} a ${c.max}`;
      if (!Number.isFinite(n) || (c.kind === 'int' && !Number.isInteger(n)) || n < c.min || n > c.max)
        errors.push(`${c.header} "${String(v).trim()}" no es válido (${range})`);
      else values[c.key] = c.kind === 'int' ? n : Math.round(n * 100) / 100;
    }
    const year = values.year as number | null;
    const month = values.month as number | null;
    if (year && month && year * 100 + month > now)
      errors.push(`El mes ${month}/${year} aún no empieza: no puede tener información de taller`);
    if (!errors.length) {
      const key = `${dealer!.id}|${branchId ?? ''}|${year}|${month}`;
      const first = firstRow.get(key);
      if (first !== undefined)
        errors.push(`Concesionario, sede y mes repetidos: ya figuran en la fila ${first}`);
      else firstRow.set(key, row);
    }
    report.push({ row, ok: errors.length === 0, errors });
    if (errors.length) {
      failed++;
      continue;
    }
    valid.push({
      dealer_id: dealer!.id,
      dealer_branch_id: branchId,
      year: year!,
      month: month!,
      work_orders_opened: values.work_orders_opened as number,
      work_orders_closed: values.work_orders_closed as number,
      hours_sold: values.hours_sold as number,
      hours_worked: values.hours_worked as number,
      labour_revenue: values.labour_revenue as number,
      parts_revenue: values.parts_revenue as number,
      accessories_revenue: values.accessories_revenue as number | null,
      warranty_orders: values.warranty_orders as number | null,
      technicians: values.technicians as number | null,
      notes: values.notes as string | null,
    });
  }
  return { report, valid, failed };
}

/** What a row loaded again replaces: its figures (every template column but who and when) and who loaded it. */
const REPLACED = [
  ...WORKSHOP_COLUMNS.map((c) => c.key).filter(
    (k) => !['dealer_code', 'branch', 'year', 'month'].includes(k),
  ),
  'source',
  'updated_by',
];

/** JSON rows (batch): keys as WORKSHOP_COLUMNS, or dealer_id / dealer_branch_id; numbered from 1. */
function rowsFromObjects(objects: Record<string, unknown>[]): WorkshopRow[] {
  const keys = [...WORKSHOP_COLUMNS.map((c) => c.key), 'dealer_id', 'dealer_branch_id'] as const;
  return objects.map((o, i) => {
    const data: Record<string, string | number> = {};
    for (const k of keys) {
      const v = o?.[k];
      if (v === null || v === undefined) continue;
      data[k] = typeof v === 'number' || typeof v === 'string' ? v : String(v);
    }
    return { row: i + 1, data: data as WorkshopRowInput };
  });
}

/** A template row: the cells from column A in WORKSHOP_COLUMNS order. */
function rowFromSheet({ number, values }: SheetRow): WorkshopRow {
  const data: Record<string, string | number> = {};
  WORKSHOP_COLUMNS.forEach((c, i) => {
    const v = values[i];
    if (v === null || v === undefined) return;
    data[c.key] = v instanceof Date ? v.toISOString().slice(0, 10) : v;
  });
  return { row: number, data: data as WorkshopRowInput };
}

export const workshopImport = defineImport({
  kind: 'workshop-import',
  title: 'Carga de información de taller',
  name: 'Info Taller',
  link: '/workshopinfo',
  tags: ['Info Taller'],
  permission: 'WorkshopInfos.store',
  audit: 'workshop-infos',
  file: {
    path: workshopCalls.import.path,
    summary: 'Información de taller desde la plantilla .xlsx (campo file)',
    sheet: {
      headers: WORKSHOP_TEMPLATE_HEADERS,
      noRows: 'El archivo no tiene filas de información de taller debajo de los encabezados',
      maxRows: 50_000,
    },
    rows: (rows) => rows.map(rowFromSheet),
  },
  template: {
    path: workshopCalls.template.path,
    summary: 'Plantilla vacía Plantilla_Info_Taller.xlsx',
    permission: 'WorkshopInfos.view',
    filename: WORKSHOP_FILES.template,
    sheetName: 'Info Taller',
    widths: { Concesionario: 14, Sede: 24, Año: 8, Mes: 6, Observaciones: 30 },
    help: [
      [QUERY_LABELS.dealer, 'Código del concesionario (por ejemplo LIM01)'],
      ['Sede', 'Código o nombre de la sede (opcional; vacío = todo el concesionario)'],
      ['Año, Mes', 'Periodo de la información (mes de 1 a 12; no un mes futuro)'],
      ['OT abiertas, OT cerradas', 'Órdenes de trabajo abiertas y cerradas en el mes (enteros)'],
      ['Horas vendidas', 'Horas facturadas al cliente (mano de obra)'],
      ['Horas trabajadas', 'Horas registradas por los técnicos en las órdenes'],
      ['Venta mano de obra', 'Soles facturados por mano de obra, sin IGV'],
      ['Venta repuestos', 'Soles facturados en repuestos del taller, sin IGV'],
      ['Venta accesorios, OT garantía, Técnicos, Observaciones', 'Opcionales'],
      [
        'Reglas',
        'Si alguna fila tiene errores no se guarda ninguna; una fila del mismo concesionario, sede y mes ya cargada se reemplaza',
      ],
    ],
  },
  batch: {
    path: workshopCalls.batch.path,
    summary: 'Información de taller como JSON {rows}; mismas reglas que la carga, en una transacción',
    body: workshopCalls.batch.body,
    bodyLimit: 20 * 1024 * 1024,
    items: (body) => rowsFromObjects(body.rows),
  },
  async check({ db, foreignDealer }, batches) {
    const rows: WorkshopRow[] = [];
    for await (const batch of batches) for (const r of batch) rows.push(r);
    return checkWorkshopRows(rows, await loadReferences(db, { branches: true }), foreignDealer);
  },
  // A row for a dealer, branch and month already loaded replaces it.
  async save(tx, valid, { user, source }) {
    for (let i = 0; i < valid.length; i += 2000) {
      await tx
        .insert(workshopInfos)
        .values(valid.slice(i, i + 2000).map((v) => ({ ...v, source, updated_by: user.id })))
        .onConflictDoUpdate({
          target: [
            workshopInfos.dealer_id,
            workshopInfos.dealer_branch_id,
            workshopInfos.year,
            workshopInfos.month,
          ],
          set: {
            ...Object.fromEntries(REPLACED.map((k) => [k, sql.raw(`excluded.${k}`)])),
            updated_at: sql`now()`,
          },
        });
    }
    return { audit: { dealers: new Set(valid.map((v) => v.dealer_id)).size } };
  },
});
