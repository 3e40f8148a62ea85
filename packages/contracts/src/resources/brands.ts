// Brands (manufacturers V, N, S, A) and their models.
import { z } from 'zod';
import { defineContract, field } from './fields';

export const manufacturerContract = defineContract({
  path: 'manufacturers',
  permission: 'Admin.Manufacturers',
  title: 'Marcas',
  labels: { code: 'Codigo', name: 'Nombre', color: 'Color' },
  pageSize: 5,
  schema: z.object({
    code: field.text('Codigo', 2),
    name: field.text('Nombre', 120),
    color: field.optText('Color', 9),
    active: field.bool('Habilitado'),
  }),
});

export const manufacturerModelContract = defineContract({
  path: 'manufacturer-models',
  permission: 'Admin.ManufacturerModels',
  title: 'Modelos',
  labels: { manufacturer_id: 'Marca', manufacturer_name: 'Marca', code: 'Codigo', name: 'Nombre' },
  pageSize: 5,
  schema: z.object({
    manufacturer_id: field.ref('Marca'),
    code: field.optText('Codigo', 30),
    name: field.text('Nombre', 150),
    active: field.bool('Habilitado'),
  }),
});

export type ManufacturerInput = z.input<typeof manufacturerContract.schema>;
export type ManufacturerModelInput = z.input<typeof manufacturerModelContract.schema>;
