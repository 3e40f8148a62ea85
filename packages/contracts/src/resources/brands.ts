// Brands (manufacturers V, N, S, A) and their models.
import type { z } from 'zod';
import { defineContract, f } from './fields';
import { RESOURCE_HEADS } from './heads';

export const manufacturerContract = defineContract(RESOURCE_HEADS.manufacturers, {
  code: f.text('Codigo', 2, { search: true, sort: true, filter: true, column: { width: 110 } }),
  name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
  color: f.optText('Color', 9, { input: 'color', column: { width: 120 } }),
  active: f.active(),
});

export const manufacturerModelContract = defineContract(RESOURCE_HEADS['manufacturer-models'], {
  manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
  manufacturer_name: f.display('Marca', { search: true, sort: true, column: true }),
  code: f.optText('Codigo', 30, { search: true, sort: true, column: { width: 140 } }),
  name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
  active: f.active(),
});

export type ManufacturerInput = z.input<typeof manufacturerContract.schema>;
export type ManufacturerModelInput = z.input<typeof manufacturerModelContract.schema>;
