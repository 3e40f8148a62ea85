// CEM sales: the declared resource (list, dialog, export) and the calls beyond CRUD: xlsx
// import and template, JSON batch, pull from the external sales API, dealers with sales,
// and the survey answers of a sale.
import {
  DATE_RE,
  saleContract,
  saleRecordErrors,
  salesApiRequestSchema,
  salesBatchSchema,
} from '@app/contracts';
import { eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fetchSalesFromApi } from '../../connectors/sales-api';
import { currentUser, DOWNLOAD_ROUTE, requirePermission } from '../../core/auth';
import { ok } from '../../core/envelope';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { parseBody, parseId, type QueryParams, qInt } from '../../core/http';
import { perAddressLimit } from '../../core/rate-limit';
import { defineResource, fromContract } from '../../core/resource';
import { registerResource } from '../../core/resource-routes';
import { withUploadedFile } from '../../core/upload';
import { contentDisposition } from '../../core/xlsx';
import { dealerBranches, dealers, manufacturerModels, manufacturers } from '../../db/schema';
import { withAnswers } from '../quiz/quiz.answers';
import { importSaleRows, importSaleStream, rowsFromObjects } from './sales.rows';
import { sales } from './sales.tables';
import { readSalesBatches, SALES_UPLOAD, salesTemplateBuffer } from './sales.xlsx';

const dateFilter = (label: string, op: typeof gte) => (v: string) => {
  if (!DATE_RE.test(v)) throw ValidationError.field('filter', `${label}: formato de fecha YYYY-MM-DD`);
  return op(sales.sale_date, v);
};

