// /extranet: the library of documents. A dealer user sees what is published to it, by category
// (the tree, with how many it has not read), newest first, searchable; opening or downloading a
// document marks it read. The manufacturer sees its whole library with each document's status
// and audience, and publishes, edits and removes documents (files uploaded in the dialog).
import {
  categoryContract,
  DOCUMENT_STATUS_NAMES,
  type DocumentList,
  type DocumentRow,
  type DocumentStatus,
  documentCalls,
  documentContract,
  resourceCalls,
} from '@app/contracts';
import Add from '@mui/icons-material/Add';
import Search from '@mui/icons-material/Search';
import {
  Box,
  Button,
  InputAdornment,
  LinearProgress,
  List,
  MenuItem,
  Pagination,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, type FileResult, saveFile } from '../../lib/http';
import { ConfirmDialog } from '../../resources/ConfirmDialog';
import { usePermission, useSession } from '../../session/session';
import { CategoryList } from './CategoryList';
import { type Category, categoryTree } from './categoryTree';
import { DocumentDialog } from './DocumentDialog';
import { DocumentItem } from './DocumentItem';
import { OpenedDocument } from './OpenedDocument';

const PAGE_SIZE = 10;

export default function ExtranetScreen() {
  const isDealer = useSession((s) => !!s.info?.user?.isDealer);
  const canStore = usePermission('Documents.store') && !isDealer;
  const canUpdate = usePermission('Documents.update') && !isDealer;
  const canDestroy = usePermission('Documents.destroy') && !isDealer;
  const manager = !isDealer;
  const queryClient = useQueryClient();
  const [category, setCategory] = useState<number | null>(null);
  // The global search opens the extranet on a document's title (?query=).
  const [sp] = useSearchParams();
  const linked = sp.get('query') ?? '';
  const [typed, setTyped] = useState(linked);
  const [search, setSearch] = useState(linked);
  useEffect(() => {
    if (linked) setTyped(linked);
  }, [linked]);
  const [status, setStatus] = useState<DocumentStatus | ''>('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Partial<DocumentRow> | null>(null);
  const [removing, setRemoving] = useState<DocumentRow | null>(null);
  const [opened, setOpened] = useState<DocumentRow | null>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(typed.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(t);
  }, [typed]);

  const query = { page, perPage: PAGE_SIZE, query: search, category: category ?? undefined, status };
  const list = useQuery({
    queryKey: ['list', 'documents', query],
    queryFn: () => call(resourceCalls(documentContract).list, { query }) as Promise<DocumentList>,
    placeholderData: keepPreviousData,
  });
  const categories = useQuery({
    queryKey: ['list', 'categories', 'tree'],
    queryFn: () =>
      call(resourceCalls(categoryContract).list, { query: { perPage: -1 } }) as Promise<Category[]>,
  });
  const tree = useMemo(
    () => categoryTree(categories.data ?? [], list.data?.categories ?? []),
    [categories.data, list.data?.categories],
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['list', 'documents'] });
  const rows = list.data?.data ?? [];
  const total = list.data?.total ?? 0;
  const allCount = tree.filter((t) => t.depth === 0).reduce((n, t) => n + t.count, 0);

  const download = async (doc: DocumentRow, fileId: number, filename: string) => {
    const file = (await call(documentCalls.file, { params: { id: doc.id, fileId } })) as FileResult;
    saveFile(file, filename);
    if (!doc.read_at) void refresh();
  };
  const open = async (doc: DocumentRow) => {
    setOpened(doc);
    if (!doc.read_at) {
      await call(documentCalls.read, { params: { id: doc.id } });
      void refresh();
    }
  };
  const remove = async () => {
    if (!removing) return;
    await call(resourceCalls(documentContract).remove, { params: { id: removing.id } });
    enqueueSnackbar('Documento eliminado', { variant: 'success' });
    setRemoving(null);
    void refresh();
  };
  const choose = (id: number | null) => {
    setCategory(id);
    setPage(1);
  };

  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
      <CategoryList
        tree={tree}
        category={category}
        choose={choose}
        allCount={allCount}
        allUnread={list.data?.unread ?? 0}
        manager={manager}
      />

      <Box sx={{ flex: 1, minWidth: 0, width: '100%' }}>
        <Stack direction="row" spacing={1.5} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <TextField
            size="small"
            placeholder="Buscar por título, descripción o categoría"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            slotProps={{
              htmlInput: { 'aria-label': 'Buscar documentos' },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <Search fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ minWidth: 320, flex: 1 }}
          />
          {manager && (
            <TextField
              select
              size="small"
              label="Estado"
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as DocumentStatus | '');
                setPage(1);
              }}
              sx={{ width: 170 }}
            >
              <MenuItem value="">Todos</MenuItem>
              {(Object.keys(DOCUMENT_STATUS_NAMES) as DocumentStatus[]).map((s) => (
                <MenuItem key={s} value={s}>
                  {DOCUMENT_STATUS_NAMES[s]}
                </MenuItem>
              ))}
            </TextField>
          )}
          {canStore && (
            <Button
              variant="contained"
              startIcon={<Add />}
              onClick={() => setEditing({ category_id: category ?? undefined })}
            >
              Nuevo documento
            </Button>
          )}
        </Stack>
        {list.isFetching && <LinearProgress />}
        <Paper variant="outlined">
          <List aria-label="Documentos" disablePadding>
            {rows.map((doc) => (
              <DocumentItem
                key={doc.id}
                doc={doc}
                manager={manager}
                canUpdate={canUpdate}
                canDestroy={canDestroy}
                open={(d) => void open(d)}
                download={(d, id, name) => void download(d, id, name)}
                edit={setEditing}
                remove={setRemoving}
              />
            ))}
            {!rows.length && !list.isFetching && (
              <Box component="li" sx={{ listStyle: 'none', p: 3 }}>
                <Typography color="text.secondary">
                  {search
                    ? 'Ningún documento coincide con la búsqueda.'
                    : 'No hay documentos en esta categoría.'}
                </Typography>
              </Box>
            )}
          </List>
        </Paper>
        <Stack direction="row" sx={{ mt: 1.5, alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="body2" color="text.secondary">
            {total} documento{total === 1 ? '' : 's'}
          </Typography>
          {total > PAGE_SIZE && (
            <Pagination
              count={Math.ceil(total / PAGE_SIZE)}
              page={page}
              onChange={(_, p) => setPage(p)}
              size="small"
            />
          )}
        </Stack>
      </Box>

      <OpenedDocument
        opened={opened}
        close={() => setOpened(null)}
        download={(d, id, name) => void download(d, id, name)}
      />
      <DocumentDialog record={editing} onClose={() => setEditing(null)} onSaved={() => void refresh()} />
      <ConfirmDialog
        open={!!removing}
        title="Eliminar documento"
        onNo={() => setRemoving(null)}
        onYes={() => void remove()}
      >
        ¿Eliminar «{removing?.title}»? Los concesionarios dejaran de verlo.
      </ConfirmDialog>
    </Stack>
  );
}
