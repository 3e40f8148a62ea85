export * from './brands';
export * from './catalogues';
export * from './fields';
export * from './geography';
export * from './heads';
export * from './organisation';
export * from './preferences';
export * from './security';

import { capacityContract, feeValueContract, figurePeriodContract, figureValueContract } from '../figures';
import { alertContract, questionContract, quizContract } from '../quiz';
import { saleContract } from '../sales';
import { manufacturerContract, manufacturerModelContract } from './brands';
import { categoryContract, conceptContract } from './catalogues';
import { countryContract, departmentContract, districtContract, provinceContract } from './geography';
import {
  companyContract,
  dealerBranchContract,
  dealerContactContract,
  dealerContract,
  employeeContract,
  zoneContract,
} from './organisation';
import { configurationContract, generalTypeContract, typeValueContract } from './preferences';
import { roleContract, tabContract, userContract } from './security';

/**
 * Every audited resource's contract by its API path: what the audit screen titles and filters
 * by, the generic screen of a menu entry, and what the server's registry is checked against
 * (apps/api/test/registry.test.ts). The audit trail itself (auditLogContract) is not audited.
 */
export const RESOURCE_CONTRACTS = {
  companies: companyContract,
  zones: zoneContract,
  dealers: dealerContract,
  'dealer-branches': dealerBranchContract,
  employees: employeeContract,
  'dealer-contacts': dealerContactContract,
  countries: countryContract,
  departments: departmentContract,
  provinces: provinceContract,
  districts: districtContract,
  manufacturers: manufacturerContract,
  'manufacturer-models': manufacturerModelContract,
  concepts: conceptContract,
  categories: categoryContract,
  'general-types': generalTypeContract,
  'type-values': typeValueContract,
  configurations: configurationContract,
  users: userContract,
  roles: roleContract,
  tabs: tabContract,
  sales: saleContract,
  quizzes: quizContract,
  'quiz-questions': questionContract,
  'quiz-alerts': alertContract,
  'figure-periods': figurePeriodContract,
  'figure-values': figureValueContract,
  'fee-values': feeValueContract,
  'workshop-capacities': capacityContract,
} as const;
