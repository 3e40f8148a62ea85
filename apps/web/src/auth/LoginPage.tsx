// Login (SPEC §2, §4): a failure shows no toast; the form says what went wrong inline.
import { messages } from '@app/contracts';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { HttpError } from '../api/http';
import { t } from '../app/i18n';
import { login, useSession } from './session';

export function AuthFrame({ children, title }: { children: React.ReactNode; title: string }) {
  const appName = useSession((s) => (s.settings.COMPANY_NAME || s.settings.APP_NAME) as string);
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        background: 'linear-gradient(135deg, #116F77 0%, #0b4a50 100%)',
        p: 2,
      }}
    >
      <Card sx={{ width: '100%', maxWidth: 400 }} elevation={8}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" align="center" color="primary" fontWeight={600} gutterBottom>
            {appName}
          </Typography>
          <Typography variant="subtitle1" align="center" color="text.secondary" sx={{ mb: 2 }}>
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

export function LoginPage() {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!username.trim() || !password) return;
    setBusy(true);
    setError(null);
    try {
      await login({ username: username.trim(), password, rememberMe });
      // The login route's guard sends the user to the default tab.
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 0;
      const notConfirmed = err instanceof HttpError && err.error?.message === messages.accountNotConfirmed;
      setError(
        notConfirmed
          ? messages.accountNotConfirmed
          : status === 401 || status === 422
            ? messages.loginFailed
            : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t('LogIn')}>
      <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2 }}>
        <TextField
          label={t('Username')}
          name="username"
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={touched && !username.trim()}
          helperText={touched && !username.trim() ? messages.required('Usuario') : ' '}
        />
        <TextField
          label={t('Password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={touched && !password}
          helperText={touched && !password ? messages.required('Contraseña') : ' '}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={rememberMe}
              onChange={(e) => setRememberMe(e.target.checked)}
              name="rememberMe"
            />
          }
          label={t('RememberMe')}
        />
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {busy ? t('Loading') : t('LogIn')}
        </Button>
      </Box>
    </AuthFrame>
  );
}
