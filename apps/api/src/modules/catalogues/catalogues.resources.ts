// Catalogues: KPI concepts and document categories.

import { categoryContract, conceptContract } from '@app/contracts';
import { defineModule } from '../../core/registry';
import { defineResource, fromContract } from '../../core/resource';
import { categories, concepts } from '../../db/schema';

export const conceptResource = defineResource({
  ...fromContract(conceptContract),
  table: concepts,
  defaultSort: 'order',
  lookupOrder: 'order',
  lookup: 'authenticated',
});

export const categoryResource = defineResource({
  ...fromContract(categoryContract),
  table: categories,
  defaultSort: 'name',
  lookup: 'authenticated',
});

export const cataloguesModule = defineModule({
  name: 'catalogues',
  resources: [conceptResource, categoryResource],
});