export const saleResource = defineResource({
  ...fromContract(saleContract),
  table: sales,
  joins: [
    { table: dealers, on: eq(sales.dealer_id, dealers.id) },
    { table: dealerBranches, on: eq(sales.dealer_branch_id, dealerBranches.id) },
    { table: manufacturers, on: eq(sales.manufacturer_id, manufacturers.id) },
  ],
  display: {
    dealer_name: dealers.name,
    dealer_code: dealers.code,
    dealer_branch_name: dealerBranches.name,
    manufacturer_name: manufacturers.name,
  },
  searchable: ['vin', 'buyer_name', 'invoice', 'document_number', 'email', 'model_name', 'seller'],
  sortable: [
    'id',
    'sale_date',
    'invoice',
    'buyer_name',
    'vin',
    'dealer_name',
    'manufacturer_name',
    'model_name',
    'year',
    'survey_status',
    'created_at',
  ],
  defaultSort: { field: 'sale_date', order: 'desc' },
  filters: ['dealer_id', 'dealer_branch_id', 'manufacturer_id', 'survey_status', 'payment_method', 'year'],
  filterHandlers: {
    date_from: dateFilter('Desde', gte),
    date_to: dateFilter('Hasta', lte),
  },
  dealerScoped: 'dealer_id',
  hooks: {
    async beforeSave(data, ctx) {
      // The survey status follows invitations and answers; it is not edited by hand.
      delete data.survey_status;
      if (typeof data.vin === 'string') data.vin = data.vin.toUpperCase();
      // An update is checked as the whole record it leaves (the partial schema cannot see it).
      const problems = saleRecordErrors({ ...ctx.before, ...data });
      if (problems.length) throw new ValidationError(problems);
      const dealerId = data.dealer_id ?? ctx.before?.dealer_id;
      const branchId = 'dealer_branch_id' in data ? data.dealer_branch_id : ctx.before?.dealer_branch_id;
      if (branchId != null) {
        const [b] = await ctx.tx
          .select({ d: dealerBranches.dealer_id })
          .from(dealerBranches)
          .where(eq(dealerBranches.id, branchId));
        if (!b || b.d !== Number(dealerId))
          throw ValidationError.field('dealer_branch_id', 'La sede no pertenece al concesionario');
      }
      const brandId = data.manufacturer_id ?? ctx.before?.manufacturer_id;
      const modelId =
        'manufacturer_model_id' in data ? data.manufacturer_model_id : ctx.before?.manufacturer_model_id;
      if (modelId != null) {
        const [m] = await ctx.tx
          .select({ b: manufacturerModels.manufacturer_id })
          .from(manufacturerModels)
          .where(eq(manufacturerModels.id, modelId));
        if (!m || m.b !== Number(brandId))
          throw ValidationError.field('manufacturer_model_id', 'El modelo no pertenece a la marca');
      }
      return data;
    },
    async beforeDelete(ctx) {
      const answered = await ctx.tx.execute(
        sql`select 1 from quiz_responses where sale_id = ${ctx.id} limit 1`,
      );
      if (answered.rows.length)
        throw new ConflictError('No se puede eliminar: la venta tiene una encuesta respondida');
    },
  },
  listColumns: [
    'id',
    'dealer_name',
    'dealer_branch_name',
    'sale_date',
    'invoice',
    'document_type',
    'document_number',
    'buyer_name',
    'email',
    'phone',
    'vin',
    'manufacturer_name',
    'model_name',
    'year',
    'seller',
    'payment_method',
    'survey_status',
  ],
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function salesRoutes(app: FastifyInstance): void {
  const handle = () => app.ctx.handle;
  const tags = ['CEM'];

  app.get(
    '/api/sales/template',
    {
      preHandler: requirePermission('Sales.view'),
      config: DOWNLOAD_ROUTE,
      schema: { tags, summary: 'Plantilla vacia de carga de ventas' },
    },
    async (_request, reply) => {
      const buf = await salesTemplateBuffer();
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition('Plantilla_Ventas.xlsx'))
        .send(buf);
    },
  );

  app.post(
    '/api/sales/import',
    {
      preHandler: requirePermission('Sales.store'),
      config: { rateLimit: perAddressLimit('upload') },
      schema: {
        tags,
        summary: 'Carga de ventas desde .xlsx (campo file); todo o nada, con reporte por fila',
      },
    },
    async (request) => {
      const user = currentUser(request);
      return ok(
        await withUploadedFile(request, SALES_UPLOAD, (upload) =>
          importSaleStream(handle(), readSalesBatches(upload.file, upload.bytes), { user, source: 'import' }),
        ),
      );
    },
  );

  app.post(
    '/api/sales/batch',
    {
      preHandler: requirePermission('Sales.store'),
      bodyLimit: 50 * 1024 * 1024,
      schema: { tags, summary: 'Ventas enviadas como JSON {rows}; mismas reglas que la carga' },
    },
    async (request) => {
      const user = currentUser(request);
      const body = parseBody(salesBatchSchema, request.body);
      return ok(await importSaleRows(handle(), rowsFromObjects(body.rows), { user, source: 'batch' }));
    },
  );

  app.post(
    '/api/sales-api',
    {
      preHandler: requirePermission('Sales.store'),
      schema: { tags, summary: 'Trae las ventas del sistema externo (SALES_API_URL) y las guarda' },
    },
    async (request) => {
      const user = currentUser(request);
      const body = parseBody(salesApiRequestSchema, request.body ?? {});
      let dealerCode: string | undefined;
      if (user.dealerId !== null) {
        const [d] = await handle().query<{ code: string }>('select code from dealers where id = $1', [
          user.dealerId,
        ]);
        dealerCode = d?.code;
      }
      const objects = await fetchSalesFromApi(handle(), { ...body, dealer_code: dealerCode });
      if (objects.length === 0) return ok({ saved: 0, total: 0, failed: 0, report: [] });
      return ok(await importSaleRows(handle(), rowsFromObjects(objects), { user, source: 'sales-api' }));
    },
  );

  app.get(
    '/api/sale-dealers',
    {
      preHandler: requirePermission('Sales.view'),
      schema: { tags, summary: 'Concesionarios con ventas en el periodo' },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query as QueryParams;
      const year = qInt(q, 'year', 'Año', 2000, 2100);
      const month = qInt(q, 'month', 'Mes', 1, 12);
      const params: unknown[] = [];
      const where: string[] = [];
      if (year) {
        params.push(year);
        where.push(`extract(year from s.sale_date) = $${params.length}`);
      }
      if (month) {
        params.push(month);
        where.push(`extract(month from s.sale_date) = $${params.length}`);
      }
      if (user.dealerId !== null) {
        params.push(user.dealerId);
        where.push(`s.dealer_id = $${params.length}`);
      }
      const rows = await handle().query(
        `select d.id, d.code, d.name, count(*)::int as sales from sales s join dealers d on d.id = s.dealer_id
         ${where.length ? `where ${where.join(' and ')}` : ''} group by d.id, d.code, d.name order by d.name`,
        params,
      );
      return ok(rows);
    },
  );

  app.get(
    '/api/sales/:id/responses',
    {
      preHandler: requirePermission('Sales.view'),
      schema: { tags, summary: 'Invitaciones y respuestas de encuesta de una venta' },
    },
    async (request) => {
      const user = currentUser(request);
      const id = parseId((request.params as { id: string }).id);
      const [sale] = await handle().query<{ id: number; dealer_id: number }>(
        'select id, dealer_id from sales where id = $1',
        [id],
      );
      if (!sale || (user.dealerId !== null && sale.dealer_id !== user.dealerId)) throw new NotFoundError();
      const invitations = await handle().query(
        `select i.id, i.quiz_id, q.title as quiz_title, q.kind as quiz_kind, i.email, i.sent_at, i.reminded_at,
           i.reminder_count, i.expires_at, i.answered_at, i.email_status,
           (i.answered_at is null and i.expires_at <= now()) as expired
         from quiz_invitations i join quizzes q on q.id = i.quiz_id where i.sale_id = $1 order by i.id`,
        [id],
      );
      const responses = await handle().query<{ id: number }>(
        `select r.id, r.quiz_id, q.title as quiz_title, q.kind as quiz_kind, r.answered_at
         from quiz_responses r join quizzes q on q.id = r.quiz_id where r.sale_id = $1 order by r.id`,
        [id],
      );
      return ok({
        sale_id: id,
        invitations,
        responses: await withAnswers(handle(), responses),
      });
    },
  );
}

export function salesModule(app: FastifyInstance): void {
  registerResource(app, saleResource);
  salesRoutes(app);
}
