// Validation and all-or-nothing saving of incoming sale rows (xlsx import, JSON batch, the
// external sales API). Every row gets a report entry; if any row is wrong nothing is saved.
import {
  DATE_RE,
  documentNumberError,
  type ImportReportEntry,
  type ImportResult,
  SALE_ROW_KEYS,
  SALE_RULES,
  type SaleRowInput,
  saleDateError,
  saleYearError,
  VIN_RE,
} from '@app/contracts';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../core/action';
import { writeAudit } from '../../core/audit';
import type { CurrentUser } from '../../core/context';
import { findPgError } from '../../core/db-errors';
import { ConflictError } from '../../core/errors';
import { dealerBranches, dealers, manufacturerModels, manufacturers } from '../../db/schema';
import { sales } from './sales.tables';

export interface NumberedRow {
  /** Spreadsheet row number (header = 1) or position in the batch (first = 1). */
  row: number;
  data: SaleRowInput;
}

export interface RowScope {
  /** Who sends the rows: a dealer user may only send its own dealer's rows. */
  user: CurrentUser;
  /** Where the rows came from, as the audit row names the run. */
  source: 'import' | 'batch' | 'sales-api';
}

type NewSale = typeof sales.$inferInsert;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DOC_ALIASES: Record<string, string> = {
  DNI: 'DNI',
  RUC: 'RUC',
  CE: 'CE',
  'CARNET DE EXTRANJERIA': 'CE',
  PAS: 'PAS',
  PASAPORTE: 'PAS',
};
const PAYMENT_ALIASES: Record<string, string> = {
  E: 'E',
  EFECTIVO: 'E',
  T: 'T',
  TARJETA: 'T',
  D: 'D',
  DEPOSITO: 'D',
  G: 'G',
  GRATUITO: 'G',
};

export const up = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toUpperCase();

export interface Brand {
  id: number;
  code: string;
  name: string;
}

/**
 * What the row checks of every import look up, loaded once per run: dealers by code (upper case,
 * no accents: see `up`) and by id; with `branches`, a dealer's branches by name or code; with
 * `brands`, brands by code or name and their models by name or code. Parts not asked are empty.
 */
export interface References {
  dealersByCode: Map<string, { id: number; code: string; name: string }>;
  dealersById: Map<number, { id: number; code: string; name: string }>;
  /** `${dealerId}|${NAME or CODE}` → branch id. */
  branches: Map<string, number>;
  branchesById: Map<number, { id: number; dealer_id: number }>;
  brands: Map<string, Brand>;
  brandsById: Map<number, Brand>;
  /** `${brandId}|${NAME or CODE}` → model id. */
  models: Map<string, number>;
  modelsById: Map<number, { id: number; manufacturer_id: number; name: string }>;
}

export async function loadReferences(
  db: Executor,
  parts: { branches?: boolean; brands?: boolean },
): Promise<References> {
  const [dealerRows, branchRows, brandRows, modelRows] = await Promise.all([
    db.select({ id: dealers.id, code: dealers.code, name: dealers.name }).from(dealers),
    parts.branches
      ? db
          .select({
            id: dealerBranches.id,
            dealer_id: dealerBranches.dealer_id,
            code: dealerBranches.code,
            name: dealerBranches.name,
          })
          .from(dealerBranches)
      : [],
    parts.brands
      ? db
          .select({ id: manufacturers.id, code: manufacturers.code, name: manufacturers.name })
          .from(manufacturers)
      : [],
    parts.brands
      ? db
          .select({
            id: manufacturerModels.id,
            manufacturer_id: manufacturerModels.manufacturer_id,
            code: manufacturerModels.code,
            name: manufacturerModels.name,
          })
          .from(manufacturerModels)
      : [],
  ]);
  const l: References = {
    dealersByCode: new Map(),
    dealersById: new Map(),
    branches: new Map(),
    branchesById: new Map(),
    brands: new Map(),
    brandsById: new Map(),
    models: new Map(),
    modelsById: new Map(),
  };
  for (const d of dealerRows) {
    l.dealersByCode.set(up(d.code), d);
    l.dealersById.set(d.id, d);
  }
  for (const b of branchRows) {
    l.branches.set(`${b.dealer_id}|${up(b.name)}`, b.id);
    if (b.code) l.branches.set(`${b.dealer_id}|${up(b.code)}`, b.id);
    l.branchesById.set(b.id, b);
  }
  for (const b of brandRows) {
    l.brands.set(up(b.code), b);
    l.brands.set(up(b.name), b);
    l.brandsById.set(b.id, b);
  }
  for (const m of modelRows) {
    l.models.set(`${m.manufacturer_id}|${up(m.name)}`, m.id);
    if (m.code) l.models.set(`${m.manufacturer_id}|${up(m.code)}`, m.id);
    l.modelsById.set(m.id, m);
  }
  return l;
}

