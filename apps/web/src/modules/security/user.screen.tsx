import { userContract } from '@app/contracts';
import LockReset from '@mui/icons-material/LockReset';
import { Avatar, IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { usePermission } from '../../auth/session';
import { dealerField } from '../../fields/shared';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { ResetPasswordDialog } from './ResetPassword';

export const userScreen = defineScreen({
  contract: userContract,
  dealerFilter: 'dealer_id',
  columns: [
    {
      field: 'avatar_url',
      header: 'Avatar',
      width: 70,
      sortable: false,
      render: (row) => (
        <Avatar src={row.avatar_url ?? undefined} alt={row.full_name} sx={{ width: 28, height: 28, mt: 0.5 }}>
          {String(row.full_name ?? row.username ?? '?')
            .charAt(0)
            .toUpperCase()}
        </Avatar>
      ),
    },
    { field: 'username' },
    { field: 'full_name', flex: 1.5 },
    { field: 'email', flex: 1.5 },
    { field: 'dealer_name' },
    { field: 'role_names', sortable: false },
    { field: 'confirmed', type: 'boolean', sortable: false, width: 110 },
  ],
  form: [
    { name: 'username', type: 'text', label: 'Usuario', required: true },
    { name: 'email', type: 'email', label: 'Email', required: true },
    { name: 'full_name', type: 'text', label: 'Nombre completo', required: true },
    { name: 'password', type: 'password', label: 'Contraseña', required: true, onlyNew: true },
    dealerField({ required: false, clearable: true }),
    {
      name: 'roles',
      type: 'select',
      label: 'Roles',
      resource: 'roles',
      multiple: true,
      chips: true,
      autocomplete: true,
    },
    { name: 'default_tab', type: 'text', label: 'Pestaña inicial', placeholder: 'home' },
    { name: 'avatar_url', type: 'text', label: 'Avatar (URL)' },
    // As on the server: a new user is confirmed unless the administrator turns it off.
    { name: 'confirmed', type: 'switch', label: 'Confirmado', cols: 6, default: true },
    { name: 'active', type: 'switch', label: 'Habilitado', cols: 6 },
  ],
});

export default function UserScreen() {
  const canReset = usePermission('Admin.Users.update');
  const [resetting, setResetting] = useState<{ id: number; username: string } | null>(null);
  const def = useMemo<ResourceScreenDef>(
    () => ({
      ...userScreen,
      actionsWidth: 150,
      rowActions: canReset
        ? (row) => (
            <Tooltip title="Restablecer contraseña">
              <IconButton
                size="small"
                aria-label="Restablecer contraseña"
                onClick={() => setResetting({ id: row.id, username: row.username })}
              >
                <LockReset fontSize="small" />
              </IconButton>
            </Tooltip>
          )
        : undefined,
    }),
    [canReset],
  );
  return (
    <>
      <ResourceScreen def={def} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
    </>
  );
}
