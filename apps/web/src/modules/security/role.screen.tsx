import { roleContract } from '@app/contracts';
import VpnKey from '@mui/icons-material/VpnKey';
import { IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { RolePermissionsDialog } from './RolePermissions';

export const roleScreen = defineScreen({
  contract: roleContract,
  columns: [
    { field: 'name', flex: 1 },
    { field: 'description', flex: 2, sortable: false },
    { field: 'is_static', type: 'boolean', sortable: false, width: 120 },
  ],
  form: [
    { name: 'name', type: 'text', label: 'Nombre', required: true, cols: 12 },
    { name: 'description', type: 'textarea', label: 'Descripcion', counter: true, maxLength: 200 },
    { name: 'active', type: 'switch', label: 'Habilitado' },
  ],
});

export default function RoleScreen() {
  const [role, setRole] = useState<{ id: number; name: string } | null>(null);
  const def = useMemo<ResourceScreenDef>(
    () => ({
      ...roleScreen,
      actionsWidth: 150,
      rowActions: (row) => (
        <Tooltip title="Permisos">
          <IconButton
            size="small"
            aria-label="Permisos"
            onClick={() => setRole({ id: row.id, name: row.name })}
          >
            <VpnKey fontSize="small" />
          </IconButton>
        </Tooltip>
      ),
    }),
    [],
  );
  return (
    <>
      <ResourceScreen def={def} />
      <RolePermissionsDialog role={role} onClose={() => setRole(null)} />
    </>
  );
}
