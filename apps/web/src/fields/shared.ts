// Fields that several screens declare the same way: the dealer of a record and its branch.
import type { FieldDef } from './types';

/** The dealer of a record: an autocomplete over the dealers (required unless `over` says not). */
export function dealerField(over: Partial<FieldDef> = {}): FieldDef {
  return {
    name: 'dealer_id',
    type: 'select',
    label: 'Concesionario',
    resource: 'dealers',
    autocomplete: true,
    required: true,
    ...over,
  };
}

/** The branch (sede) of the chosen dealer: its options follow dealer_id, and a new dealer clears it. */
export function dealerBranchField(over: Partial<FieldDef> = {}): FieldDef {
  return {
    name: 'dealer_branch_id',
    type: 'select',
    label: 'Sede',
    resource: 'dealer-branches',
    dependsOn: { field: 'dealer_id', filter: 'dealer_id' },
    clearable: true,
    ...over,
  };
}
