// An administrator sets a new password for a user (PUT /api/users/{id}/reset-password); the
// user's open sessions end.
import { LIMITS, messages, securityCalls } from '@app/contracts';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { call, HttpError } from '../../lib/http';

export function ResetPasswordDialog({
  user,
  onClose,
}: {
  user: { id: number; username: string } | null;
  onClose: () => void;
}) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when another user is chosen
  useEffect(() => {
    setPassword('');
    setError(null);
  }, [user?.id]);

  const save = async () => {
    if (!user) return;
    if (!password) return setError(messages.required('Contraseña'));
    if (password.length < LIMITS.passwordMinLength) return setError(messages.password);
    setBusy(true);
    try {
      await call(securityCalls.resetPassword, { params: { id: user.id }, body: { password } });
      enqueueSnackbar(messages.saved, { variant: 'success' });
      onClose();
    } catch (err) {
      const field =
        err instanceof HttpError ? err.validationErrors.find((v) => v.field === 'password') : null;
      if (field) setError(field.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={!!user} onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: 450 } } }}>
      <DialogTitle>Restablecer contraseña</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          Nueva contraseña para <b>{user?.username}</b>. Sus sesiones abiertas se cerraran.
        </Typography>
        <TextField
          type="password"
          label="Nueva contraseña"
          autoFocus
          fullWidth
          required
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
          }}
          error={!!error}
          helperText={error ?? ' '}
          slotProps={{ htmlInput: { 'aria-label': 'Nueva contraseña', autoComplete: 'new-password' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy}>
          Guardar
        </Button>
      </DialogActions>
    </Dialog>
  );
}
