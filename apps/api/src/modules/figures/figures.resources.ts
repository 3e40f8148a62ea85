// The declared lists of the module: periods, figures, fees and capacities, read-only and
// dealer-scoped (a dealer user lists, searches, exports and gets only its own rows). Their
// writes are the grid actions (one transaction each, with the period rules); these
// declarations are also the dealer scope those actions read with (scopeCondition).
import {
  capacityContract,
  feeValueContract,
  figurePeriodContract,
  figureValueContract,
} from '@app/contracts';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { defineResource, fromContract } from '../../core/resource';
import { concepts, dealerBranches, dealers } from '../../db/schema';
import { capacities, fees, figurePeriods, figures } from './figures.tables';

const userName = (col: PgColumn) => sql<string | null>`(select u.full_name from users u where u.id = ${col})`;

export const figurePeriodResource = defineResource({
  ...fromContract(figurePeriodContract),
  table: figurePeriods,
  dealerScoped: 'dealer_id',
  joins: [{ table: dealers, on: eq(figurePeriods.dealer_id, dealers.id) }],
  display: {
    dealer_name: dealers.name,
    enabled_by_name: userName(figurePeriods.enabled_by),
    confirmed_by_name: userName(figurePeriods.confirmed_by),
  },
  readOnly: true,
});

/** The stored cells of a grid (figures or fees), with their dealer's and concept's names. */
function gridCellResource(
  contract: typeof figureValueContract | typeof feeValueContract,
  table: typeof figures | typeof fees,
) {
  return defineResource({
    ...fromContract(contract),
    table,
    dealerScoped: 'dealer_id',
    joins: [
      { table: dealers, on: eq(table.dealer_id, dealers.id) },
      { table: concepts, on: eq(table.concept_id, concepts.id) },
    ],
    display: { dealer_name: dealers.name, concept_name: concepts.name },
    readOnly: true,
  });
}

export const figureValueResource = gridCellResource(figureValueContract, figures);
export const feeValueResource = gridCellResource(feeValueContract, fees);

export const capacityResource = defineResource({
  ...fromContract(capacityContract),
  table: capacities,
  dealerScoped: 'dealer_id',
  joins: [
    { table: dealers, on: eq(capacities.dealer_id, dealers.id) },
    { table: dealerBranches, on: eq(capacities.dealer_branch_id, dealerBranches.id) },
  ],
  display: { dealer_name: dealers.name, branch_name: dealerBranches.name },
  readOnly: true,
});

export const figuresResources = [
  figurePeriodResource,
  figureValueResource,
  feeValueResource,
  capacityResource,
];
