// The SIMA pull (GET /api/transaction-api): the period is asked month by month, every line is
// checked, and only when every month arrived and every line is right are they written, in one
// transaction. A line is keyed by SIMA's id (else its VIN), so pulling the same period again
// updates what changed and adds nothing twice.
import { type PullReportEntry, type SimaPullResult, VIN_RE } from '@app/contracts';
import { inArray, sql } from 'drizzle-orm';
import { fetchSimaDispatches, type SimaRecord } from '../../connectors/sima';
import type { Executor, Tx } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { parseDate, text, up } from '../../core/import-kit';
import { limaToday } from '../../core/lima';
import { type Lookups, loadLookups, monthEnd, monthStart } from './dispatches.lookups';
import { dispatches, storedOffices } from './dispatches.tables';

type NewDispatch = typeof dispatches.$inferInsert;

/** The value of the first key SIMA used for a field (it answers in Spanish or English). */
const simaField = (o: SimaRecord, keys: string[]) => {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null && o[k] !== '') return o[k];
  return undefined;
};

const KEYS = {
  id: ['id', 'id_despacho', 'codigo_despacho'],
  dealer: ['dealer_code', 'concesionario', 'codigo_concesionario'],
  officeCode: ['stored_office_code', 'almacen_codigo', 'codigo_almacen'],
  officeName: ['stored_office', 'almacen'],
  brand: ['brand', 'marca'],
  model: ['model', 'modelo'],
  vin: ['vin', 'chasis'],
  date: ['date', 'fecha', 'fecha_despacho'],
  units: ['units', 'cantidad', 'unidades'],
  invoice: ['invoice', 'factura'],
};

export interface Period {
  date_from: string;
  date_to: string;
}

