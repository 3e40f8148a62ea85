// The grid's columns of a resource screen: each declared column (its label, width, sort and
// filter as the contract allows), 'Habilitado', and the row's actions by permission.
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import { Box, IconButton, Tooltip } from '@mui/material';
import {
  type GridColDef,
  getGridBooleanOperators,
  getGridSingleSelectOperators,
  getGridStringOperators,
} from '@mui/x-data-grid';
import { useMemo } from 'react';
import { typeOptions, useGeneralTypes } from '../lib/generalTypes';
import { isSortable } from './fromContract';
import type { ColumnDef, ResourceScreenDef } from './types';

const equalsOnly = getGridStringOperators().filter((o) => o.value === 'equals');
const isOnly = getGridSingleSelectOperators().filter((o) => o.value === 'is');

const filterOf = (c: ColumnDef | undefined) => (c?.filter ? c.filter : undefined);

/** The list's query parameter that filters a column (null: the column does not filter). */
export function filterKey(c: ColumnDef): string | null {
  const f = filterOf(c);
  return f ? f.key || c.field : null;
}

/** The grid's filter operator of a column: 'is' for a fixed list or a yes/no, else 'equals'. */
export const operatorOf = (c: ColumnDef | undefined) =>
  c?.type === 'boolean' || filterOf(c)?.options ? 'is' : 'equals';

/** The grid's columns; the row's buttons call `row` (edit, delete, refresh after a row action). */
export function useResourceColumns(
  def: ResourceScreenDef,
  can: { update: boolean; destroy: boolean },
  row: {
    edit: (r: Record<string, any>) => void;
    remove: (r: Record<string, any>) => void;
    refresh: () => void;
  },
): GridColDef[] {
  const { contract } = def;
  const canUpdate = can.update;
  const canDestroy = can.destroy;
  const types = useGeneralTypes(def.columns.some((c) => c.generalType));
  const label = (c: ColumnDef) => c.header ?? contract.labels[c.field] ?? c.field;
  // biome-ignore lint/correctness/useExhaustiveDependencies: columns change with the declaration and permissions
  return useMemo<GridColDef[]>(() => {
    const cols: GridColDef[] = def.columns.map((c) => {
      const fk = filterKey(c);
      const fixed = filterOf(c)?.options;
      const opts = fixed && c.generalType ? typeOptions(types, c.generalType, fixed) : fixed;
      const col: GridColDef = {
        field: c.field,
        headerName: label(c),
        width: c.width,
        flex: c.width ? undefined : (c.flex ?? 1),
        // Sized by what it holds (fromContract.ts): the grid scrolls sideways rather than cut.
        minWidth: c.width ? undefined : (c.minWidth ?? 90),
        type: opts ? 'singleSelect' : c.type === 'date' ? 'string' : (c.type ?? 'string'),
        // Only what the server sorts by: a click never answers 422.
        sortable: isSortable(contract, c.field),
        filterable: !!fk,
        filterOperators: opts ? isOnly : c.type === 'boolean' ? getGridBooleanOperators() : equalsOnly,
        valueOptions: opts?.map((o) => ({ value: String(o.id), label: o.name })),
      };
      if (c.render) col.renderCell = (p) => c.render!(p.row);
      return col;
    });
    if ('active' in contract.schema.shape) {
      cols.push({
        field: 'active',
        headerName: 'Habilitado',
        type: 'boolean',
        width: 110,
        sortable: isSortable(contract, 'active'),
        filterOperators: getGridBooleanOperators(),
      });
    }
    if (canUpdate || canDestroy || def.rowActions) {
      cols.push({
        field: '__actions',
        headerName: 'Acciones',
        width: def.actionsWidth ?? 110,
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        disableExport: true,
        renderCell: (p) => (
          <Box sx={{ display: 'flex', alignItems: 'center' }}>
            {def.rowActions?.(p.row, { refresh: row.refresh })}
            {canUpdate && (
              <Tooltip title="Editar">
                <IconButton size="small" aria-label="Editar" onClick={() => row.edit(p.row)}>
                  <Edit fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            {canDestroy && (
              <Tooltip title="Eliminar">
                <IconButton
                  size="small"
                  aria-label="Eliminar"
                  color="error"
                  onClick={() => row.remove(p.row)}
                >
                  <Delete fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
          </Box>
        ),
      });
    }
    return cols;
  }, [def, canUpdate, canDestroy, types]);
}
