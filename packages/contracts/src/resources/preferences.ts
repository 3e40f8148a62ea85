// Preferences: general types (catalogues of values) and key/value configurations.
import { z } from 'zod';
import { defineContract, field } from './fields';

export const generalTypeContract = defineContract({
  path: 'general-types',
  permission: 'Admin.Preferences',
  title: 'Tipos generales',
  labels: { code: 'Codigo', name: 'Nombre' },
  pageSize: 15,
  schema: z.object({
    code: field.text('Codigo', 60),
    name: field.text('Nombre', 120),
    active: field.bool('Habilitado'),
  }),
});

export const typeValueContract = defineContract({
  path: 'type-values',
  permission: 'Admin.Preferences',
  title: 'Valores de tipo',
  labels: {
    general_type_id: 'Tipo general',
    general_type_name: 'Tipo general',
    code: 'Codigo',
    name: 'Nombre',
    order: 'Orden',
    payload: 'Datos',
  },
  pageSize: 10,
  schema: z.object({
    general_type_id: field.ref('Tipo general'),
    code: field.text('Codigo', 60),
    name: field.text('Nombre', 120),
    order: field.int('Orden', 0, 100000).optional(),
    payload: z.unknown().optional(),
    active: field.bool('Habilitado'),
  }),
});

export const configurationContract = defineContract({
  path: 'configurations',
  permission: 'Admin.Preferences',
  title: 'Configuraciones',
  labels: { key: 'Clave', value: 'Valor', is_public: 'Publica', description: 'Descripcion' },
  pageSize: 10,
  schema: z.object({
    key: field.text('Clave', 80).regex(/^[A-Za-z0-9_.-]+$/, 'Clave solo admite letras, numeros, _ . -'),
    value: field.optText('Valor', 20000),
    is_public: field.bool('Publica'),
    description: field.optText('Descripcion', 200),
  }),
});

/** PUT /api/configurations/save: {key: value}. */
export const configurationsSaveSchema = z.record(
  z.string().regex(/^[A-Za-z0-9_.-]{1,80}$/, 'Clave no valida'),
  z.union([z.string().max(20000), z.number(), z.boolean(), z.null()], { error: 'Valor no valido' }),
);

/** Keys never answered to a client (secrets). */
export const SECRET_CONFIGURATION_KEY = /(secret|password|passwd|smtp_url|token|api_key|apikey|credential)/i;

export type GeneralTypeInput = z.input<typeof generalTypeContract.schema>;
export type TypeValueInput = z.input<typeof typeValueContract.schema>;
export type ConfigurationInput = z.input<typeof configurationContract.schema>;
