// Catalogues: KPI concepts and document categories.
import { categoryContract, conceptContract } from '@app/contracts';
import type { FastifyInstance } from 'fastify';
import { defineResource, fromContract } from '../../core/resource';
import { registerResource } from '../../core/resource-routes';
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

export function cataloguesModule(app: FastifyInstance): void {
  registerResource(app, conceptResource);
  registerResource(app, categoryResource);
}
