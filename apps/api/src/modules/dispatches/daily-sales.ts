// Daily sales: the cells of the month grid (JSON) or of the uploaded Formato_Daily_{year}_{month}
// (a row per dealer, brand and model, a column per day) are checked here; the engine
// (core/import.ts) writes them together (insert, replace, or delete when 0) in one transaction
// with its audit row, or none, with the per-row report.
import {
  DAILY_TEMPLATE_HEADERS,
  type DailySaleEntryInput,
  dailySaleEntrySchema,
  dailySalesBatchSchema,
  daysInMonth,
  dispatchCalls,
  type ImportReportEntry,
  QUERY_LABELS,
} from '@app/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { defineImport, type ImportRunContext } from '../../core/import';
import { text, up } from '../../core/import-kit';
import { templateBuffer } from '../../core/import-template';
import { limaToday } from '../../core/lima';
import type { Scope } from '../../core/scope';
import type { SheetRow } from '../../core/xlsx-read';
import { manufacturerModels, manufacturers } from '../../db/schema';
import { type Lookups, loadLookups, monthStart } from './dispatches.lookups';
import { dailyGrid, scopeDealers } from './dispatches.summary';
import { dailySales } from './dispatches.tables';

/** One cell to check: a JSON entry (row = position) or a day of a file row (label = the day). */
interface DailyCell {
  row: number;
  label?: string;
  /** From the file: dealer, brand and model by code or name. */
  codes?: { dealer: string | null; brand: string | null; model: string | null };
  entry: Partial<Record<keyof DailySaleEntryInput, unknown>>;
  /** A file row with every day blank: its codes are checked, nothing is written (blank = unchanged). */
  checkOnly?: boolean;
}

interface CheckedDaily {
  dealer_id: number;
  manufacturer_id: number;
  manufacturer_model_id: number;
  sale_date: string;
  units: number;
}

