// The declared resources of dispatches and daily sales: SIMA warehouses (a catalogue), dispatches
// (dealer-scoped; SIMA's rows arrive through the pull action, a person may add one by hand), and
// the objectives and daily sales entries, read-only lists whose writes are batch actions.
import {
  dailySaleEntryContract,
  dispatchContract,
  objectiveContract,
  storedOfficeContract,
} from '@app/contracts';
import { eq } from 'drizzle-orm';
import { defineResource, fromContract } from '../../core/resource';
import { dealers, manufacturerModels, manufacturers } from '../../db/schema';
import { assertModelOfBrand } from '../sales/sales.resources';
import { dailySales, dispatches, dispatchObjectives, storedOffices } from './dispatches.tables';

export const storedOfficeResource = defineResource({
  ...fromContract(storedOfficeContract),
  table: storedOffices,
});

export const dispatchResource = defineResource({
  ...fromContract(dispatchContract),
  table: dispatches,
  joins: [
    { table: dealers, on: eq(dispatches.dealer_id, dealers.id) },
    { table: storedOffices, on: eq(dispatches.stored_office_id, storedOffices.id) },
    { table: manufacturers, on: eq(dispatches.manufacturer_id, manufacturers.id) },
  ],
  display: {
    dealer_name: dealers.name,
    stored_office_name: storedOffices.name,
    manufacturer_name: manufacturers.name,
  },
  hidden: ['sima_key'],
  dealerScoped: 'dealer_id',
  hooks: {
    async beforeSave(data, ctx) {
      // A dispatch typed by a person is 'Manual'; SIMA's own rows keep their origin and key.
      delete data.source;
      delete data.sima_key;
      if (ctx.action === 'create') data.source = 'Manual';
      await assertModelOfBrand(data, ctx);
      return data;
    },
  },
  listColumns: [
    'id',
    'dispatch_date',
    'dealer_name',
    'stored_office_name',
    'manufacturer_name',
    'model_name',
    'vin',
    'units',
    'invoice',
    'source',
  ],
});

export const objectiveResource = defineResource({
  ...fromContract(objectiveContract),
  table: dispatchObjectives,
  joins: [
    { table: dealers, on: eq(dispatchObjectives.dealer_id, dealers.id) },
    { table: manufacturers, on: eq(dispatchObjectives.manufacturer_id, manufacturers.id) },
  ],
  display: { dealer_name: dealers.name, manufacturer_name: manufacturers.name },
  dealerScoped: 'dealer_id',
  readOnly: true,
});

export const dailySaleEntryResource = defineResource({
  ...fromContract(dailySaleEntryContract),
  table: dailySales,
  joins: [
    { table: dealers, on: eq(dailySales.dealer_id, dealers.id) },
    { table: manufacturers, on: eq(dailySales.manufacturer_id, manufacturers.id) },
    { table: manufacturerModels, on: eq(dailySales.manufacturer_model_id, manufacturerModels.id) },
  ],
  display: {
    dealer_name: dealers.name,
    manufacturer_name: manufacturers.name,
    model_name: manufacturerModels.name,
  },
  dealerScoped: 'dealer_id',
  readOnly: true,
});
