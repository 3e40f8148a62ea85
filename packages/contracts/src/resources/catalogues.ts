// Catalogues: KPI concepts and document categories.
import { z } from 'zod';
import { defineContract, field } from './fields';

export const conceptContract = defineContract({
  path: 'concepts',
  permission: 'Admin.Concepts',
  title: 'Conceptos',
  labels: { code: 'Codigo', name: 'Nombre', unit: 'Unidad', group: 'Grupo', order: 'Orden' },
  pageSize: 5,
  schema: z.object({
    code: field.text('Codigo', 30),
    name: field.text('Nombre', 150),
    unit: field.optText('Unidad', 20),
    group: field.optText('Grupo', 60),
    order: field.int('Orden', 0, 100000).optional(),
    active: field.bool('Habilitado'),
  }),
});

export const categoryContract = defineContract({
  path: 'categories',
  permission: 'Admin.Categories',
  title: 'Categorias',
  labels: { name: 'Nombre', description: 'Descripcion' },
  pageSize: 5,
  schema: z.object({
    name: field.text('Nombre', 120),
    description: field.optText('Descripcion', 300),
    active: field.bool('Habilitado'),
  }),
});

export type ConceptInput = z.input<typeof conceptContract.schema>;
export type CategoryInput = z.input<typeof categoryContract.schema>;