/** Text of a cell: trims, turns numbers into text, null for empty. */
export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
  const s = String(v).trim();
  return s === '' ? null : s;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Fecha Venta: a Date (Excel date cell), an Excel serial number, or YYYY-MM-DD text. */
export function parseDate(v: unknown): string | null {
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    return `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 20000 && v < 80000) {
    return parseDate(new Date(Math.round((v - 25569) * 86_400_000)));
  }
  const s = text(v);
  if (!s || !DATE_RE.test(s)) return null;
  const d = new Date(`${s}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) return null;
  return s;
}

function maxLen(errors: string[], label: string, value: string | null, max: number): void {
  if (value && value.length > max) errors.push(`${label} admite como máximo ${max} caracteres`);
}

const SOLD = (vin: string) => `VIN ${vin} ya fue vendido (existe una venta registrada)`;

/**
 * Checks rows against the lookups, in input order, remembering the VINs seen so far so that a
 * VIN repeated anywhere in the input is caught. VINs already in the database are checked by the
 * caller (`markSold`), in one query per batch.
 */
class SaleRowChecker {
  failed = 0;
  private readonly firstRowOfVin = new Map<string, number>();
  readonly today = SALE_RULES.today();

  private constructor(
    readonly l: References,
    readonly scope: RowScope,
  ) {}

  static async create(db: Executor, scope: RowScope): Promise<SaleRowChecker> {
    return new SaleRowChecker(await loadReferences(db, { branches: true, brands: true }), scope);
  }

