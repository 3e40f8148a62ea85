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
import CheckCircle from '@mui/icons-material/CheckCircle';
import Delete from '@mui/icons-material/Delete';
import Description from '@mui/icons-material/Description';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import Folder from '@mui/icons-material/Folder';
import FolderOpen from '@mui/icons-material/FolderOpen';
import Image from '@mui/icons-material/Image';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Search from '@mui/icons-material/Search';
import TableChart from '@mui/icons-material/TableChart';
import {
  Badge,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  InputAdornment,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  MenuItem,
  Pagination,
  Paper,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, type FileResult, saveFile } from '../../lib/http';
import { ConfirmDialog } from '../../resources/ConfirmDialog';
import { usePermission, useSession } from '../../session/session';
import { DocumentDialog } from './DocumentDialog';
import { day, moment, size } from './format';

const PAGE_SIZE = 10;

interface Category {
  id: number;
  name: string;
  parent_id: number | null;
}

interface TreeItem extends Category {
  depth: number;
  count: number;
  unread: number;
}

/** The categories in tree order (children under their parent), with the counts of their subtree. */
export function categoryTree(
  categories: Category[],
  counts: { category_id: number; count: number; unread: number }[],
): TreeItem[] {
  const known = new Set(categories.map((c) => c.id));
  const children = new Map<number | null, Category[]>();
  for (const c of categories) {
    const parent = c.parent_id && known.has(c.parent_id) ? c.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
  const own = new Map(counts.map((c) => [c.category_id, c]));
  const out: TreeItem[] = [];
  const seen = new Set<number>();
  const walk = (parent: number | null, depth: number): { count: number; unread: number } => {
    let count = 0;
    let unread = 0;
    for (const c of [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      const item: TreeItem = {
        ...c,
        depth,
        count: own.get(c.id)?.count ?? 0,
        unread: own.get(c.id)?.unread ?? 0,
      };
      out.push(item);
      const sub = walk(c.id, depth + 1);
      item.count += sub.count;
      item.unread += sub.unread;
      count += item.count;
      unread += item.unread;
    }
    return { count, unread };
  };
  walk(null, 0);
  return out;
}

const STATUS_COLORS: Record<DocumentStatus, 'success' | 'info' | 'default' | 'warning'> = {
  published: 'success',
  scheduled: 'info',
  expired: 'warning',
  hidden: 'default',
};

function FileIcon({ mime }: { mime: string }) {
  if (mime === 'application/pdf') return <PictureAsPdf fontSize="small" color="error" />;
  if (/sheet|excel/.test(mime)) return <TableChart fontSize="small" color="success" />;
  if (mime.startsWith('image/')) return <Image fontSize="small" color="info" />;
  return <Description fontSize="small" color="primary" />;
}

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
      <Paper variant="outlined" sx={{ width: { xs: '100%', md: 280 }, flexShrink: 0 }}>
        <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
          Categorías
        </Typography>
        <List dense aria-label="Categorías">
          <ListItem disablePadding>
            <ListItemButton selected={category === null} onClick={() => choose(null)}>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <FolderOpen fontSize="small" />
              </ListItemIcon>
              <ListItemText primary="Todos los documentos" />
              <Counts count={allCount} unread={manager ? 0 : (list.data?.unread ?? 0)} />
            </ListItemButton>
          </ListItem>
          {tree.map((c) => (
            <ListItem key={c.id} disablePadding>
              <ListItemButton
                selected={category === c.id}
                onClick={() => choose(c.id)}
                sx={{ pl: 2 + c.depth * 2.5 }}
              >
                <ListItemIcon sx={{ minWidth: 32 }}>
                  {category === c.id ? <FolderOpen fontSize="small" /> : <Folder fontSize="small" />}
                </ListItemIcon>
                <ListItemText primary={c.name} />
                <Counts count={c.count} unread={manager ? 0 : c.unread} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Paper>

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
              <Box
                key={doc.id}
                component="li"
                aria-label={doc.title}
                sx={{ listStyle: 'none', px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}
              >
                <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Typography
                        component="button"
                        onClick={() => void open(doc)}
                        sx={{
                          all: 'unset',
                          cursor: 'pointer',
                          fontWeight: manager ? 600 : doc.read_at ? 400 : 700,
                          '&:hover': { textDecoration: 'underline' },
                        }}
                      >
                        {doc.title}
                      </Typography>
                      {!manager && !doc.read_at && <Chip size="small" color="primary" label="Nuevo" />}
                      {manager && (
                        <Chip
                          size="small"
                          variant="outlined"
                          color={STATUS_COLORS[doc.status]}
                          label={DOCUMENT_STATUS_NAMES[doc.status]}
                        />
                      )}
                      {manager && (
                        <Chip
                          size="small"
                          variant="outlined"
                          label={
                            doc.all_dealers
                              ? 'Todos los concesionarios'
                              : `${doc.dealer_ids.length} concesionario${doc.dealer_ids.length === 1 ? '' : 's'}`
                          }
                        />
                      )}
                    </Stack>
                    <Typography variant="body2" color="text.secondary">
                      {doc.category_name} · Publicado {day(doc.published_at)}
                      {doc.expires_at ? ` · Vence ${day(doc.expires_at)}` : ''}
                    </Typography>
                    {doc.description && (
                      <Typography variant="body2" sx={{ mt: 0.5 }} noWrap>
                        {doc.description}
                      </Typography>
                    )}
                    <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
                      {doc.files.map((f) => (
                        <Chip
                          key={f.id}
                          icon={<FileIcon mime={f.mime} />}
                          label={`${f.filename} (${size(f.bytes)})`}
                          onClick={() => void download(doc, f.id, f.filename)}
                          onDelete={() => void download(doc, f.id, f.filename)}
                          deleteIcon={
                            <Tooltip title="Descargar">
                              <Download aria-label={`Descargar ${f.filename}`} />
                            </Tooltip>
                          }
                          variant="outlined"
                        />
                      ))}
                    </Stack>
                  </Box>
                  <Stack sx={{ alignItems: 'flex-end', minWidth: 150 }} spacing={0.5}>
                    {manager ? (
                      <Typography variant="caption" color="text.secondary">
                        {doc.readers
                          ? `Leído por ${doc.readers} usuario${doc.readers === 1 ? '' : 's'} de concesionarios`
                          : 'Aún no lo lee ningún concesionario'}
                      </Typography>
                    ) : doc.read_at ? (
                      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                        <CheckCircle fontSize="small" color="success" />
                        <Typography variant="caption" color="text.secondary">
                          Leído {moment(doc.read_at)}
                        </Typography>
                      </Stack>
                    ) : (
                      <Typography variant="caption" color="primary">
                        Sin leer
                      </Typography>
                    )}
                    {(canUpdate || canDestroy) && (
                      <Stack direction="row">
                        {canUpdate && (
                          <IconButton
                            size="small"
                            aria-label={`Editar ${doc.title}`}
                            onClick={() => setEditing(doc)}
                          >
                            <Edit fontSize="small" />
                          </IconButton>
                        )}
                        {canDestroy && (
                          <IconButton
                            size="small"
                            aria-label={`Eliminar ${doc.title}`}
                            onClick={() => setRemoving(doc)}
                          >
                            <Delete fontSize="small" />
                          </IconButton>
                        )}
                      </Stack>
                    )}
                  </Stack>
                </Stack>
              </Box>
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

      <Dialog open={!!opened} onClose={() => setOpened(null)} maxWidth="sm" fullWidth>
        {opened && (
          <>
            <DialogTitle>{opened.title}</DialogTitle>
            <DialogContent dividers>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {opened.category_name} · Publicado {day(opened.published_at)}
                {opened.expires_at ? ` · Vence ${day(opened.expires_at)}` : ''}
              </Typography>
              {opened.description && (
                <Typography sx={{ mb: 2, whiteSpace: 'pre-line' }}>{opened.description}</Typography>
              )}
              <List dense aria-label="Archivos">
                {opened.files.map((f) => (
                  <ListItem key={f.id} disablePadding>
                    <ListItemButton onClick={() => void download(opened, f.id, f.filename)}>
                      <ListItemIcon sx={{ minWidth: 32 }}>
                        <FileIcon mime={f.mime} />
                      </ListItemIcon>
                      <ListItemText primary={f.filename} secondary={size(f.bytes)} />
                      <Download fontSize="small" />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpened(null)}>Cerrar</Button>
            </DialogActions>
          </>
        )}
      </Dialog>
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

function Counts({ count, unread }: { count: number; unread: number }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {unread > 0 && (
        <Badge
          color="primary"
          badgeContent={unread}
          max={99}
          aria-label={`${unread} sin leer`}
          sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
        />
      )}
      <Typography variant="caption" color="text.secondary">
        {count}
      </Typography>
    </Stack>
  );
}
