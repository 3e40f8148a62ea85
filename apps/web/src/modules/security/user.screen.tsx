import { userContract } from '@app/contracts';
import LockReset from '@mui/icons-material/LockReset';
import { Avatar, IconButton, Tooltip } from '@mui/material';
import { useMemo, useState } from 'react';
import { usePermission } from '../../auth/session';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { ResetPasswordDialog } from './ResetPassword';

export const userScreen = defineScreen({
  contract: userContract,
  columns: [
    {
      field: 'avatar_url',
      render: (row) => (
        <Avatar src={row.avatar_url ?? undefined} alt={row.full_name} sx={{ width: 28, height: 28, mt: 0.5 }}>
          {String(row.full_name ?? row.username ?? '?')
            .charAt(0)
            .toUpperCase()}
        </Avatar>
      ),
    },
    'username',
    'full_name',
    'email',
    'dealer_name',
    'role_names',
    'confirmed',
  ],
  form: [
    'username',
    'email',
    'full_name',
    // Asked when creating (the server requires it then); changed later with its own button.
    { name: 'password', required: true, onlyNew: true },
    'dealer_id',
    'roles',
    { name: 'default_tab', placeholder: 'home' },
    { name: 'avatar_url', label: 'Avatar (URL)' },
    // As on the server: a new user is confirmed unless the administrator turns it off.
    { name: 'confirmed', cols: 6, default: true },
    { name: 'active', cols: 6 },
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