  /** The report entries of the rows, the rows to insert, and the VINs to look up in the database. */
  check(rows: NumberedRow[]): { report: ImportReportEntry[]; valid: NewSale[]; newVins: string[] } {
    const { l, scope, today, firstRowOfVin } = this;
    const report: ImportReportEntry[] = [];
    const valid: NewSale[] = [];
    const newVins: string[] = [];
    for (const { row, data } of rows) {
      const errors: string[] = [];
      const warnings: string[] = [];
      const dealerCode = text(data.dealer_code);
      let dealerId: number | undefined;
      if (!dealerCode) errors.push('Concesionario es obligatorio');
      else {
        const dealer = l.dealersByCode.get(up(dealerCode));
        if (!dealer) errors.push(`Concesionario "${dealerCode}" no existe`);
        else if (scope.user.dealerId !== null && dealer.id !== scope.user.dealerId)
          errors.push(
            `Concesionario "${dealerCode}" no es su concesionario: solo puede registrar ventas propias`,
          );
        else dealerId = dealer.id;
      }
      const branch = text(data.branch);
      let branchId: number | null = null;
      if (branch && dealerId !== undefined) {
        const id = l.branches.get(`${dealerId}|${up(branch)}`);
        if (id === undefined) errors.push(`Sede "${branch}" no existe en el concesionario ${dealerCode}`);
        else branchId = id;
      }
      const rawDate = data.sale_date;
      const saleDate = parseDate(rawDate);
      if (text(rawDate) === null) errors.push('Fecha Venta es obligatorio');
      else if (!saleDate) errors.push('Fecha Venta no es una fecha válida (formato YYYY-MM-DD)');
      else {
        const problem = saleDateError(saleDate, today);
        if (problem) errors.push(problem);
      }

      const invoice = text(data.invoice);
      if (!invoice) errors.push('Factura es obligatorio');
      maxLen(errors, 'Factura', invoice, 40);

      const docTypeRaw = text(data.document_type);
      const docType = docTypeRaw ? DOC_ALIASES[up(docTypeRaw)] : undefined;
      if (!docTypeRaw) errors.push('Tipo Documento es obligatorio');
      else if (!docType) errors.push(`Tipo Documento "${docTypeRaw}" no es válido (DNI, RUC, CE, PAS)`);
      const docNumber = text(data.document_number)?.toUpperCase() ?? null;
      if (!docNumber) errors.push('Documento es obligatorio');
      else if (docType) {
        const problem = documentNumberError(docType, docNumber);
        if (problem) errors.push(problem);
      }

      const buyer = text(data.buyer_name);
      if (!buyer) errors.push('Cliente es obligatorio');
      maxLen(errors, 'Cliente', buyer, 200);

      let email = text(data.email);
      if (email) email = email.toLowerCase();
      if (!email) warnings.push('Sin Email: no recibirá la encuesta');
      else if (!EMAIL_RE.test(email) || email.length > 150) {
        warnings.push(`Email "${email}" no es válido: no recibirá la encuesta`);
      }
      const phone = text(data.phone);
      maxLen(errors, 'Teléfono', phone, 30);

      const vin = text(data.vin)?.toUpperCase().replace(/\s+/g, '') ?? null;
      if (!vin) errors.push('VIN es obligatorio');
      else if (!VIN_RE.test(vin))
        errors.push(`VIN "${vin}" no es válido: 17 letras o dígitos, sin I, O ni Q`);
      else {
        const first = firstRowOfVin.get(vin);
        if (first !== undefined) errors.push(`VIN ${vin} repetido en la fila ${first}`);
        else {
          firstRowOfVin.set(vin, row);
          newVins.push(vin);
        }
      }

      const brandRaw = text(data.brand);
      const brandId = brandRaw ? l.brands.get(up(brandRaw))?.id : undefined;
      if (!brandRaw) errors.push('Marca es obligatorio');
      else if (brandId === undefined) errors.push(`Marca "${brandRaw}" no existe`);

      const model = text(data.model);
      if (!model) errors.push('Modelo es obligatorio');
      maxLen(errors, 'Modelo', model, 150);
      const modelId =
        model && brandId !== undefined ? (l.models.get(`${brandId}|${up(model)}`) ?? null) : null;

      const yearText = text(data.year);
      const year = yearText === null ? Number.NaN : Number(yearText);
      if (yearText === null) errors.push('Año es obligatorio');
      else {
        const problem = saleYearError(year, yearText);
        if (problem) errors.push(problem);
      }

      const seller = text(data.seller);
      maxLen(errors, 'Vendedor', seller, 150);

      const payRaw = text(data.payment_method);
      const payment = payRaw ? PAYMENT_ALIASES[up(payRaw)] : undefined;
      if (!payRaw) errors.push('Forma de Pago es obligatorio');
      else if (!payment) errors.push(`Forma de Pago "${payRaw}" no es válida (E, T, D, G)`);

      const entry: ImportReportEntry = { row, ok: errors.length === 0, errors };
      if (vin) entry.vin = vin;
      if (warnings.length) entry.warnings = warnings;
      report.push(entry);
      if (errors.length) {
        this.failed++;
        continue;
      }
      const emailOk = !!email && EMAIL_RE.test(email) && email.length <= 150;
      valid.push({
        dealer_id: dealerId as number,
        dealer_branch_id: branchId,
        sale_date: saleDate as string,
        invoice: invoice as string,
        buyer_name: buyer as string,
        document_type: docType as string,
        document_number: docNumber as string,
        email: emailOk ? email : null,
        phone,
        vin: vin as string,
        manufacturer_id: brandId as number,
        manufacturer_model_id: modelId,
        model_name: model as string,
        year,
        seller,
        payment_method: payment as string,
        survey_status: emailOk ? 'sin_enviar' : 'contacto_invalido',
      });
    }

    return { report, valid, newVins };
  }

  /** Marks the rows whose VIN is already sold; answers whether any was. */
  markSold(report: ImportReportEntry[], sold: Set<string>): boolean {
    if (sold.size === 0) return false;
    for (const entry of report) {
      if (entry.vin && sold.has(entry.vin) && this.firstRowOfVin.get(entry.vin) === entry.row) {
        entry.errors.push(SOLD(entry.vin));
        if (entry.ok) {
          entry.ok = false;
          this.failed++;
        }
      }
    }
    return true;
  }
}

async function soldVins(
  run: (vins: string[]) => Promise<{ vin: string }[]>,
  vins: string[],
): Promise<Set<string>> {
  const sold = new Set<string>();
  for (let i = 0; i < vins.length; i += 20_000) {
    for (const r of await run(vins.slice(i, i + 20_000))) sold.add(r.vin);
  }
  return sold;
}

const CHUNK = 10_000;

