import { manufacturerModelResource } from '../src/modules/brands/brands.resources';
import { typeValueResource } from '../src/modules/preferences/preferences.resources';
import {
  auditLogResource,
  roleResource,
  tabResource,
  userResource,
} from '../src/modules/security/security.resources';
import { resourceSuite, servedResource } from './resource-suite';

let man = 0;

resourceSuite([
  {
    resource: servedResource('manufacturers'),
    sample: (m) => ({ code: `Q${String.fromCharCode(65 + (man++ % 26))}`, name: `Marca ${m}` }),
    update: (m) => ({ name: `Marca ${m}`, color: '#116F77' }),
    invalid: { body: () => ({ name: 'Sin código' }), field: 'code', message: 'Código es obligatorio' },
  },
  {
    resource: manufacturerModelResource,
    sample: (m) => ({ manufacturer_id: 1, name: `Modelo ${m}` }),
    update: (m) => ({ name: `Modelo ${m}` }),
    invalid: { body: () => ({ name: 'Modelo' }), field: 'manufacturer_id', message: 'Marca es obligatorio' },
  },
  {
    resource: servedResource('concepts'),
    sample: (m) => ({ code: m, name: `Concepto ${m}`, order: 3 }),
    update: () => ({ unit: 'PCT' }),
    invalid: {
      body: () => ({ code: 'C', name: 'Concepto', order: -1 }),
      field: 'order',
      message: 'Orden el valor mínimo es 0',
    },
  },
  {
    resource: servedResource('categories'),
    sample: (m) => ({ name: `Categoría ${m}` }),
    update: () => ({ description: 'Documentos comerciales' }),
    invalid: { body: () => ({ name: '   ' }), field: 'name', message: 'Nombre es obligatorio' },
  },
  {
    resource: servedResource('general-types'),
    sample: (m) => ({ code: m, name: `Tipo ${m}` }),
    update: (m) => ({ name: `Tipo ${m}` }),
    invalid: { body: () => ({ code: 'X' }), field: 'name', message: 'Nombre es obligatorio' },
  },
  {
    resource: typeValueResource,
    sample: (m) => ({ general_type_id: 1, code: m, name: `Valor ${m}`, payload: { color: 'rojo' } }),
    update: () => ({ payload: { color: 'azul' } }),
    invalid: {
      body: () => ({ code: 'X', name: 'x' }),
      field: 'general_type_id',
      message: 'Tipo general es obligatorio',
    },
  },
  // configurations: a closed set of declared keys (no free create/delete), checked in
  // test/config-secrets.test.ts instead.
  {
    resource: userResource,
    sample: (m) => ({
      username: m.toLowerCase(),
      email: `${m.toLowerCase()}@example.com`,
      full_name: `Usuario ${m}`,
      password: 'Password-123',
    }),
    update: (m) => ({ full_name: `Usuario ${m}` }),
    invalid: {
      body: () => ({ username: 'corto', email: 'corto@example.com', full_name: 'Corto', password: '123' }),
      field: 'password',
      message: 'Mínimo 8 caracteres',
    },
  },
  {
    resource: roleResource,
    sample: (m) => ({ name: `Rol ${m}` }),
    update: () => ({ description: 'Rol de pruebas' }),
    invalid: { body: () => ({ description: 'x' }), field: 'name', message: 'Nombre es obligatorio' },
  },
  {
    resource: tabResource,
    sample: (m) => ({ name: m.toLowerCase(), title: `Pestaña ${m}`, order: 99 }),
    update: (m) => ({ title: `Pestaña ${m}` }),
    invalid: { body: () => ({ name: 'x' }), field: 'title', message: 'Título es obligatorio' },
  },
  {
    resource: auditLogResource,
    sample: () => ({}),
    update: () => ({}),
    invalid: { body: () => ({}), field: '', message: '' },
  },
]);
