// Preferences: general types (catalogues of values) and key/value configurations.
import { z } from '../zod';
import { defineContract, f, field } from './fields';

export const generalTypeContract = defineContract(
  {
    path: 'general-types',
    permission: 'Admin.Preferences',
    title: 'Tipos generales',
    pageSize: 15,
    sort: 'name',
    lookup: 'authenticated',
  },
  {
    code: f.text('Código', 60, { search: true, sort: true, filter: true, column: { flex: 1 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

export const typeValueContract = defineContract(
  {
    path: 'type-values',
    permission: 'Admin.Preferences',
    title: 'Valores de tipo',
    pageSize: 10,
    sort: 'order',
    lookup: 'authenticated',
    lookupOrder: 'order',
  },
  {
    general_type_id: f.ref('Tipo general', 'general-types', { filter: true }),
    general_type_name: f.display('Tipo general', { search: true, sort: true, column: { flex: 1.5 } }),
    code: f.text('Código', 60, { search: true, sort: true, column: { flex: 1 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    order: f.optInt('Orden', 0, 100000, { sort: true, column: { width: 90 } }),
    payload: { label: 'Datos', rule: z.unknown().optional(), input: false },
    active: f.active(),
  },
);

export const configurationContract = defineContract(
  {
    path: 'configurations',
    permission: 'Admin.Preferences',
    title: 'Configuraciones',
    pageSize: 10,
    sort: 'key',
    lookupOrder: 'key',
  },
  {
    key: f.rule(
      'Clave',
      (l) => field.text(l, 80).regex(/^[A-Za-z0-9_.-]+$/, `${l} solo admite letras, números, _ . -`),
      { search: true, sort: true, column: { flex: 1.5 } },
    ),
    value: f.optText('Valor', 20000, { input: 'textarea', column: { flex: 2 } }),
    description: f.optText('Descripción', 200, { search: true, column: { flex: 2 } }),
    is_public: f.bool('Pública', { sort: true, filter: true, column: { width: 100 } }),
  },
);

/** PUT /api/configurations/save: {key: value}. */
export const configurationsSaveSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/, 'Clave no válida'),
  z.union([z.string().max(20000), z.number(), z.boolean(), z.null()], { error: 'Valor no válido' }),
);

/** Keys never answered to a client (secrets). */
export const SECRET_CONFIGURATION_KEY = /(secret|password|passwd|smtp_url|token|api_key|apikey|credential)/i;

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const PREFERENCE_CONTRACTS = [generalTypeContract, typeValueContract, configurationContract] as const;