/** Columns written by an import, with their PostgreSQL array types for unnest(). */
const INSERT_COLUMNS: [keyof NewSale, string][] = [
  ['dealer_id', 'int4'],
  ['dealer_branch_id', 'int4'],
  ['sale_date', 'date'],
  ['invoice', 'text'],
  ['buyer_name', 'text'],
  ['document_type', 'text'],
  ['document_number', 'text'],
  ['email', 'text'],
  ['phone', 'text'],
  ['vin', 'text'],
  ['manufacturer_id', 'int4'],
  ['manufacturer_model_id', 'int4'],
  ['model_name', 'text'],
  ['year', 'int4'],
  ['seller', 'text'],
  ['payment_method', 'text'],
  ['survey_status', 'text'],
];

// One INSERT … SELECT FROM unnest(column arrays) per 10,000 rows: 17 parameters per statement
// instead of 17 per row, which is what makes 50,000 rows fit in the time budget.
function insertStatement(chunk: NewSale[]): SQL {
  const parts: SQL[] = [
    sql.raw(`insert into sales (${INSERT_COLUMNS.map(([c]) => c).join(', ')}) select * from unnest(`),
  ];
  INSERT_COLUMNS.forEach(([c, type], i) => {
    if (i > 0) parts.push(sql.raw(', '));
    parts.push(sql`${sql.param(chunk.map((r) => r[c] ?? null))}`, sql.raw(`::${type}[]`));
  });
  parts.push(sql.raw(')'));
  return sql.join(parts);
}

/** Inserts every row and the run's audit row (who, from where, how many) in one transaction. */
export async function insertSales(db: Db, rows: NewSale[], scope: RowScope): Promise<number> {
  try {
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await tx.execute(insertStatement(rows.slice(i, i + CHUNK)));
      }
      await writeAudit(tx, {
        user: scope.user,
        resource: 'sales',
        recordId: null,
        action: scope.source,
        after: { saved: rows.length, dealers: [...new Set(rows.map((r) => r.dealer_id))].length },
      });
    });
  } catch (err) {
    // A VIN saved by someone else between validation and insert.
    if (findPgError(err)?.code === '23505') {
      throw new ConflictError(
        'Otra carga registro alguno de estos VIN al mismo tiempo; no se guardó ninguna fila',
        'Vuelva a intentar la carga',
      );
    }
    throw err;
  }
  return rows.length;
}

/** Rows already in memory (batch, sales API): the same rules and the same all-or-nothing save. */
export async function importSaleRows(db: Db, rows: NumberedRow[], scope: RowScope): Promise<ImportResult> {
  return importSaleStream(db, [rows], scope);
}

/**
 * The same rules for rows arriving in batches from a file being read. The whole file is read
 * and checked first, with no transaction open (a slow or broken file never holds a database
 * connection); then, only if every row is valid, one transaction writes them all. The full
 * report either way.
 */
export async function importSaleStream(
  db: Db,
  batches: AsyncIterable<NumberedRow[]> | Iterable<NumberedRow[]>,
  scope: RowScope,
  /** A job's progress: told before the rows are written. */
  hooks: { beforeSave?(rows: number): Promise<void> } = {},
): Promise<ImportResult> {
  const checker = await SaleRowChecker.create(db, scope);
  const report: ImportReportEntry[] = [];
  const valid: NewSale[] = [];
  const newVins: string[] = [];
  for await (const rows of batches) {
    const part = checker.check(rows);
    for (const e of part.report) report.push(e);
    for (const v of part.valid) valid.push(v);
    for (const v of part.newVins) newVins.push(v);
  }
  const sold = await soldVins(
    (vins) => db.select({ vin: sales.vin }).from(sales).where(inArray(sales.vin, vins)),
    newVins,
  );
  checker.markSold(report, sold);
  const ok = checker.failed === 0 && valid.length > 0;
  if (ok) await hooks.beforeSave?.(valid.length);
  const saved = ok ? await insertSales(db, valid, scope) : 0;
  return { saved, total: report.length, failed: checker.failed, report };
}

/** Turns loose JSON objects (batch, sales API) into numbered rows; keys are the SALE_ROW_KEYS. */
export function rowsFromObjects(objects: Record<string, unknown>[]): NumberedRow[] {
  return objects.map((o, i) => {
    const data: SaleRowInput = {};
    for (const k of SALE_ROW_KEYS) {
      const v = o?.[k];
      if (v === null || v === undefined) continue;
      data[k] = typeof v === 'number' || typeof v === 'string' ? v : String(v);
    }
    return { row: i + 1, data };
  });
}
