// Catalogues: KPI concepts and document categories.

import { categoryContract, conceptContract } from '@app/contracts';
import { defineModule } from '../../core/registry';
import { defineResource, fromContract } from '../../core/resource';
import { categories, concepts } from '../../db/schema';

export const conceptResource = defineResource({
  ...fromContract(conceptContract),
  table: concepts,
  searchable: ['code', 'name', 'group'],
  sortable: ['id', 'code', 'name', 'group', 'order', 'active'],
  defaultSort: 'order',
  lookupOrder: 'order',
  filters: ['active', 'group'],
  lookup: 'authenticated',
});

export const categoryResource = defineResource({
  ...fromContract(categoryContract),
  table: categories,
  searchable: ['name', 'description'],
  sortable: ['id', 'name', 'active'],
  defaultSort: 'name',
  filters: ['active'],
  lookup: 'authenticated',
});

export const cataloguesModule = defineModule({
  name: 'catalogues',
  resources: [conceptResource, categoryResource],
});
