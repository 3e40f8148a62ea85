// Organisation: companies, zones, dealers, dealer branches, employees, dealer contacts.
import { z } from 'zod';
import { LICENSE_CATEGORIES } from '../fixed-lists';
import { addressLabels, addressShape, defineContract, field } from './fields';

const licenseCodes = LICENSE_CATEGORIES.map((c) => c.id) as [string, ...string[]];

const companyLabels = {
  name: 'Nombre',
  ruc: 'RUC',
  email: 'Email',
  ...addressLabels,
};
export const companyContract = defineContract({
  path: 'companies',
  permission: 'Admin.Companies',
  title: 'Empresas',
  labels: companyLabels,
  pageSize: 5,
  schema: z.object({
    name: field.text(companyLabels.name, 150),
    ruc: field.optText(companyLabels.ruc, 11),
    email: field.optEmail(companyLabels.email),
    ...addressShape,
    active: field.bool('Habilitado'),
  }),
});

const zoneLabels = { code: 'Codigo', name: 'Nombre' };
export const zoneContract = defineContract({
  path: 'zones',
  permission: 'Admin.Zones',
  title: 'Zonas',
  labels: zoneLabels,
  pageSize: 5,
  schema: z.object({
    code: field.optText(zoneLabels.code, 20),
    name: field.text(zoneLabels.name, 120),
    active: field.bool('Habilitado'),
  }),
});

const dealerLabels = {
  code: 'Codigo',
  name: 'Nombre',
  ruc: 'RUC',
  company_id: 'Empresa',
  zone_id: 'Zona',
  zone_name: 'Zona',
  department_id: 'Departamento',
  province_id: 'Provincia',
  district_id: 'Distrito',
  department_name: 'Departamento',
  province_name: 'Provincia',
  district_name: 'Distrito',
  email: 'Email',
  ...addressLabels,
};
export const dealerContract = defineContract({
  path: 'dealers',
  permission: 'Admin.Dealers',
  title: 'Concesionarios',
  labels: dealerLabels,
  pageSize: 5,
  schema: z.object({
    code: field.text(dealerLabels.code, 20),
    name: field.text(dealerLabels.name, 150),
    ruc: field.optText(dealerLabels.ruc, 11),
    company_id: field.optRef(dealerLabels.company_id),
    zone_id: field.optRef(dealerLabels.zone_id),
    department_id: field.optRef(dealerLabels.department_id),
    province_id: field.optRef(dealerLabels.province_id),
    district_id: field.optRef(dealerLabels.district_id),
    email: field.optEmail(dealerLabels.email),
    ...addressShape,
    active: field.bool('Habilitado'),
  }),
});

const branchLabels = {
  dealer_id: 'Concesionario',
  dealer_name: 'Concesionario',
  code: 'Codigo',
  name: 'Nombre',
  department_id: 'Departamento',
  province_id: 'Provincia',
  district_id: 'Distrito',
  district_name: 'Distrito',
  ...addressLabels,
};
export const dealerBranchContract = defineContract({
  path: 'dealer-branches',
  permission: 'Admin.DealerBranches',
  title: 'Sedes',
  labels: branchLabels,
  pageSize: 5,
  schema: z.object({
    dealer_id: field.ref(branchLabels.dealer_id),
    code: field.optText(branchLabels.code, 20),
    name: field.text(branchLabels.name, 150),
    department_id: field.optRef(branchLabels.department_id),
    province_id: field.optRef(branchLabels.province_id),
    district_id: field.optRef(branchLabels.district_id),
    ...addressShape,
    active: field.bool('Habilitado'),
  }),
});

const employeeLabels = {
  dealer_id: 'Concesionario',
  dealer_name: 'Concesionario',
  dealer_branch_id: 'Sede',
  dealer_branch_name: 'Sede',
  first_name: 'Nombres',
  last_name: 'Apellidos',
  document_number: 'Nro. Documento',
  position: 'Cargo',
  email: 'Email',
  phone: 'Telefono',
  license_category: 'Categoria de licencia',
};
export const employeeContract = defineContract({
  path: 'employees',
  permission: 'Admin.Employees',
  title: 'Empleados',
  labels: employeeLabels,
  pageSize: 5,
  schema: z.object({
    dealer_id: field.ref(employeeLabels.dealer_id),
    dealer_branch_id: field.optRef(employeeLabels.dealer_branch_id),
    first_name: field.text(employeeLabels.first_name, 100),
    last_name: field.text(employeeLabels.last_name, 100),
    document_number: field.optText(employeeLabels.document_number, 20),
    position: field.optText(employeeLabels.position, 100),
    email: field.optEmail(employeeLabels.email),
    phone: field.optText(employeeLabels.phone, 30),
    license_category: field.oneOf(employeeLabels.license_category, licenseCodes),
    active: field.bool('Habilitado'),
  }),
});

const contactLabels = {
  dealer_id: 'Concesionario',
  dealer_name: 'Concesionario',
  name: 'Nombre',
  position: 'Cargo',
  email: 'Email',
  phone: 'Telefono',
  receives_alerts: 'Recibe alertas',
};
export const dealerContactContract = defineContract({
  path: 'dealer-contacts',
  permission: 'Admin.DealerContacts',
  title: 'Contactos',
  labels: contactLabels,
  pageSize: 5,
  schema: z.object({
    dealer_id: field.ref(contactLabels.dealer_id),
    name: field.text(contactLabels.name, 150),
    position: field.optText(contactLabels.position, 100),
    email: field.optEmail(contactLabels.email),
    phone: field.optText(contactLabels.phone, 30),
    receives_alerts: field.bool(contactLabels.receives_alerts),
    active: field.bool('Habilitado'),
  }),
});

export type CompanyInput = z.input<typeof companyContract.schema>;
export type ZoneInput = z.input<typeof zoneContract.schema>;
export type DealerInput = z.input<typeof dealerContract.schema>;
export type DealerBranchInput = z.input<typeof dealerBranchContract.schema>;
export type EmployeeInput = z.input<typeof employeeContract.schema>;
export type DealerContactInput = z.input<typeof dealerContactContract.schema>;
