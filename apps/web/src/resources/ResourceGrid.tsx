// A resource's server-paged grid: page, sort, filters and hidden columns are the URL's list
// parameters (listParams), the grid's models kept stable so it never resets the page itself.
import { PAGE_SIZES } from '@app/contracts';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridFilterModel,
  type GridSortModel,
} from '@mui/x-data-grid';
import { esES } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { loadingGridSlotProps } from './gridA11y';
import type { ListParams } from './listParams';
import { filterKey, operatorOf } from './resourceColumns';
import type { ResourceScreenDef } from './types';

export interface ListAnswer {
  total: number;
  data: Record<string, any>[];
  totalIsEstimate?: boolean;
}

export function ResourceGrid({
  def,
  params,
  update,
  list,
  columns,
  hidden,
  hiddenKey,
}: {
  def: ResourceScreenDef;
  params: ListParams;
  update: (p: Partial<ListParams>) => void;
  list: { data?: ListAnswer; isFetching: boolean };
  columns: GridColDef[];
  hidden: GridColumnVisibilityModel;
  hiddenKey: string;
}) {
  // Stable models: a new object on every render makes the grid re-apply them and reset the page.
  const sortKey = `${params.sort ?? ''}:${params.order ?? ''}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the URL values
  const sortModel = useMemo<GridSortModel>(
    () => (params.sort ? [{ field: params.sort, sort: params.order ?? 'asc' }] : []),
    [sortKey],
  );
  const filterKeyStr = JSON.stringify(params.filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the URL values
  const filterModel = useMemo<GridFilterModel>(
    () => ({
      items: Object.entries(params.filters).map(([k, v]) => {
        const c = def.columns.find((x) => filterKey(x) === k);
        return {
          id: k,
          field: c?.field ?? k,
          operator: k === 'active' ? 'is' : operatorOf(c),
          value: v,
        };
      }),
    }),
    [filterKeyStr, def],
  );
  const paginationModel = useMemo(
    () => ({ page: params.page - 1, pageSize: params.perPage }),
    [params.page, params.perPage],
  );

  return (
    <DataGrid
      rows={list.data?.data ?? []}
      // Until the first answer, a count that keeps the page of the URL valid (a reload on page 2
      // must not be clamped back to page 1).
      rowCount={list.data?.total ?? params.page * params.perPage}
      columns={columns}
      loading={list.isFetching}
      slotProps={loadingGridSlotProps(list.isFetching)}
      paginationMode="server"
      sortingMode="server"
      filterMode="server"
      paginationModel={paginationModel}
      onPaginationModelChange={(m) => {
        if (!list.data) return;
        update({ page: m.pageSize !== params.perPage ? 1 : m.page + 1, perPage: m.pageSize });
      }}
      pageSizeOptions={[...PAGE_SIZES]}
      sortModel={sortModel}
      onSortModelChange={(m) => {
        const sort = m[0]?.field;
        const order = m[0]?.sort ?? undefined;
        // The grid also reports the model it was given: only a real change resets the page.
        if (sort === params.sort && (!sort || order === (params.order ?? 'asc'))) return;
        update({ sort, order, page: 1 });
      }}
      filterModel={filterModel}
      onFilterModelChange={(m) => {
        const filters: Record<string, string> = {};
        for (const it of m.items) {
          if (it.value === undefined || it.value === null || it.value === '') continue;
          const c = def.columns.find((x) => x.field === it.field);
          const key = it.field === 'active' ? 'active' : c ? filterKey(c) : null;
          if (key) filters[key] = String(it.value);
        }
        if (JSON.stringify(filters) === JSON.stringify(params.filters)) return;
        update({ filters, page: 1 });
      }}
      columnVisibilityModel={hidden}
      onColumnVisibilityModelChange={(m) => {
        const off = Object.entries(m)
          .filter(([, v]) => v === false)
          .map(([k]) => k);
        if (off.join(',') !== hiddenKey) update({ hidden: off.length ? off : undefined });
      }}
      localeText={esES.components.MuiDataGrid.defaultProps.localeText}
      disableRowSelectionOnClick
      checkboxSelection={!!def.onSelectionChange}
      keepNonExistentRowsSelected={!!def.onSelectionChange}
      onRowSelectionModelChange={(m) => def.onSelectionChange?.([...m.ids].map(Number))}
      autoHeight
      // Every column is drawn (a page holds at most 50 rows): a column scrolled sideways out
      // of view is still in the page, as its header and its buttons are for a keyboard.
      columnBufferPx={10_000}
      getRowHeight={def.autoRowHeight ? () => 'auto' : undefined}
      density="compact"
      sx={{ '& .MuiDataGrid-columnHeaders': { bgcolor: 'grey.50' } }}
    />
  );
}
