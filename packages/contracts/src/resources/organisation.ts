// Organisation: companies, zones, dealers, dealer branches, employees, dealer contacts.

import { LICENSE_CATEGORIES } from '../fixed-lists';
import { addressFields, defineContract, f } from './fields';

export const companyContract = defineContract(
  {
    path: 'companies',
    permission: 'Admin.Companies',
    title: 'Empresas',
    sort: 'name',
    lookup: 'authenticated',
    // Without Admin.Companies.view a select gets the name only (no RUC, e-mail, address).
    lookupFields: ['id', 'name', 'active'],
    menu: { group: 'organization', name: 'company', icon: 'Apartment' },
  },
  {
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
    ruc: f.optText('RUC', 11, { search: true, sort: true, column: true }),
    email: f.optEmail('Email', { search: true, column: true }),
    ...addressFields,
    active: f.active(),
    created_at: f.created(),
  },
);

export const zoneContract = defineContract(
  {
    path: 'zones',
    permission: 'Admin.Zones',
    title: 'Zonas',
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'organization', name: 'zone', icon: 'Map' },
  },
  {
    code: f.optText('Código', 20, { search: true, sort: true, column: { width: 120 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
    created_at: f.created(),
  },
);

export const dealerContract = defineContract(
  {
    path: 'dealers',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.Dealers',
    title: 'Concesionarios',
    sort: 'name',
    lookup: 'authenticated',
    // Without Admin.Dealers.view a select gets code and name only (no RUC, e-mail, address).
    lookupFields: ['id', 'code', 'name', 'active'],
    menu: { group: 'organization', name: 'dealer', icon: 'Store' },
  },
  {
    code: f.text('Código', 20, { search: true, sort: true, column: { width: 90 } }),
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
    ruc: f.optText('RUC', 11, { search: true, sort: true }),
    email: f.optEmail('Email'),
    company_id: f.optRef('Empresa', 'companies', { filter: true }),
    zone_id: f.optRef('Zona', 'zones', { filter: true, input: 'select' }),
    zone_name: f.display('Zona', { search: true, sort: true, column: true }),
    // The dealer's location is its ubigeo; the address_ ubigeo follows it.
    department_id: f.optRef('Departamento', 'departments', { filter: true }),
    province_id: f.optRef('Provincia', 'provinces', { filter: true }),
    district_id: f.optRef('Distrito', 'districts', { filter: true }),
    department_name: f.display('Departamento', { column: true }),
    province_name: f.display('Provincia'),
    district_name: f.display('Distrito', { search: true, sort: true }),
    full_address: f.display('Dirección completa', { column: { flex: 2.5, header: 'Dirección' } }),
    ...addressFields,
    address_phone: { ...addressFields.address_phone, column: { width: 110 } },
    active: f.active(),
    created_at: f.created(),
  },
);

export const dealerBranchContract = defineContract(
  {
    path: 'dealer-branches',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.DealerBranches',
    title: 'Sedes',
    sort: 'name',
    lookup: 'authenticated',
    // Without Admin.DealerBranches.view a select gets the branch and its dealer, no address.
    lookupFields: ['id', 'code', 'name', 'dealer_id', 'dealer_name', 'active'],
    menu: { group: 'organization', name: 'dealer-branch', icon: 'Storefront' },
  },
  {
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 2 } }),
    code: f.optText('Código', 20, { search: true, sort: true, column: { width: 110 } }),
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
    department_id: f.optRef('Departamento', 'departments'),
    province_id: f.optRef('Provincia', 'provinces'),
    district_id: f.optRef('Distrito', 'districts', { filter: true }),
    district_name: f.display('Distrito', { column: true }),
    ...addressFields,
    active: f.active(),
    created_at: f.created(),
  },
);

export const employeeContract = defineContract(
  {
    path: 'employees',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.Employees',
    title: 'Empleados',
    sort: 'last_name',
    lookupOrder: 'last_name',
    menu: { group: 'organization', name: 'employee', icon: 'Badge' },
  },
  {
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 1.5 } }),
    dealer_branch_id: f.optRef('Sede', 'dealer-branches', { within: 'dealer_id', filter: true }),
    dealer_branch_name: f.display('Sede', { column: true }),
    first_name: f.text('Nombres', 100, { search: true, sort: true, column: true }),
    last_name: f.text('Apellidos', 100, { search: true, sort: true, column: true }),
    document_number: f.optText('Nro. Documento', 20, { search: true, sort: true, column: { width: 130 } }),
    position: f.optText('Cargo', 100, { sort: true, column: true }),
    email: f.optEmail('Email', { search: true }),
    phone: f.optText('Teléfono', 30, { input: 'phone' }),
    license_category: f.oneOf('Categoría de licencia', LICENSE_CATEGORIES, {
      generalType: 'LICENSE_CATEGORIES',
      filter: true,
      column: { width: 120 },
    }),
    active: f.active(),
    created_at: f.created(),
  },
);

export const dealerContactContract = defineContract(
  {
    path: 'dealer-contacts',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.DealerContacts',
    title: 'Contactos',
    sort: 'name',
    menu: { group: 'organization', name: 'dealer-contact', icon: 'ContactMail' },
  },
  {
    dealer_id: f.ref('Concesionario', 'dealers', { filter: true }),
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 1.5 } }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: { flex: 1.5 } }),
    position: f.optText('Cargo', 100, { search: true, sort: true, column: true }),
    email: f.optEmail('Email', { search: true, sort: true, column: true }),
    phone: f.optText('Teléfono', 30, { input: 'phone', column: true }),
    receives_alerts: f.bool('Recibe alertas', { filter: true, column: { width: 130 } }),
    active: f.active(),
    created_at: f.created(),
  },
);

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const ORGANISATION_CONTRACTS = [
  companyContract,
  zoneContract,
  dealerContract,
  dealerBranchContract,
  employeeContract,
  dealerContactContract,
] as const;
