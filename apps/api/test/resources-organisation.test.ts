import {
  dealerBranchResource,
  dealerContactResource,
  dealerResource,
  districtResource,
  employeeResource,
  provinceResource,
} from '../src/modules/organisation/organisation.resources';
import { resourceSuite, servedResource } from './resource-suite';

const counter = () => {
  let n = 0;
  return () => ++n;
};
const dep = counter();
const prov = counter();
const dist = counter();
const ctry = counter();
const letters = (n: number) =>
  String.fromCharCode(65 + Math.floor(n / 26)) + String.fromCharCode(65 + (n % 26));

resourceSuite([
  {
    resource: servedResource('companies'),
    sample: (m) => ({ name: `Empresa ${m} SAC`, ruc: '20123456789' }),
    update: (m) => ({ name: `Empresa ${m}` }),
    invalid: { body: () => ({ ruc: '1' }), field: 'name', message: 'Nombre es obligatorio' },
  },
  {
    resource: servedResource('zones'),
    sample: (m) => ({ code: m.slice(0, 20), name: `Zona ${m}` }),
    update: (m) => ({ name: `Zona ${m}`, active: false }),
    invalid: { body: () => ({ name: 12 }), field: 'name', message: 'Nombre no es válido' },
  },
  {
    resource: dealerResource,
    sample: (m) => ({
      code: m,
      name: `Concesionario ${m}`,
      department_id: 15,
      address_address1: 'Av. Arequipa 100',
    }),
    update: (m) => ({ name: `Concesionario ${m}` }),
    invalid: { body: () => ({ name: 'Sin código' }), field: 'code', message: 'Código es obligatorio' },
  },
  {
    resource: dealerBranchResource,
    sample: (m, ctx) => ({ dealer_id: ctx.dealerId, name: `Sede ${m}` }),
    update: (m) => ({ name: `Sede ${m}` }),
    invalid: {
      body: () => ({ name: 'Sede sin dealer' }),
      field: 'dealer_id',
      message: 'Concesionario es obligatorio',
    },
  },
  {
    resource: employeeResource,
    sample: (m, ctx) => ({
      dealer_id: ctx.dealerId,
      first_name: `Ana ${m}`,
      last_name: 'Quispe',
      license_category: 'A-I',
    }),
    update: () => ({ position: 'Asesor de ventas' }),
    invalid: {
      body: (ctx) => ({
        dealer_id: ctx.dealerId,
        first_name: 'Ana',
        last_name: 'Quispe',
        license_category: 'Z',
      }),
      field: 'license_category',
      message: 'Categoría de licencia no es válido',
    },
  },
  {
    resource: dealerContactResource,
    sample: (m, ctx) => ({ dealer_id: ctx.dealerId, name: `Contacto ${m}`, email: 'contacto@example.com' }),
    update: () => ({ email: 'nuevo@example.com' }),
    invalid: {
      body: (ctx) => ({ dealer_id: ctx.dealerId, name: 'Contacto', email: 'no-es-email' }),
      field: 'email',
      message: 'Debe ser un Email válido.',
    },
  },
  {
    resource: servedResource('countries'),
    sample: (m) => ({ code: `9${letters(ctry())}`, name: `País ${m}` }),
    update: (m) => ({ name: `País ${m}` }),
    invalid: {
      body: () => ({ code: 'ABCD', name: 'x' }),
      field: 'code',
      message: 'Código admite como máximo 3 caracteres',
    },
  },
  {
    resource: servedResource('departments'),
    sample: (m) => ({ code: letters(dep()), name: `Departamento ${m}` }),
    update: (m) => ({ name: `Departamento ${m}` }),
    invalid: { body: () => ({ code: 'QQ' }), field: 'name', message: 'Nombre es obligatorio' },
  },
  {
    resource: provinceResource,
    sample: (m) => ({
      code: `9${String(prov()).padStart(3, '0')}`,
      department_id: 15,
      name: `Provincia ${m}`,
    }),
    update: (m) => ({ name: `Provincia ${m}` }),
    invalid: {
      body: () => ({ code: '9999', name: 'x' }),
      field: 'department_id',
      message: 'Departamento es obligatorio',
    },
  },
  {
    resource: districtResource,
    sample: (m) => ({ code: `9${String(dist()).padStart(5, '0')}`, province_id: 1, name: `Distrito ${m}` }),
    update: (m) => ({ name: `Distrito ${m}`, latitude: -12.05 }),
    invalid: {
      body: () => ({ code: '999999', province_id: 1, name: 'x', latitude: 200 }),
      field: 'latitude',
      message: 'Latitud el valor máximo es 90',
    },
  },
]);
