// "Vistas" of every list (issue 29): the user's saved views and those an administrator shared with
// one of its roles. Opening a view sets the URL (the list reads the URL); "Guardar vista actual"
// keeps the URL's filters, sort, search, hidden columns and page size under a name; an
// administrator may share it with a role.
import {
  resourceCalls,
  roleContract,
  type SavedView,
  SHARE_VIEWS_PERMISSION,
  savedViewCalls,
} from '@app/contracts';
import BookmarkAdd from '@mui/icons-material/BookmarkAdd';
import Bookmarks from '@mui/icons-material/Bookmarks';
import Delete from '@mui/icons-material/Delete';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { call, HttpError } from '../lib/http';
import { usePermission } from '../session/session';

export function SavedViews() {
  const { pathname } = useLocation();
  const [sp, setSp] = useSearchParams();
  const qc = useQueryClient();
  const canShare = usePermission(SHARE_VIEWS_PERMISSION);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [roleId, setRoleId] = useState<number | ''>('');
  const [error, setError] = useState('');
  const key = ['saved-views', pathname];
  const views = useQuery({
    queryKey: key,
    queryFn: () => call(savedViewCalls.list, { query: { screen: pathname } }, { silent: true }),
  });
  const roles = useQuery({
    queryKey: ['list', 'roles', 'all'],
    queryFn: () =>
      call(resourceCalls(roleContract).list, { query: { perPage: -1 } }, { silent: true }) as Promise<
        { id: number; name: string }[]
      >,
    enabled: canShare && saving,
  });
  const save = useMutation({
    mutationFn: () =>
      call(
        savedViewCalls.save,
        { body: { screen: pathname, name: name.trim(), params: sp.toString(), role_id: roleId || null } },
        { fieldErrors: true },
      ),
    onSuccess: () => {
      enqueueSnackbar(`Vista "${name.trim()}" guardada`, { variant: 'success' });
      setSaving(false);
      void qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => setError(e instanceof HttpError ? e.message : String(e)),
  });
  const remove = useMutation({
    mutationFn: (v: SavedView) => call(savedViewCalls.remove, { params: { id: v.id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: key }),
  });
  const list = views.data ?? [];
  const current = sp.toString();
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<Bookmarks />}
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-haspopup="menu"
      >
        Vistas
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        {list.length === 0 && (
          <MenuItem disabled>
            <ListItemText primary="No hay vistas guardadas" />
          </MenuItem>
        )}
        {list.map((v) => (
          <MenuItem
            key={v.id}
            selected={v.params === current}
            onClick={() => {
              setAnchor(null);
              setSp(new URLSearchParams(v.params), { replace: false });
            }}
          >
            <ListItemText
              primary={v.name}
              secondary={v.role_name ? `Compartida con ${v.role_name}` : 'Solo usted'}
            />
            {v.own && (
              <IconButton
                edge="end"
                size="small"
                aria-label={`Eliminar la vista ${v.name}`}
                onClick={(e) => {
                  e.stopPropagation();
                  remove.mutate(v);
                }}
              >
                <Delete fontSize="small" />
              </IconButton>
            )}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            setName('');
            setRoleId('');
            setError('');
            setSaving(true);
          }}
        >
          <ListItemIcon>
            <BookmarkAdd fontSize="small" />
          </ListItemIcon>
          <ListItemText primary="Guardar vista actual" />
        </MenuItem>
      </Menu>
      <Dialog open={saving} onClose={() => setSaving(false)} fullWidth maxWidth="xs">
        <DialogTitle>Guardar vista</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            margin="dense"
            label="Nombre de la vista"
            required
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError('');
            }}
            error={!!error}
            helperText={
              error || 'Guarda los filtros, el orden, las columnas y el tamaño de página de la lista'
            }
            slotProps={{ htmlInput: { maxLength: 80 } }}
          />
          {canShare && (
            <TextField
              select
              margin="dense"
              label="Compartir con el rol"
              value={roleId}
              onChange={(e) => setRoleId(e.target.value === '' ? '' : Number(e.target.value))}
              helperText="Los usuarios del rol verán esta vista"
            >
              <MenuItem value="">Solo yo</MenuItem>
              {(roles.data ?? []).map((r) => (
                <MenuItem key={r.id} value={r.id}>
                  {r.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setSaving(false)}>Cancelar</Button>
          <Button
            variant="contained"
            disabled={!name.trim() || save.isPending}
            onClick={() => {
              if (!name.trim()) setError('Nombre es obligatorio');
              else save.mutate();
            }}
          >
            Guardar
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
