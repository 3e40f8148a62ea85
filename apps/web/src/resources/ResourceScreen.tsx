// The generic resource screen: a server-paged grid (sort, quick search, column filters, all in the
// URL), 'Habilitado', edit/delete by permission, the dialog form and 'Exportar a Excel'. Its
// parts: the bar above (ResourceToolbar), the columns (resourceColumns), the grid with its URL
// models (ResourceGrid); here, the list's query, the search box and the record actions.
import { resourceCalls } from '@app/contracts';
import { Paper } from '@mui/material';
import type { GridColumnVisibilityModel } from '@mui/x-data-grid';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { useSearchParams } from 'react-router';
import { call, download } from '../lib/http';
import { useGlobalFilters } from '../session/filters';
import { usePermission } from '../session/session';
import { ConfirmDialog } from './ConfirmDialog';
import { toApiQuery, useListParams } from './listParams';
import { ResourceForm } from './ResourceForm';
import { type ListAnswer, ResourceGrid } from './ResourceGrid';
import { ResourceToolbar } from './ResourceToolbar';
import { recordName } from './recordName';
import { useResourceColumns } from './resourceColumns';
import { pageSizeOf, type ResourceScreenDef } from './types';

const HOTKEYS = { enableOnFormTags: true, preventDefault: true } as const;

/**
 * The quick search box: its text, typed into the URL's search 400 ms after the typing stops, and
 * following the URL when a view (or the back button) changes it. `apply` puts the text in the URL
 * at once and answers it.
 */
function useSearchBox(query: string | undefined, update: (p: { query?: string; page: number }) => void) {
  const [search, setSearch] = useState(query ?? '');
  // A view opened (or the back button) changes the URL's search: the box follows.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the URL's search drives it
  useEffect(() => {
    if ((query ?? '') !== search.trim()) setSearch(query ?? '');
  }, [query]);

  /** Puts the box's text in the URL (the list's search) when it differs; answers that text. */
  const apply = () => {
    const typed = search.trim();
    if ((query ?? '') !== typed) update({ query: typed || undefined, page: 1 });
    return typed;
  };

  // Quick search: debounced into the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only typing triggers the search
  useEffect(() => {
    const t = setTimeout(apply, 400);
    return () => clearTimeout(t);
  }, [search]);
  return { search, setSearch, apply };
}

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
  const { search, setSearch, apply: applySearch } = useSearchBox(params.query, update);

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
  const columns = useResourceColumns(
    def,
    { update: canUpdate, destroy: canDestroy },
    { edit: (r) => void openEdit(r), remove: setDeleting, refresh: () => void refresh() },
  );

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

  return (
    <Paper sx={{ p: { xs: 1.5, md: 2 }, minWidth: 0 }}>
      <ResourceToolbar
        title={contract.title}
        search={search}
        setSearch={setSearch}
        refresh={() => void refresh()}
        exportXlsx={canExport ? () => void exportXlsx() : undefined}
        busy={busy}
        openNew={canStore ? openNew : undefined}
      />
      {def.header}
      <ResourceGrid
        def={def}
        params={params}
        update={update}
        list={list}
        columns={columns}
        hidden={hidden}
        hiddenKey={hiddenKey}
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
