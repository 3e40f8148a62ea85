// Info Taller: the declared workshop-infos resource (list, dialog, export, dealer scope). The
// import, batch, template and report-info are actions in workshop.actions.ts.
import { WORKSHOP_DEFAULTS, workshopInfoContract } from '@app/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { defineResource, fromContract, type HookContext, type Row } from '../../core/resource';
import { dealerBranches, dealers } from '../../db/schema';
import { workshopInfos } from './workshop.tables';

async function assertBranchOfDealer(tx: Executor, branchId: unknown, dealerId: unknown): Promise<void> {
  if (branchId == null || dealerId == null) return;
  const [b] = await tx
    .select({ dealer_id: dealerBranches.dealer_id })
    .from(dealerBranches)
    .where(eq(dealerBranches.id, Number(branchId)));
  if (!b || b.dealer_id !== Number(dealerId))
    throw ValidationError.field('dealer_branch_id', 'La sede no pertenece al concesionario');
}

async function beforeSave(data: Row, ctx: HookContext): Promise<Row> {
  if (ctx.action === 'create') {
    // SPEC §3: a new workshop record defaults to dealer 1 (a dealer user's is its own).
    data.dealer_id ??= WORKSHOP_DEFAULTS.dealer_id;
    data.source = 'form';
  } else if ('dealer_id' in data && data.dealer_id == null) delete data.dealer_id;
  data.updated_by = ctx.user.id;
  const dealerId = data.dealer_id ?? ctx.before?.dealer_id;
  const branchId = 'dealer_branch_id' in data ? data.dealer_branch_id : ctx.before?.dealer_branch_id;
  await assertBranchOfDealer(ctx.tx, branchId, dealerId);
  return data;
}

export const workshopInfoResource = defineResource({
  ...fromContract(workshopInfoContract, { labels: { dealer_code: 'Código concesionario' } }),
  table: workshopInfos,
  joins: [
    { table: dealers, on: eq(workshopInfos.dealer_id, dealers.id) },
    { table: dealerBranches, on: eq(workshopInfos.dealer_branch_id, dealerBranches.id) },
  ],
  display: {
    dealer_name: dealers.name,
    dealer_code: dealers.code,
    dealer_branch_name: dealerBranches.name,
    period: sql<number>`(${workshopInfos.year} * 100 + ${workshopInfos.month})`,
  },
  hidden: ['updated_by'],
  dealerScoped: 'dealer_id',
  plainFilters: ['dealer_id', 'year', 'month'],
  listColumns: [
    'id',
    'dealer_code',
    'dealer_name',
    'dealer_branch_name',
    'year',
    'month',
    'work_orders_opened',
    'work_orders_closed',
    'hours_sold',
    'hours_worked',
    'labour_revenue',
    'parts_revenue',
    'accessories_revenue',
    'warranty_orders',
    'technicians',
    'notes',
    'source',
  ],
  hooks: { beforeSave },
});
