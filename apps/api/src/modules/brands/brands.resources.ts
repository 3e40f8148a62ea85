// Brands (manufacturers) and their models.

import { manufacturerModelContract } from '@app/contracts';
import { eq } from 'drizzle-orm';
import { defineModule } from '../../core/registry';
import { defineResource, fromContract } from '../../core/resource';
import { manufacturerModels, manufacturers } from '../../db/schema';

export const manufacturerModelResource = defineResource({
  ...fromContract(manufacturerModelContract),
  table: manufacturerModels,
  joins: [{ table: manufacturers, on: eq(manufacturerModels.manufacturer_id, manufacturers.id) }],
  display: { manufacturer_name: manufacturers.name },
  // SPEC §7: the models list answers items and totalCount.
  extendList: (r) => ({ ...r, items: r.data, totalCount: r.total }),
});

export const brandsModule = defineModule({
  name: 'brands',
  resources: [manufacturerModelResource],
});
