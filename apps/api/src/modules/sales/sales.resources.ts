// CEM sales: the declared resource (list, dialog, export, dealer scope). The calls beyond CRUD
// are actions in sales.actions.ts; the import's rules are in sales.import.ts.
import { DATE_RE, saleContract, saleRecordErrors } from '@app/contracts';
import { eq, gte, lte } from 'drizzle-orm';
import { ValidationError } from '../../core/errors';
import { defineResource, fromContract, type HookContext, type Row } from '../../core/resource';
import { dealerBranches, dealers, manufacturerModels, manufacturers } from '../../db/schema';
import type { Tx } from '../../db/types';
import { sales } from './sales.tables';

/**
 * What a module above sales checks before a sale is deleted, throwing to refuse it (quiz: a sale
 * with an answered survey). Sales knows none of them: each registers itself when its module loads.
 */
type SaleDeleteGuard = (tx: Tx, saleId: number) => Promise<void>;
const deleteGuards: SaleDeleteGuard[] = [];

export function guardSaleDelete(guard: SaleDeleteGuard): void {
  deleteGuards.push(guard);
}

const dateFilter = (label: string, op: typeof gte) => (v: string) => {
  if (!DATE_RE.test(v)) throw ValidationError.field('filter', `${label}: formato de fecha YYYY-MM-DD`);
  return op(sales.sale_date, v);
};

/** A catalogue model given on a record (sale, dispatch) must belong to the record's brand (422). */
export async function assertModelOfBrand(data: Row, ctx: HookContext): Promise<void> {
  const brandId = data.manufacturer_id ?? ctx.before?.manufacturer_id;
  const modelId =
    'manufacturer_model_id' in data ? data.manufacturer_model_id : ctx.before?.manufacturer_model_id;
  if (modelId == null) return;
  const [m] = await ctx.tx
    .select({ b: manufacturerModels.manufacturer_id })
    .from(manufacturerModels)
    .where(eq(manufacturerModels.id, modelId));
  if (!m || m.b !== Number(brandId))
    throw ValidationError.field('manufacturer_model_id', 'El modelo no pertenece a la marca');
}

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
      await assertModelOfBrand(data, ctx);
      return data;
    },
    async beforeDelete(ctx) {
      for (const guard of deleteGuards) await guard(ctx.tx, ctx.id);
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
