// Helpers of the sales and quiz tests: real .xlsx files, multipart bodies, valid VINs, rows.
import { randomBytes } from 'node:crypto';
import { SALES_IMPORT_HEADERS } from '@app/contracts';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { api } from './harness';

export type Cell = string | number | Date | null;

/** A workbook with the given header row and rows (in memory: fine for test sizes). */
export async function salesWorkbook(
  rows: Cell[][],
  headers: readonly string[] = SALES_IMPORT_HEADERS,
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Ventas');
  ws.addRow([...headers]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A multipart/form-data body with one file part. */
export function multipart(file: Buffer, filename = 'ventas.xlsx', field = 'file') {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, file, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POSTs a file as multipart to an upload call; the status and the parsed envelope. */
export async function uploadTo(
  app: FastifyInstance,
  url: string,
  token: string,
  file: Buffer,
  filename = 'ventas.xlsx',
  field = 'file',
) {
  const mp = multipart(file, filename, field);
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { ...mp.headers, authorization: `Bearer ${token}` },
    payload: mp.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

export function upload(
  app: FastifyInstance,
  token: string,
  file: Buffer,
  filename = 'ventas.xlsx',
  field = 'file',
) {
  return uploadTo(app, '/api/sales/import', token, file, filename, field);
}

const VIN_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
/** A prefix of 5 letters unique to the test file; VINs are prefix + 12 digits. */
export function vinFactory() {
  let prefix = '';
  for (let i = 0; i < 5; i++) prefix += VIN_CHARS[Math.floor(Math.random() * VIN_CHARS.length)];
  let n = 0;
  return () => `${prefix}${String(++n).padStart(12, '0')}`;
}

/** A valid template row. */
export function saleRow(dealerCode: string, vin: string, over: Partial<Record<string, Cell>> = {}): Cell[] {
  const base: Record<string, Cell> = {
    Concesionario: dealerCode,
    Sede: null,
    'Fecha Venta': '2025-03-15',
    Factura: 'F001-000123',
    'Tipo Documento': 'DNI',
    Documento: '45678912',
    Cliente: 'María Quispe',
    Email: 'maria.quispe@example.com',
    Telefono: '987654321',
    VIN: vin,
    Marca: 'V',
    Modelo: 'Modelo Uno',
    Año: 2025,
    Vendedor: 'José Ramos',
    'Forma de Pago': 'E',
    ...over,
  };
  return SALES_IMPORT_HEADERS.map((h) => base[h] ?? null);
}

/** The same row as a JSON object for /api/sales/batch. */
export function saleObject(dealerCode: string, vin: string, over: Record<string, unknown> = {}) {
  return {
    dealer_code: dealerCode,
    sale_date: '2025-03-15',
    invoice: 'F001-000123',
    document_type: 'DNI',
    document_number: '45678912',
    buyer_name: 'María Quispe',
    email: 'maria.quispe@example.com',
    phone: '987654321',
    vin,
    brand: 'V',
    model: 'Modelo Uno',
    year: 2025,
    seller: 'José Ramos',
    payment_method: 'E',
    ...over,
  };
}

export async function createDealer(
  app: FastifyInstance,
  token: string,
  code: string,
  name = `Concesionario ${code}`,
) {
  const res = await api(app, 'POST', '/api/dealers', { token, body: { code, name } });
  if (res.status !== 200) throw new Error(`dealer ${code}: ${JSON.stringify(res.body)}`);
  return res.body.result.id as number;
}

export async function countSales(app: FastifyInstance): Promise<number> {
  const [{ n }] = await app.ctx.handle.query<{ n: number }>('select count(*)::int as n from sales');
  return n;
}

export async function setSetting(app: FastifyInstance, key: string, value: string) {
  await app.ctx.handle.query(
    `insert into configurations (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [key, value],
  );
}
