// Organisation and geography: declarations only, every call comes from the engine.

import {
  dealerBranchContract,
  dealerContactContract,
  dealerContract,
  districtContract,
  employeeContract,
  provinceContract,
} from '@app/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../core/action';
import { ForbiddenError, ValidationError } from '../../core/errors';
import { defineModule } from '../../core/registry';
import { defineResource, fromContract } from '../../core/resource';
import {
  dealerBranches,
  dealerContacts,
  dealers,
  departments,
  districts,
  employees,
  provinces,
  zones,
} from '../../db/schema';

export const dealerResource = defineResource({
  ...fromContract(dealerContract),
  table: dealers,
  // The list shows the zone and the ubigeo names (the company only in the form).
  joins: [
    { table: zones, on: eq(dealers.zone_id, zones.id) },
    { table: departments, on: eq(dealers.department_id, departments.id) },
    { table: provinces, on: eq(dealers.province_id, provinces.id) },
    { table: districts, on: eq(dealers.district_id, districts.id) },
  ],
  display: {
    zone_name: zones.name,
    department_name: departments.name,
    province_name: provinces.name,
    district_name: districts.name,
  },
  computed: {
    // SPEC §3 address column: street, then district, province and department (the names from
    // the catalogue copy on a list page, so the address costs no lookup in SQL).
    full_address: {
      from: ['address_address1', 'address_address2', 'district_name', 'province_name', 'department_name'],
      value: (r) =>
        [r.address_address1, r.address_address2, r.district_name, r.province_name, r.department_name]
          .filter((part) => part != null && part !== '')
          .join(', ') || null,
    },
  },
  listColumns: [
    'id',
    'code',
    'name',
    'ruc',
    'zone_name',
    'department_name',
    'province_name',
    'district_name',
    'full_address',
    'address_phone',
    'address_phone_mobile',
    'email',
    'active',
  ],
  // A dealer user sees only its own dealer (the dealer selector is locked to it).
  dealerScoped: 'id',
  hooks: {
    // Whatever its role holds, a dealer user never creates another dealer.
    beforeSave(data, ctx) {
      if (ctx.action === 'create' && ctx.user.isDealer)
        throw new ForbiddenError('Un usuario de concesionario no puede crear concesionarios');
      return data;
    },
  },
});

/** A branch reference must be a branch of the record's own dealer. */
async function assertBranchOfDealer(tx: Executor, branchId: unknown, dealerId: unknown): Promise<void> {
  if (branchId == null || dealerId == null) return;
  const [branch] = await tx
    .select({ dealer_id: dealerBranches.dealer_id })
    .from(dealerBranches)
    .where(eq(dealerBranches.id, Number(branchId)));
  if (!branch || branch.dealer_id !== Number(dealerId))
    throw ValidationError.field('dealer_branch_id', 'La sede no pertenece al concesionario');
}

export const dealerBranchResource = defineResource({
  ...fromContract(dealerBranchContract),
  table: dealerBranches,
  joins: [
    { table: dealers, on: eq(dealerBranches.dealer_id, dealers.id) },
    { table: districts, on: eq(dealerBranches.district_id, districts.id) },
  ],
  display: { dealer_name: dealers.name, district_name: districts.name },
  dealerScoped: 'dealer_id',
});

export const employeeResource = defineResource({
  ...fromContract(employeeContract),
  table: employees,
  joins: [
    { table: dealers, on: eq(employees.dealer_id, dealers.id) },
    { table: dealerBranches, on: eq(employees.dealer_branch_id, dealerBranches.id) },
  ],
  display: {
    dealer_name: dealers.name,
    dealer_branch_name: dealerBranches.name,
    name: sql<string>`${employees.first_name} || ' ' || ${employees.last_name}`,
  },
  dealerScoped: 'dealer_id',
  hooks: {
    async beforeSave(data, ctx) {
      const dealerId = data.dealer_id ?? ctx.before?.dealer_id;
      const branchId = 'dealer_branch_id' in data ? data.dealer_branch_id : ctx.before?.dealer_branch_id;
      await assertBranchOfDealer(ctx.tx, branchId, dealerId);
      return data;
    },
  },
});

export const dealerContactResource = defineResource({
  ...fromContract(dealerContactContract),
  table: dealerContacts,
  joins: [{ table: dealers, on: eq(dealerContacts.dealer_id, dealers.id) }],
  display: { dealer_name: dealers.name },
  dealerScoped: 'dealer_id',
});

export const provinceResource = defineResource({
  ...fromContract(provinceContract),
  table: provinces,
  joins: [{ table: departments, on: eq(provinces.department_id, departments.id) }],
  display: { department_name: departments.name },
});

export const districtResource = defineResource({
  ...fromContract(districtContract),
  table: districts,
  joins: [{ table: provinces, on: eq(districts.province_id, provinces.id) }],
  display: { province_name: provinces.name },
});

export const organisationResources = [
  dealerResource,
  dealerBranchResource,
  employeeResource,
  dealerContactResource,
  provinceResource,
  districtResource,
];

export const organisationModule = defineModule({ name: 'organisation', resources: organisationResources });
