// The generic resource screen: a server-paged grid (sort, quick search, column filters, all in the
// URL), 'Habilitado', edit/delete by permission, the dialog form and 'Exportar a Excel'.
import { PAGE_SIZES, resourceCalls } from '@app/contracts';
import Add from '@mui/icons-material/Add';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import FileDownload from '@mui/icons-material/FileDownload';
import Refresh from '@mui/icons-material/Refresh';
import Search from '@mui/icons-material/Search';
import {
  Box,
  Button,
  IconButton,
  InputAdornment,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridFilterModel,
  type GridSortModel,
  getGridBooleanOperators,
  getGridSingleSelectOperators,
  getGridStringOperators,
} from '@mui/x-data-grid';
import { esES } from '@mui/x-data-grid/locales';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useSearchParams } from 'react-router';
import { typeOptions, useGeneralTypes } from '../lib/generalTypes';
import { call, download } from '../lib/http';
import { useGlobalFilters } from '../session/filters';
import { usePermission } from '../session/session';
import { ConfirmDialog } from './ConfirmDialog';
import { isSortable } from './fromContract';
import { loadingGridSlotProps } from './gridA11y';
import { toApiQuery, useListParams } from './listParams';
import { ResourceForm } from './ResourceForm';
import { recordName } from './recordName';
import { SavedViews } from './SavedViews';
import { type ColumnDef, pageSizeOf, type ResourceScreenDef } from './types';

const HOTKEYS = { enableOnFormTags: true, preventDefault: true } as const;

interface ListAnswer {
  total: number;
  data: Record<string, any>[];
  totalIsEstimate?: boolean;
}

const equalsOnly = getGridStringOperators().filter((o) => o.value === 'equals');
const isOnly = getGridSingleSelectOperators().filter((o) => o.value === 'is');

const filterOf = (c: ColumnDef | undefined) => (c?.filter ? c.filter : undefined);

function filterKey(c: ColumnDef): string | null {
  const f = filterOf(c);
  return f ? f.key || c.field : null;
}

/** The grid's filter operator of a column: 'is' for a fixed list or a yes/no, else 'equals'. */
const operatorOf = (c: ColumnDef | undefined) =>
  c?.type === 'boolean' || filterOf(c)?.options ? 'is' : 'equals';

