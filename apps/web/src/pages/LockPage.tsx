// Lock screen: the session stays; unlocking asks the password again through the login call.
import { messages } from '@app/contracts';
import { Alert, Avatar, Box, Button, Link, TextField, Typography } from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { HttpError } from '../lib/http';
import { t } from '../lib/i18n';
import { defaultTabPath } from '../lib/screens';
import { login, logout, useSession } from '../session/session';
import { setLocking, unlockedPath, wasRemembered } from '../session/token';
import { AuthFrame } from './LoginPage';

export default function LockPage() {
  const user = useSession((s) => s.info?.user);
  const navigate = useNavigate();
  const location = useLocation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    if (!password) {
      setError(messages.required('Contraseña'));
      return;
    }
    setBusy(true);
    try {
      // A remembered session stays remembered after unlocking.
      await login({ username: user.username, password, rememberMe: wasRemembered() });
      setLocking('0');
      // Back to the page that was locked (the default tab when it is not known).
      navigate(unlockedPath(location.search, defaultTabPath(user.default_tab)), { replace: true });
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 0;
      setError(status === 401 ? messages.loginFailed : (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t('Locked')}>
      <Box
        component="form"
        onSubmit={submit}
        noValidate
        sx={{ display: 'grid', gap: 2, justifyItems: 'center' }}
      >
        <Avatar src={user?.avatar_url ?? undefined} sx={{ width: 64, height: 64, bgcolor: 'primary.main' }}>
          {user?.full_name?.[0]}
        </Avatar>
        <Typography>{user?.full_name}</Typography>
        <TextField
          label={t('Password')}
          name="password"
          type="password"
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <Alert severity="error" role="alert" sx={{ width: '100%' }}>
            {error}
          </Alert>
        )}
        <Button type="submit" variant="contained" fullWidth disabled={busy}>
          {t('Unlock')}
        </Button>
        <Link
          component="button"
          type="button"
          onClick={async () => {
            await logout();
            navigate('/', { replace: true });
          }}
        >
          Iniciar sesión con otro usuario
        </Link>
      </Box>
    </AuthFrame>
  );
}
