// Catalogues: KPI concepts and document categories (a tree, the extranet's folders).

import { CONCEPT_AGGREGATIONS, CONCEPT_UNITS, FIGURE_MAX } from '../figures';
import { z } from '../zod';
import { defineContract, f, typeError } from './fields';

/**
 * The KPI catalogue of the figures and fees grids: a row per concept, in `order` within its
 * group; `higher_is_better` off inverts compliance (fee ÷ figure, e.g. days in the workshop).
 */
export const conceptContract = defineContract(
  {
    path: 'concepts',
    permission: 'Admin.Concepts',
    title: 'Conceptos',
    sort: 'order',
    lookup: 'authenticated',
    lookupOrder: 'order',
    menu: { group: 'figures-group', name: 'concept', icon: 'ListAlt', first: true },
  },
  {
    code: f.text('Código', 30, { search: true, sort: true, column: { width: 120 } }),
    name: f.text('Nombre', 150, { search: true, sort: true, column: { flex: 2 } }),
    unit: f.oneOf('Unidad', CONCEPT_UNITS, { filter: true, column: { width: 100 } }),
    group: f.optText('Grupo', 60, { search: true, sort: true, filter: true, column: true }),
    order: f.optInt('Orden', 0, 100000, { sort: true, column: { width: 90 } }),
    higher_is_better: f.bool('Mayor es mejor', { filter: true, column: { width: 130 } }),
    // Absent or empty: 'sum' on a new concept, unchanged on an edit (never null in the table).
    aggregation: f.rule(
      'Agregación',
      (l) =>
        z
          .preprocess(
            (v) => (v === '' || v === null ? undefined : v),
            z.enum(CONCEPT_AGGREGATIONS.map((a) => a.id) as ['sum', 'avg', 'last'], { error: typeError(l) }),
          )
          .optional(),
      { options: CONCEPT_AGGREGATIONS, filter: true, column: { width: 120 } },
    ),
    // Empty: its unit's (0 for units, 1 for %, hours and days, 2 for soles).
    decimals: f.optInt('Decimales', 0, 2, { column: { width: 100 } }),
    // A dealer's month beyond this range is warned about in the grid (never refused).
    plausible_min: f.optNumber('Mínimo habitual', -FIGURE_MAX, FIGURE_MAX, { column: { width: 140 } }),
    plausible_max: f.optNumber('Máximo habitual', -FIGURE_MAX, FIGURE_MAX, { column: { width: 140 } }),
    active: f.active(),
  },
);

export const categoryContract = defineContract(
  {
    path: 'categories',
    permission: 'Admin.Categories',
    title: 'Categorías',
    sort: 'name',
    lookup: 'authenticated',
    menu: { group: 'documents', name: 'category', icon: 'Category' },
  },
  {
    name: f.text('Nombre', 120, { search: true, sort: true, column: { flex: 1 } }),
    // The library is a tree: a category may sit inside another (none = a top-level one).
    parent_id: f.optRef('Categoría padre', 'categories', { filter: true }),
    parent_name: f.display('Categoría padre', { sort: true, column: { flex: 1 } }),
    description: f.optText('Descripción', 300, { search: true, input: 'textarea', column: { flex: 2 } }),
    active: f.active(),
  },
);

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const CATALOGUE_CONTRACTS = [conceptContract, categoryContract] as const;