export function ResourceScreen({ def }: { def: ResourceScreenDef }) {
  const { contract } = def;
  const path = contract.path;
  const base = contract.permission;
  const canStore = usePermission(`${base}.store`) && !def.readOnly;
  const canUpdate = usePermission(`${base}.update`) && !def.readOnly;
  const canDestroy = usePermission(`${base}.destroy`) && !def.readOnly;
  const canExport = usePermission(`${base}.export`);
  const defaultPerPage = pageSizeOf(def);
  const [params, update] = useListParams(defaultPerPage, path);
  const { dealerId, manufacturerId } = useGlobalFilters();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Record<string, any> | null>(null);
  const [deleting, setDeleting] = useState<Record<string, any> | null>(null);
  const [busy, setBusy] = useState(false);
  const [search, setSearch] = useState(params.query ?? '');
  const types = useGeneralTypes(def.columns.some((c) => c.generalType));

  // Global selectors (toolbar) narrow the screens that have a dealer or brand.
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(def.fixedFilters ?? {})) extra[k] = String(v);
  if (def.dealerFilter && dealerId > 0) extra[def.dealerFilter] = String(dealerId);
  if (def.manufacturerFilter && manufacturerId > 0) extra[def.manufacturerFilter] = String(manufacturerId);
  const apiQuery = toApiQuery(params, extra);

  const list = useQuery({
    queryKey: ['list', path, apiQuery],
    queryFn: ({ signal }) =>
      call(resourceCalls(path).list, { query: apiQuery }, { signal }) as Promise<ListAnswer>,
    placeholderData: keepPreviousData,
  });

  // Hidden columns live in the URL too (a saved view keeps them).
  const hiddenKey = (params.hidden ?? []).join(',');
  const hidden = useMemo<GridColumnVisibilityModel>(
    () => Object.fromEntries((hiddenKey ? hiddenKey.split(',') : []).map((f) => [f, false])),
    [hiddenKey],
  );
  // A view opened (or the back button) changes the URL's search: the box follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the URL's search drives it
  useEffect(() => {
    if ((params.query ?? '') !== search.trim()) setSearch(params.query ?? '');
  }, [params.query]);

  /** Puts the box's text in the URL (the list's search) when it differs; answers that text. */
  const applySearch = () => {
    const typed = search.trim();
    if ((params.query ?? '') !== typed) update({ query: typed || undefined, page: 1 });
    return typed;
  };

  // Quick search: debounced into the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing triggers the search
  useEffect(() => {
    const t = setTimeout(applySearch, 400);
    return () => clearTimeout(t);
  }, [search]);

  const label = (c: ColumnDef) => c.header ?? contract.labels[c.field] ?? c.field;

  // biome-ignore lint/correctness/useExhaustiveDependencies: columns change with the declaration and permissions
  const columns = useMemo<GridColDef[]>(() => {
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
            {def.rowActions?.(p.row, { refresh: () => void refresh() })}
            {canUpdate && (
              <Tooltip title="Editar">
                <IconButton size="small" aria-label="Editar" onClick={() => openEdit(p.row)}>
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
                  onClick={() => setDeleting(p.row)}
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

  const openEdit = async (row: Record<string, any>) => {
    try {
      setEditing((await call(resourceCalls(path).get, { params: { id: row.id } })) as Record<string, any>);
    } catch {
      // toast shown by the client
    }
  };
  // A link to one record (?record=<id>) opens it; another dealer's record answers 404 (toast).
  const [searchParams, setSearchParams] = useSearchParams();
  const recordParam = searchParams.get('record');
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once per linked id
  useEffect(() => {
    if (!recordParam || !/^\d+$/.test(recordParam)) return;
    if (canUpdate) {
      void openEdit({ id: Number(recordParam) });
      return;
    }
    // Without .update the form would only fail on save: say so (a foreign id still answers 404).
    call(resourceCalls(path).get, { params: { id: recordParam } })
      .then(() => enqueueSnackbar('No tiene permiso para editar este registro', { variant: 'info' }))
      .catch(() => {});
  }, [recordParam]);
  const closeForm = () => {
    setEditing(null);
    if (recordParam) {
      const next = new URLSearchParams(searchParams);
      next.delete('record');
      setSearchParams(next, { replace: true });
    }
  };

  const openNew = () => {
    if (!canStore) return;
    const defaults: Record<string, unknown> = { ...def.fixedFilters };
    if (def.dealerFilter && dealerId > 0) defaults[def.dealerFilter] = dealerId;
    if (def.manufacturerFilter && manufacturerId > 0) defaults[def.manufacturerFilter] = manufacturerId;
    setEditing({ id: 0, ...defaults });
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['list', path] });

  const exportXlsx = async () => {
    if (!canExport) return;
    const visible = columns
      .filter((c) => c.field !== '__actions' && hidden[c.field] !== false)
      .map((c) => c.field)
      .join(',');
    setBusy(true);
    // The file holds what the box says, even typed a moment ago (the list's search waits 400 ms
    // for the typing to stop): the pending search is applied to the list and to the export.
    const typed = applySearch();
    const { page: _p, perPage: _pp, query: _q, ...rest } = apiQuery;
    const query = { ...rest, ...(typed ? { query: typed } : {}), columns: visible };
    await download(resourceCalls(path).export, `${contract.title}.xlsx`, { query });
    setBusy(false);
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await call(resourceCalls(path).remove, { params: { id: deleting.id } });
      enqueueSnackbar('Eliminado Correctamente', { variant: 'success' });
      setDeleting(null);
      // Stepping back a page when the last row of the page went away.
      if (list.data && list.data.data.length === 1 && params.page > 1) update({ page: params.page - 1 });
      def.afterWrite?.();
      await refresh();
    } catch {
      setDeleting(null);
    } finally {
      setBusy(false);
    }
  };

  useHotkeys('alt+n', openNew, { ...HOTKEYS, enabled: !editing }, [
    canStore,
    dealerId,
    manufacturerId,
    editing,
  ]);
  useHotkeys('alt+a', openNew, { ...HOTKEYS, enabled: !editing }, [
    canStore,
    dealerId,
    manufacturerId,
    editing,
  ]);
  useHotkeys('alt+e', () => void exportXlsx(), HOTKEYS, [canExport, apiQuery, hidden]);
  useHotkeys('alt+r', () => void refresh(), HOTKEYS);

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
    <Paper sx={{ p: { xs: 1.5, md: 2 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 2 }}>
        <Typography variant="h6" sx={{ flex: 1, minWidth: 160 }}>
          {contract.title}
        </Typography>
        <TextField
          placeholder="Buscar"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          sx={{ width: { xs: '100%', sm: 260 } }}
          fullWidth={false}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': 'Buscar' },
          }}
        />
        <SavedViews />
        <Tooltip title="Actualizar (Alt+R)">
          <IconButton aria-label="Actualizar" onClick={() => void refresh()}>
            <Refresh />
          </IconButton>
        </Tooltip>
        {canExport && (
          <Button
            variant="outlined"
            startIcon={<FileDownload />}
            onClick={() => void exportXlsx()}
            disabled={busy}
          >
            Exportar a Excel
          </Button>
        )}
        {canStore && (
          <Button variant="contained" startIcon={<Add />} onClick={openNew}>
            Nuevo
          </Button>
        )}
      </Box>
      {def.header}
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
      <ResourceForm
        def={def}
        record={editing}
        onClose={closeForm}
        onSaved={() => {
          def.afterWrite?.();
          void refresh();
        }}
      />
      <ConfirmDialog open={!!deleting} busy={busy} onNo={() => setDeleting(null)} onYes={() => void remove()}>
        ¿Está seguro de eliminar el registro{' '}
        {deleting ? `"${recordName(contract, def.columns, deleting)}"` : ''}?
      </ConfirmDialog>
    </Paper>
  );
}