/** The months a period covers, each as its own period (first and last month cut to the period). */
export function monthsOf(p: Period): Period[] {
  const out: Period[] = [];
  let y = Number(p.date_from.slice(0, 4));
  let m = Number(p.date_from.slice(5, 7));
  while (monthStart(y, m) <= p.date_to) {
    const from = monthStart(y, m) < p.date_from ? p.date_from : monthStart(y, m);
    const to = monthEnd(y, m) > p.date_to ? p.date_to : monthEnd(y, m);
    out.push({ date_from: from, date_to: to });
    if (++m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

/** The period of a pull: date_from/date_to, or year (+ month); default this month to date. */
export function pullPeriod(q: {
  date_from?: string;
  date_to?: string;
  year?: number;
  month?: number;
}): Period {
  const today = limaToday();
  let p: Period;
  if (q.date_from || q.date_to) {
    const from = q.date_from ? parseDate(q.date_from) : null;
    const to = q.date_to ? parseDate(q.date_to) : today;
    if (!from) throw ValidationError.field('date_from', 'Desde: formato de fecha YYYY-MM-DD');
    if (!to) throw ValidationError.field('date_to', 'Hasta: formato de fecha YYYY-MM-DD');
    p = { date_from: from, date_to: to };
  } else if (q.year) {
    p = q.month
      ? { date_from: monthStart(q.year, q.month), date_to: monthEnd(q.year, q.month) }
      : { date_from: `${q.year}-01-01`, date_to: `${q.year}-12-31` };
  } else {
    p = { date_from: `${today.slice(0, 7)}-01`, date_to: today };
  }
  if (p.date_from > p.date_to) throw ValidationError.field('date_to', 'Hasta no puede ser anterior a Desde');
  if (monthsOf(p).length > 24)
    throw ValidationError.field('date_to', 'El periodo admite como máximo 24 meses');
  return p;
}

interface CheckedLine {
  key: string;
  office?: { code: string; name: string };
  row: Omit<NewDispatch, 'stored_office_id'>;
}

/** Checks one SIMA line: the report entry, and the row to write when it is right. */
function checkLine(
  o: SimaRecord,
  n: number,
  l: Lookups,
  period: Period,
): { entry: PullReportEntry; line?: CheckedLine } {
  const errors: string[] = [];
  const dealerCode = text(simaField(o, KEYS.dealer));
  const dealer = dealerCode ? l.dealersByCode.get(up(dealerCode)) : undefined;
  if (!dealerCode) errors.push('Concesionario es obligatorio');
  else if (!dealer) errors.push(`Concesionario "${dealerCode}" no existe`);
  const brandRaw = text(simaField(o, KEYS.brand));
  const brand = brandRaw ? l.brands.get(up(brandRaw)) : undefined;
  if (!brandRaw) errors.push('Marca es obligatorio');
  else if (!brand) errors.push(`Marca "${brandRaw}" no existe`);
  const model = text(simaField(o, KEYS.model));
  if (!model) errors.push('Modelo es obligatorio');
  else if (model.length > 150) errors.push('Modelo admite como máximo 150 caracteres');
  const vin = text(simaField(o, KEYS.vin))?.toUpperCase().replace(/\s+/g, '') ?? null;
  if (!vin) errors.push('VIN es obligatorio');
  else if (!VIN_RE.test(vin)) errors.push(`VIN "${vin}" no es válido: 17 letras o dígitos, sin I, O ni Q`);
  const rawDate = simaField(o, KEYS.date);
  const date = parseDate(rawDate);
  if (rawDate === undefined) errors.push('Fecha es obligatorio');
  else if (!date) errors.push('Fecha no es una fecha válida (formato YYYY-MM-DD)');
  else if (date < period.date_from || date > period.date_to)
    errors.push(`Fecha ${date} fuera del periodo pedido (${period.date_from} a ${period.date_to})`);
  const unitsRaw = simaField(o, KEYS.units) ?? 1;
  const units = Number(unitsRaw);
  if (!Number.isInteger(units) || units < 1 || units > 999)
    errors.push(`Cantidad "${unitsRaw}" no es válida (1 a 999)`);
  const invoice = text(simaField(o, KEYS.invoice));
  if (invoice && invoice.length > 40) errors.push('Factura admite como máximo 40 caracteres');
  const officeCode = text(simaField(o, KEYS.officeCode)) ?? text(simaField(o, KEYS.officeName));
  const officeName = text(simaField(o, KEYS.officeName)) ?? officeCode;
  if (officeCode && officeCode.length > 20) errors.push('Código de almacén admite como máximo 20 caracteres');
  const id = text(simaField(o, KEYS.id));
  const key = id ? `id:${id}` : `vin:${vin}`;
  if (key.length > 60) errors.push('El identificador de SIMA admite como máximo 56 caracteres');
  const entry: PullReportEntry = { row: n, ok: errors.length === 0, errors };
  if (vin) entry.vin = vin;
  if (errors.length) return { entry };
  return {
    entry,
    line: {
      key,
      office: officeCode
        ? { code: up(officeCode), name: (officeName ?? officeCode).slice(0, 120) }
        : undefined,
      row: {
        dealer_id: dealer!.id,
        manufacturer_id: brand!.id,
        manufacturer_model_id: l.models.get(`${brand!.id}|${up(model!)}`) ?? null,
        model_name: model!,
        vin: vin!,
        dispatch_date: date!,
        units,
        invoice,
        source: 'SIMA',
        sima_key: key,
      },
    },
  };
}

/** Fetches every month of the period (nothing is written until all arrived), then checks the lines. */
export async function fetchAndCheck(
  db: Executor,
  period: Period,
  /** Told after each month arrived (months done, months asked). */
  onMonth?: (done: number, total: number) => Promise<void>,
) {
  const months = monthsOf(period);
  const records: SimaRecord[] = [];
  for (const [i, m] of months.entries()) {
    for (const r of await fetchSimaDispatches(db, m)) records.push(r);
    await onMonth?.(i + 1, months.length);
  }
  const l = await loadLookups(db);
  const report: PullReportEntry[] = [];
  const lines = new Map<string, CheckedLine>();
  records.forEach((o, i) => {
    const { entry, line } = checkLine(o, i + 1, l, period);
    report.push(entry);
    // The same line twice in one answer: the later one wins (SIMA corrected it).
    if (line) lines.set(line.key, line);
  });
  return { months: months.map((m) => m.date_from.slice(0, 7)), report, lines: [...lines.values()] };
}

const CHUNK = 2000;

/** Writes the checked lines (new warehouses first); answers how many were added and updated. */
export async function upsertLines(tx: Tx, lines: CheckedLine[]): Promise<{ added: number; updated: number }> {
  const offices = new Map<string, string>();
  for (const line of lines) if (line.office) offices.set(line.office.code, line.office.name);
  let officeIds = new Map<string, number>();
  if (offices.size) {
    await tx
      .insert(storedOffices)
      .values([...offices].map(([code, name]) => ({ code, name })))
      .onConflictDoNothing();
    const rows = await tx
      .select({ id: storedOffices.id, code: storedOffices.code })
      .from(storedOffices)
      .where(inArray(storedOffices.code, [...offices.keys()]));
    officeIds = new Map(rows.map((r) => [r.code, r.id]));
  }
  let added = 0;
  let updated = 0;
  for (let i = 0; i < lines.length; i += CHUNK) {
    const values = lines.slice(i, i + CHUNK).map((line) => ({
      ...line.row,
      stored_office_id: line.office ? (officeIds.get(line.office.code) ?? null) : null,
    }));
    const written = await tx
      .insert(dispatches)
      .values(values)
      .onConflictDoUpdate({
        target: dispatches.sima_key,
        set: {
          dealer_id: sql`excluded.dealer_id`,
          stored_office_id: sql`excluded.stored_office_id`,
          manufacturer_id: sql`excluded.manufacturer_id`,
          manufacturer_model_id: sql`excluded.manufacturer_model_id`,
          model_name: sql`excluded.model_name`,
          vin: sql`excluded.vin`,
          dispatch_date: sql`excluded.dispatch_date`,
          units: sql`excluded.units`,
          invoice: sql`excluded.invoice`,
          updated_at: sql`now()`,
        },
        // Unchanged lines are left alone: a second pull of the same period writes nothing.
        setWhere: sql`(${dispatches.dealer_id}, ${dispatches.stored_office_id}, ${dispatches.manufacturer_id}, ${dispatches.manufacturer_model_id}, ${dispatches.model_name}, ${dispatches.vin}, ${dispatches.dispatch_date}, ${dispatches.units}, ${dispatches.invoice}) is distinct from (excluded.dealer_id, excluded.stored_office_id, excluded.manufacturer_id, excluded.manufacturer_model_id, excluded.model_name, excluded.vin, excluded.dispatch_date, excluded.units, excluded.invoice)`,
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    for (const w of written) {
      if (w.inserted) added++;
      else updated++;
    }
  }
  return { added, updated };
}

export type { CheckedLine };
export type { SimaPullResult };