function checkCell(
  c: DailyCell,
  l: Lookups,
  foreignDealer: ImportRunContext['foreignDealer'],
  today: string,
): { errors: string[]; value?: CheckedDaily } {
  const errors: string[] = [];
  let entry = c.entry;
  if (c.codes) {
    const { dealer, brand, model } = c.codes;
    const d = dealer ? l.dealersByCode.get(up(dealer)) : undefined;
    const b = brand ? l.brands.get(up(brand)) : undefined;
    if (!dealer) errors.push('Concesionario es obligatorio');
    else if (!d) errors.push(`Concesionario "${dealer}" no existe`);
    if (!brand) errors.push('Marca es obligatorio');
    else if (!b) errors.push(`Marca "${brand}" no existe`);
    if (!model) errors.push('Modelo es obligatorio');
    const modelId = b && model ? l.models.get(`${b.id}|${up(model)}`) : undefined;
    if (b && model && modelId === undefined) errors.push(`Modelo "${model}" no existe en la marca ${b.name}`);
    if (errors.length) return { errors };
    entry = { ...entry, dealer_id: d!.id, manufacturer_model_id: modelId };
  }
  const parsed = dailySaleEntrySchema.safeParse(entry);
  const at = c.label ? `${c.label}: ` : '';
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(`${at}${issue.message}`);
    return { errors };
  }
  const e = parsed.data;
  const dealer = l.dealersById.get(e.dealer_id);
  const model = l.modelsById.get(e.manufacturer_model_id);
  if (!dealer) errors.push(`Concesionario ${e.dealer_id} no existe`);
  else {
    const own = foreignDealer(dealer);
    if (own) errors.push(own);
  }
  if (!model) errors.push(`Modelo ${e.manufacturer_model_id} no existe`);
  const date = new Date(`${e.sale_date}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== e.sale_date)
    errors.push(`${at}Fecha ${e.sale_date} no es una fecha válida`);
  else if (e.sale_date > today)
    errors.push(`${at}Fecha ${e.sale_date}: no se puede registrar una venta futura`);
  if (errors.length) return { errors };
  return {
    errors,
    value: { ...e, manufacturer_id: model!.manufacturer_id },
  };
}

const cellsFromEntries = (entries: unknown[]): DailyCell[] =>
  entries.map((e, i) => ({
    row: i + 1,
    entry: e && typeof e === 'object' && !Array.isArray(e) ? (e as DailyCell['entry']) : {},
  }));

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

export const dailyHeaders = (year: number, month: number) => [
  ...DAILY_TEMPLATE_HEADERS,
  ...Array.from({ length: daysInMonth(year, month) }, (_, i) => String(i + 1)),
];

/** A file row: one cell per filled day (blank = unchanged, 0 = cleared). */
function cellsFromSheet(rows: SheetRow[], year: number, month: number): DailyCell[] {
  const days = daysInMonth(year, month);
  const out: DailyCell[] = [];
  for (const { number, values } of rows) {
    const codes = { dealer: text(values[0]), brand: text(values[1]), model: text(values[2]) };
    let any = false;
    for (let d = 1; d <= days; d++) {
      const v = values[2 + d];
      if (blank(v)) continue;
      any = true;
      const units = typeof v === 'number' ? v : Number(String(v).trim());
      out.push({
        row: number,
        label: `Día ${d}`,
        codes,
        entry: { sale_date: `${monthStart(year, month).slice(0, 8)}${String(d).padStart(2, '0')}`, units },
      });
    }
    if (!any)
      out.push({
        row: number,
        codes,
        checkOnly: true,
        entry: { sale_date: monthStart(year, month), units: 0 },
      });
  }
  return out;
}

/** The file's month: ?year&month of the upload (the job keeps them). */
const monthQuery = dispatchCalls.dailyImport.query;

export const dailySalesImport = defineImport({
  kind: 'daily-sales-import',
  title: 'Carga de venta diaria',
  name: 'Venta diaria',
  link: '/main/daily',
  tags: ['Venta diaria'],
  permission: 'DailySales.store',
  audit: 'daily-sale-entries',
  query: monthQuery,
  file: {
    path: dispatchCalls.dailyImport.path,
    summary: 'Venta diaria desde Formato_Daily (campo file; ?year&month)',
    sheet: ({ year, month }) => ({
      headers: dailyHeaders(year, month),
      noRows: 'El archivo no tiene filas de ventas debajo de los encabezados',
      maxRows: 20_000,
    }),
    rows: (rows, { year, month }) => cellsFromSheet(rows, year, month),
    accept(upload, { year, month }) {
      const named = /Formato_Daily_(\d{4})_(\d{1,2})\b/i.exec(upload.filename);
      if (named && (Number(named[1]) !== year || Number(named[2]) !== month))
        throw ValidationError.field(
          'file',
          `El archivo es de ${named[2]}/${named[1]} y se eligió ${month}/${year}: elija ese mes o use la plantilla del mes elegido`,
        );
    },
  },
  batch: {
    path: dispatchCalls.dailySave.path,
    summary:
      'Guarda ventas diarias {entries: [{dealer_id, manufacturer_model_id, sale_date, units}]}; 0 borra',
    body: dailySalesBatchSchema,
    access: { permission: 'DailySales.store', or: ['DailySales.update'] },
    source: 'grid',
    items: (body) => cellsFromEntries(body.entries),
  },
  async check({ db, foreignDealer }, batches) {
    const l = await loadLookups(db);
    const today = limaToday();
    const report = new Map<number, ImportReportEntry>();
    const valid = new Map<string, CheckedDaily>();
    const firstRow = new Map<string, number>();
    let failed = 0;
    for await (const cells of batches)
      for (const c of cells) {
        const entry = report.get(c.row) ?? { row: c.row, ok: true, errors: [] };
        report.set(c.row, entry);
        const { errors, value } = checkCell(c, l, foreignDealer, today);
        if (value && !c.checkOnly) {
          const key = `${value.dealer_id}|${value.manufacturer_model_id}|${value.sale_date}`;
          const first = firstRow.get(key);
          if (first !== undefined)
            errors.push(`${c.label ? `${c.label}: ` : ''}Venta repetida: ya figura en la fila ${first}`);
          else firstRow.set(key, c.row);
        }
        if (errors.length) {
          for (const e of errors) if (!entry.errors.includes(e)) entry.errors.push(e);
          if (entry.ok) failed++;
          entry.ok = false;
        } else if (value && !c.checkOnly)
          valid.set(`${value.dealer_id}|${value.manufacturer_model_id}|${value.sale_date}`, value);
      }
    return { report: [...report.values()], valid: [...valid.values()], failed };
  },
  // Insert or replace; a 0 clears the cell. `changed`: cells whose stored value this save changed
  // (a value rewritten as it was is not a change).
  async save(tx, rows) {
    let changed = 0;
    const keep = rows.filter((r) => r.units > 0);
    const clear = rows.filter((r) => r.units === 0);
    for (let i = 0; i < keep.length; i += 5000) {
      const written = await tx
        .insert(dailySales)
        .values(keep.slice(i, i + 5000))
        .onConflictDoUpdate({
          target: [dailySales.dealer_id, dailySales.manufacturer_model_id, dailySales.sale_date],
          set: { units: sql`excluded.units`, updated_at: sql`now()` },
          setWhere: sql`${dailySales.units} is distinct from excluded.units`,
        })
        .returning({ id: dailySales.id });
      changed += written.length;
    }
    // A 0 clears the cell: the entry is removed, so the grid and the reports show it empty.
    for (const r of clear) {
      const gone = await tx
        .delete(dailySales)
        .where(
          and(
            eq(dailySales.dealer_id, r.dealer_id),
            eq(dailySales.manufacturer_model_id, r.manufacturer_model_id),
            eq(dailySales.sale_date, r.sale_date),
          ),
        )
        .returning({ id: dailySales.id });
      changed += gone.length;
    }
    return {
      audit: { changed, units: keep.reduce((s, r) => s + r.units, 0), cleared: clear.length },
      answer: { changed },
    };
  },
});

/**
 * Formato_Daily_{year}_{month}: a row per dealer (in the caller's scope) and model of the brand,
 * with the units already entered this month, so the file can be filled and uploaded back.
 */
export async function dailyTemplate(
  db: Db,
  scope: Scope,
  q: { year: number; month: number; manufacturerId?: number },
): Promise<Buffer> {
  const grid = await dailyGrid(db, scope, q);
  const entered = new Map(grid.rows.map((r) => [`${r.dealer_id}|${r.manufacturer_model_id}`, r]));
  const dealerRows = await scopeDealers(db, scope);
  const models = await db
    .select({
      id: manufacturerModels.id,
      name: manufacturerModels.name,
      brand: manufacturers.code,
    })
    .from(manufacturerModels)
    .innerJoin(manufacturers, eq(manufacturers.id, manufacturerModels.manufacturer_id))
    .where(
      and(
        eq(manufacturerModels.active, true),
        q.manufacturerId ? eq(manufacturerModels.manufacturer_id, q.manufacturerId) : undefined,
      ),
    )
    .orderBy(asc(manufacturers.code), asc(manufacturerModels.name));
  const days = grid.days;
  const rows: (string | number | null)[][] = [];
  for (const d of dealerRows) {
    for (const m of models) {
      const got = entered.get(`${d.id}|${m.id}`);
      rows.push([
        d.code,
        m.brand,
        m.name,
        ...Array.from({ length: days }, (_, i) => got?.days[i + 1] ?? null),
      ]);
    }
  }
  const headers = dailyHeaders(q.year, q.month);
  return templateBuffer({
    sheetName: `Daily_${q.year}_${q.month}`,
    headers,
    widths: {
      Concesionario: 14,
      Marca: 8,
      Modelo: 18,
      ...Object.fromEntries(headers.slice(3).map((h) => [h, 5])),
    },
    rows,
    help: [
      [QUERY_LABELS.dealer, 'Código del concesionario'],
      ['Marca', 'Código de la marca: V, N, S, A'],
      ['Modelo', 'Nombre o código del modelo, como en el catálogo de la marca'],
      ['1 ... 31', 'Unidades vendidas ese día; vacío no cambia, 0 borra lo registrado'],
      ['Reglas', 'Si alguna fila tiene errores no se guarda ninguna; no se registran ventas de días futuros'],
    ],
  });
}
