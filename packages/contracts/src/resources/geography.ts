// Countries and Peru's ubigeo: departments hold provinces, provinces hold districts.
import { z } from 'zod';
import { defineContract, field } from './fields';

export const countryContract = defineContract({
  path: 'countries',
  permission: 'Admin.Countries',
  title: 'Paises',
  labels: { code: 'Codigo', name: 'Nombre' },
  pageSize: 5,
  schema: z.object({
    code: field.text('Codigo', 3),
    name: field.text('Nombre', 120),
    active: field.bool('Habilitado'),
  }),
});

export const departmentContract = defineContract({
  path: 'departments',
  permission: 'Admin.Departments',
  title: 'Departamentos',
  labels: { code: 'Codigo', name: 'Nombre' },
  pageSize: 10,
  schema: z.object({
    code: field.text('Codigo', 2),
    name: field.text('Nombre', 120),
    active: field.bool('Habilitado'),
  }),
});

export const provinceContract = defineContract({
  path: 'provinces',
  permission: 'Admin.Provinces',
  title: 'Provincias',
  labels: { code: 'Codigo', name: 'Nombre', department_id: 'Departamento', department_name: 'Departamento' },
  pageSize: 10,
  schema: z.object({
    code: field.text('Codigo', 4),
    department_id: field.ref('Departamento'),
    name: field.text('Nombre', 120),
    active: field.bool('Habilitado'),
  }),
});

export const districtContract = defineContract({
  path: 'districts',
  permission: 'Admin.Districts',
  title: 'Distritos',
  labels: {
    code: 'Codigo',
    name: 'Nombre',
    province_id: 'Provincia',
    province_name: 'Provincia',
    latitude: 'Latitud',
    longitude: 'Longitud',
  },
  pageSize: 10,
  schema: z.object({
    code: field.text('Codigo', 6),
    province_id: field.ref('Provincia'),
    name: field.text('Nombre', 120),
    latitude: field.optNumber('Latitud', -90, 90),
    longitude: field.optNumber('Longitud', -180, 180),
    active: field.bool('Habilitado'),
  }),
});

export type CountryInput = z.input<typeof countryContract.schema>;
export type DepartmentInput = z.input<typeof departmentContract.schema>;
export type ProvinceInput = z.input<typeof provinceContract.schema>;
export type DistrictInput = z.input<typeof districtContract.schema>;
