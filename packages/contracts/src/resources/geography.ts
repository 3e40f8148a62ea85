import { defineContract, f } from './fields';

export const countryContract = defineContract(
  {
    path: 'countries',
    permission: 'Admin.Countries',
    title: 'Países',
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'organization', name: 'country', icon: 'Public' },
  },
  {
    code: f.text('Código', 3, { search: true, sort: true, column: { width: 110 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

export const departmentContract = defineContract(
  {
    path: 'departments',
    permission: 'Admin.Departments',
    title: 'Departamentos',
    pageSize: 10,
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'organization', name: 'department', icon: 'Terrain' },
  },
  {
    code: f.text('Código', 2, { search: true, sort: true, column: { width: 110 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

export const provinceContract = defineContract(
  {
    path: 'provinces',
    permission: 'Admin.Provinces',
    title: 'Provincias',
    pageSize: 10,
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'organization', name: 'province', icon: 'Landscape' },
  },
  {
    department_id: f.ref('Departamento', 'departments', { filter: true }),
    code: f.text('Código', 4, { search: true, sort: true, column: { width: 110 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    department_name: f.display('Departamento', { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

export const districtContract = defineContract(
  {
    path: 'districts',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.Districts',
    title: 'Distritos',
    pageSize: 10,
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'organization', name: 'district', icon: 'Place' },
  },
  {
    province_id: f.ref('Provincia', 'provinces', { filter: true }),
    code: f.text('Código', 6, { search: true, sort: true, column: { width: 110 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    province_name: f.display('Provincia', { search: true, sort: true, column: { flex: 2 } }),
    latitude: f.optNumber('Latitud', -90, 90),
    longitude: f.optNumber('Longitud', -180, 180),
    active: f.active(),
  },
);

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const GEOGRAPHY_CONTRACTS = [
  countryContract,
  departmentContract,
  provinceContract,
  districtContract,
] as const;
