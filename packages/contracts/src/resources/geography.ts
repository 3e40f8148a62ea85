// Countries and Peru's ubigeo: departments hold provinces, provinces hold districts.
import type { z } from 'zod';
import { defineContract, f } from './fields';
import { RESOURCE_HEADS } from './heads';

export const countryContract = defineContract(RESOURCE_HEADS.countries, {
  code: f.text('Codigo', 3, { search: true, sort: true, column: { width: 110 } }),
  name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
  active: f.active(),
});

export const departmentContract = defineContract(RESOURCE_HEADS.departments, {
  code: f.text('Codigo', 2, { search: true, sort: true, column: { width: 110 } }),
  name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
  active: f.active(),
});

export const provinceContract = defineContract(RESOURCE_HEADS.provinces, {
  department_id: f.ref('Departamento', 'departments', { filter: true }),
  code: f.text('Codigo', 4, { search: true, sort: true, column: { width: 110 } }),
  name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
  department_name: f.display('Departamento', { search: true, sort: true, column: { flex: 2 } }),
  active: f.active(),
});

export const districtContract = defineContract(RESOURCE_HEADS.districts, {
  province_id: f.ref('Provincia', 'provinces', { filter: true }),
  code: f.text('Codigo', 6, { search: true, sort: true, column: { width: 110 } }),
  name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
  province_name: f.display('Provincia', { search: true, sort: true, column: { flex: 2 } }),
  latitude: f.optNumber('Latitud', -90, 90),
  longitude: f.optNumber('Longitud', -180, 180),
  active: f.active(),
});

export type CountryInput = z.input<typeof countryContract.schema>;
export type DepartmentInput = z.input<typeof departmentContract.schema>;
export type ProvinceInput = z.input<typeof provinceContract.schema>;
export type DistrictInput = z.input<typeof districtContract.schema>;
