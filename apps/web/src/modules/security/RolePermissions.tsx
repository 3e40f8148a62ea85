// The permission tree of a role over the tabs tree: ticking a node grants (save-permission),
// unticking revokes (revoke-permission); get-permissions says what the role has. Users of the
// role see the change on their next menu load.
import { type PermissionTreeNode, securityCalls } from '@app/contracts';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Typography,
} from '@mui/material';
import { RichTreeView } from '@mui/x-tree-view/RichTreeView';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { call } from '../../lib/http';
import { usePermission } from '../../session/session';

interface Answer {
  granted: string[];
  all: PermissionTreeNode[];
}

interface Item {
  id: string;
  label: string;
  children?: Item[];
}

const ACTION_LABELS: Record<string, string> = {
  view: 'Ver',
  store: 'Crear',
  update: 'Editar',
  destroy: 'Eliminar',
  export: 'Exportar',
};

const tabItemId = (id: number) => `tab:${id}`;
const isPermission = (id: string) => !id.startsWith('tab:');

function toItems(nodes: PermissionTreeNode[]): Item[] {
  return nodes.map((n) => ({
    id: tabItemId(n.id),
    label: n.title,
    children: [
      ...n.permissions.map((p) => ({
        id: p,
        label: ACTION_LABELS[p.slice(p.lastIndexOf('.') + 1)] ?? p,
      })),
      ...toItems(n.children),
    ],
  }));
}

/** Every tab item id (to expand the whole tree). */
function tabIds(items: Item[]): string[] {
  return items.flatMap((i) => (isPermission(i.id) ? [] : [i.id, ...tabIds(i.children ?? [])]));
}

export function RolePermissionsDialog({
  role,
  onClose,
}: {
  role: { id: number; name: string } | null;
  onClose: () => void;
}) {
  const canUpdate = usePermission('Admin.Roles.update');
  const queryClient = useQueryClient();
  const key = ['role-permissions', role?.id];
  const q = useQuery({
    queryKey: key,
    queryFn: () => call(securityCalls.permissions, { query: { role_id: role!.id } }) as Promise<Answer>,
    enabled: !!role,
  });
  const [saving, setSaving] = useState(false);
  const items = useMemo(() => toItems(q.data?.all ?? []), [q.data]);
  const expanded = useMemo(() => tabIds(items), [items]);
  const granted = q.data?.granted ?? [];

  const change = async (next: string[]) => {
    if (!role || !canUpdate || saving) return;
    const now = new Set(next.filter(isPermission));
    const before = new Set(granted);
    const add = [...now].filter((p) => !before.has(p));
    const remove = [...before].filter((p) => !now.has(p));
    if (!add.length && !remove.length) return;
    setSaving(true);
    try {
      let answer: { granted: string[] } | undefined;
      if (add.length)
        answer = await call(securityCalls.grant, { body: { role_id: role.id, permissions: add } });
      if (remove.length)
        answer = await call(securityCalls.revoke, { body: { role_id: role.id, permissions: remove } });
      if (answer) queryClient.setQueryData<Answer>(key, (old) => old && { ...old, granted: answer!.granted });
      enqueueSnackbar(add.length ? 'Permisos concedidos' : 'Permisos retirados', { variant: 'success' });
    } catch {
      await q.refetch();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={!!role} onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 700 } } }}>
      <DialogTitle>Permisos del rol {role?.name}</DialogTitle>
      <DialogContent dividers sx={{ minHeight: 400 }}>
        {(q.isFetching || saving) && <LinearProgress sx={{ mb: 1 }} />}
        {!canUpdate && (
          <Alert severity="info" sx={{ mb: 1 }}>
            Solo lectura: no tiene permiso para editar roles.
          </Alert>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Marque un menú para conceder todos sus permisos, o cada acción por separado. Los usuarios del rol
          ven el cambio al volver a cargar el menú.
        </Typography>
        <Box data-testid="permission-tree">
          {q.data && (
            <RichTreeView
              items={items}
              multiSelect
              checkboxSelection
              selectionPropagation={{ descendants: true, parents: true }}
              selectedItems={granted}
              defaultExpandedItems={expanded}
              onSelectedItemsChange={(_e, ids) => void change(ids as string[])}
              disableSelection={!canUpdate || saving}
              expansionTrigger="iconContainer"
            />
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cerrar</Button>
      </DialogActions>
    </Dialog>
  );
}
