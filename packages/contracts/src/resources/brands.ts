import { defineContract, f } from './fields';

export const manufacturerContract = defineContract(
  {
    path: 'manufacturers',
    permission: 'Admin.Manufacturers',
    title: 'Marcas',
    sort: 'code',
    lookup: 'authenticated',
    lookupOrder: 'code',
    menu: { group: 'brands', name: 'manufacturer', icon: 'LocalOffer' },
  },
  {
    code: f.text('Código', 2, { search: true, sort: true, filter: true, column: { width: 110 } }),
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 2 } }),
    color: f.optText('Color', 9, { input: 'color', column: { width: 120 } }),
    active: f.active(),
  },
);

export const manufacturerModelContract = defineContract(
  {
    path: 'manufacturer-models',
    // Grows past a few hundred rows: selects search it as typed (never the whole table).
    lookupMode: 'search',
    permission: 'Admin.ManufacturerModels',
    title: 'Modelos',
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'brands', name: 'manufacturer-model', icon: 'CarRepair' },
  },
  {
    manufacturer_id: f.ref('Marca', 'manufacturers', { filter: true, input: 'select' }),
    manufacturer_name: f.display('Marca', { search: true, sort: true, column: true }),
    code: f.optText('Código', 30, { search: true, sort: true, column: { width: 140 } }),
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
    active: f.active(),
  },
);

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const BRAND_CONTRACTS = [manufacturerContract, manufacturerModelContract] as const;
