// The sales import, declared on the engine (core/import.ts): the rows of the template (.xlsx),
// of the JSON batch and of the external sales API are checked here (dealer in the caller's
// scope, branch, dates, document, VIN once, brand and model, year, payment) and written in one
// INSERT per 10,000 rows. Upload limits, jobs, the single transaction with its audit row and the
// report are the engine's.
import {
  documentNumberError,
  type ImportReportEntry,
  QUERY_LABELS,
  SALE_ROW_KEYS,
  SALE_RULES,
  SALES_IMPORT_HEADERS,
  type SaleRowInput,
  saleDateError,
  salesBatchSchema,
  salesCalls,
  saleYearError,
  VIN_RE,
} from '@app/contracts';
import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../core/action';
import { defineImport, type ImportRunContext } from '../../core/import';
import { loadReferences, parseDate, type References, text, up } from '../../core/import-kit';
import { IMPORT_XLSX_LIMITS } from '../../core/import-template';
import type { SheetRow } from '../../core/xlsx-read';
import { sales } from './sales.tables';

export interface NumberedRow {
  /** Spreadsheet row number (header = 1) or position in the batch (first = 1). */
  row: number;
  data: SaleRowInput;
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
    readonly foreignDealer: ImportRunContext['foreignDealer'],
  ) {}

  /** `foreignDealer`: the engine's check of a row's dealer against the caller's scope. */
  static async create(
    db: Executor,
    foreignDealer: ImportRunContext['foreignDealer'],
  ): Promise<SaleRowChecker> {
    return new SaleRowChecker(await loadReferences(db, { branches: true, brands: true }), foreignDealer);
  }

  /** The report entries of the rows, the rows to insert, and the VINs to look up in the database. */
  check(rows: NumberedRow[]): { report: ImportReportEntry[]; valid: NewSale[]; newVins: string[] } {
    const { l, foreignDealer, today, firstRowOfVin } = this;
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
        const foreign = dealer && foreignDealer({ id: dealer.id, code: dealerCode });
        if (!dealer) errors.push(`Concesionario "${dealerCode}" no existe`);
        else if (foreign) errors.push(foreign);
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
  for (let i = 0; i < vins.length; i += 5_000) {
    for (const r of await run(vins.slice(i, i + 5_000))) sold.add(r.vin);
  }
  return sold;
}

const CHUNK = 2_500;
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 500;
const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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

// One INSERT … SELECT FROM unnest(column arrays) per 2,500 rows: 17 parameters per statement
// instead of 17 per row, which is what makes 50,000 rows fit in the time budget; small enough that
// serialising one statement's arrays does not hold the event loop long (issue 24).
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

/** A batch of worksheet rows as numbered sale rows (cells in the template's column order). */
function saleRows(rows: SheetRow[]): NumberedRow[] {
  return rows.map(({ number, values }) => {
    const data: SaleRowInput = {};
    SALE_ROW_KEYS.forEach((k, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) data[k] = v;
    });
    return { row: number, data };
  });
}

export const salesImport = defineImport({
  kind: 'sales-import',
  title: 'Carga de ventas',
  name: 'Ventas',
  link: '/sales',
  tags: ['CEM'],
  permission: 'Sales.store',
  audit: 'sales',
  ownRows: 'ventas propias',
  file: {
    path: salesCalls.import.path,
    summary: 'Carga de ventas desde .xlsx (campo file)',
    sheet: {
      headers: SALES_IMPORT_HEADERS,
      noRows: 'El archivo no tiene filas de ventas debajo de los encabezados',
      limits: IMPORT_XLSX_LIMITS,
    },
    rows: saleRows,
  },
  template: {
    path: salesCalls.template.path,
    summary: 'Plantilla vacía de carga de ventas',
    permission: 'Sales.view',
    filename: 'Plantilla_Ventas.xlsx',
    sheetName: 'Ventas',
    widths: { VIN: 22, Cliente: 28, Email: 28 },
    numFmts: { 3: 'yyyy-mm-dd' },
    help: [
      [QUERY_LABELS.dealer, 'Código del concesionario'],
      ['Sede', 'Código o nombre de la sede (opcional)'],
      ['Fecha Venta', 'Fecha YYYY-MM-DD o celda de fecha de Excel'],
      ['Tipo Documento', 'DNI, RUC, CE o PAS'],
      ['Email', 'Correo del comprador: recibe la encuesta de satisfacción'],
      ['VIN', '17 letras o dígitos (sin I, O, Q); un VIN se vende una sola vez'],
      ['Marca', 'Código de la marca: V, N, S, A'],
      ['Año', 'Año del modelo'],
      ['Forma de Pago', 'E Efectivo, T Tarjeta, D Depósito, G Gratuito'],
    ],
  },
  batch: {
    path: salesCalls.batch.path,
    summary: 'Ventas enviadas como JSON {rows}; mismas reglas que la carga',
    body: salesBatchSchema,
    bodyLimit: 50 * 1024 * 1024,
    items: (body) => rowsFromObjects(body.rows),
  },
  // The whole file is read and checked first, with no transaction open; the VINs already sold
  // are looked up once at the end.
  async check({ db, foreignDealer }, batches) {
    const checker = await SaleRowChecker.create(db, foreignDealer);
    const report: ImportReportEntry[] = [];
    const valid: NewSale[] = [];
    const newVins: string[] = [];
    for await (const rows of batches) {
      // A big file's batch (5,000 rows) is checked in slices, the event loop free between them
      // (issue 24: logins and lists answer while a 100,000-row import runs).
      for (let i = 0; i < rows.length; i += CHECK_SLICE) {
        if (i > 0) await yieldLoop();
        const part = checker.check(rows.slice(i, i + CHECK_SLICE));
        for (const e of part.report) report.push(e);
        for (const v of part.valid) valid.push(v);
        for (const v of part.newVins) newVins.push(v);
      }
    }
    const sold = await soldVins(
      (vins) => db.select({ vin: sales.vin }).from(sales).where(inArray(sales.vin, vins)),
      newVins,
    );
    checker.markSold(report, sold);
    return { report, valid, failed: checker.failed };
  },
  async save(tx: Tx, rows: NewSale[]) {
    for (let i = 0; i < rows.length; i += CHUNK) await tx.execute(insertStatement(rows.slice(i, i + CHUNK)));
    return { audit: { dealers: new Set(rows.map((r) => r.dealer_id)).size } };
  },
  // A VIN saved by someone else between validation and insert.
  conflict: {
    message: 'Otra carga registro alguno de estos VIN al mismo tiempo; no se guardó ninguna fila',
    details: 'Vuelva a intentar la carga',
  },
});
