import { roleContract } from '@app/contracts';
import VpnKey from '@mui/icons-material/VpnKey';
import { IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { RolePermissionsDialog } from './RolePermissions';

export const roleScreen = defineScreen({ contract: roleContract });

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
