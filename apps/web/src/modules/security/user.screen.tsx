import { securityCalls, userContract } from '@app/contracts';
import LockReset from '@mui/icons-material/LockReset';
import PhonelinkErase from '@mui/icons-material/PhonelinkErase';
import { Avatar, IconButton, Tooltip } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useMemo, useState } from 'react';
import { call } from '../../lib/http';
import { ConfirmDialog } from '../../resources/ConfirmDialog';
import { ResourceScreen } from '../../resources/ResourceScreen';
import { defineScreen, type ResourceScreenDef } from '../../resources/types';
import { usePermission } from '../../session/session';
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
  // The second factor of a user who lost the phone (POST /api/users/{id}/two-factor/reset, audited).
  const [unbinding, setUnbinding] = useState<{ id: number; username: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const unbind = async () => {
    if (!unbinding) return;
    setBusy(true);
    try {
      await call(securityCalls.twoFactorReset, { params: { id: unbinding.id } });
      enqueueSnackbar(`Se quitó la verificación en dos pasos de ${unbinding.username}`, {
        variant: 'success',
      });
      setUnbinding(null);
      await queryClient.invalidateQueries({ queryKey: ['list', 'users'] });
    } finally {
      setBusy(false);
    }
  };
  const def = useMemo<ResourceScreenDef>(
    () => ({
      ...userScreen,
      actionsWidth: 150,
      rowActions: canReset
        ? (row) => (
            <>
              <Tooltip title="Restablecer contraseña">
                <IconButton
                  size="small"
                  aria-label="Restablecer contraseña"
                  onClick={() => setResetting({ id: row.id, username: row.username })}
                >
                  <LockReset fontSize="small" />
                </IconButton>
              </Tooltip>
              {row.two_factor_confirmed_at && (
                <Tooltip title="Quitar verificación en dos pasos">
                  <IconButton
                    size="small"
                    aria-label="Quitar verificación en dos pasos"
                    onClick={() => setUnbinding({ id: row.id, username: row.username })}
                  >
                    <PhonelinkErase fontSize="small" />
                  </IconButton>
                </Tooltip>
              )}
            </>
          )
        : undefined,
    }),
    [canReset],
  );
  return (
    <>
      <ResourceScreen def={def} />
      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={!!unbinding}
        title="Quitar verificación en dos pasos"
        busy={busy}
        onNo={() => setUnbinding(null)}
        onYes={() => void unbind()}
      >
        {`¿Quitar la verificación en dos pasos de ${unbinding?.username ?? ''}? Podrá entrar solo con su contraseña y activarla de nuevo desde su perfil (si es administrador, se le pedirá al iniciar sesión).`}
      </ConfirmDialog>
    </>
  );
}
