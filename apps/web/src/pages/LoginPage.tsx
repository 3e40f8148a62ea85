// Login (SPEC §2, §4): a failure shows no toast; the form says what went wrong inline.
import {
  type LoginResult,
  messages,
  startupCalls,
  type TwoFactorChallenge,
  type TwoFactorEnrolment,
} from '@app/contracts';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  Link,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useEffect, useState } from 'react';
import { call, HttpError } from '../lib/http';
import { t } from '../lib/i18n';
import { login, startSession, useSession } from '../session/session';
import { CodeField, EnrolmentView, RecoveryCodes } from './TwoFactor';

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

/** The message of a failed second step: the server's own (wrong code, expired step, locked). */
function stepError(err: unknown): string {
  if (err instanceof HttpError) return err.validationErrors[0]?.message ?? err.error?.message ?? err.message;
  return (err as Error).message;
}

/**
 * The second step of the login: a code from the app (or a recovery code); for an administrator
 * who must enrol, the QR code first, then the recovery codes once before entering.
 */
function SecondStep({
  challenge,
  rememberMe,
  onCancel,
}: {
  challenge: TwoFactorChallenge;
  rememberMe: boolean;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [done, setDone] = useState<LoginResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const setup = challenge.two_factor === 'setup';

  useEffect(() => {
    if (!setup) return;
    call(
      startupCalls.twoFactorSetup,
      { body: { two_factor_token: challenge.two_factor_token } },
      { silent: true },
    ).then(setEnrolment, (err) => setError(stepError(err)));
  }, [setup, challenge.two_factor_token]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (!value) return setError(messages.required(recovery ? 'Código de recuperación' : 'Código'));
    setBusy(true);
    setError(null);
    try {
      const r = await call(
        startupCalls.twoFactorLogin,
        {
          body: {
            two_factor_token: challenge.two_factor_token,
            ...(recovery ? { recovery_code: value } : { code: value }),
          },
        },
        { silent: true },
      );
      if (r.recovery_codes?.length) setDone(r);
      else await startSession(r, rememberMe);
    } catch (err) {
      setError(stepError(err));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (done)
    return (
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Typography>La verificación en dos pasos quedó activada.</Typography>
        <RecoveryCodes codes={done.recovery_codes ?? []} />
        <Button variant="contained" size="large" onClick={() => void startSession(done, rememberMe)}>
          Ya los guardé, continuar
        </Button>
      </Box>
    );

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'grid', gap: 2 }}>
      {setup ? (
        <>
          <Alert severity="info">
            Los administradores entran con verificación en dos pasos. Actívela ahora: es un paso, una sola
            vez.
          </Alert>
          {enrolment && <EnrolmentView enrolment={enrolment} />}
          <Typography variant="body2">Escriba el código que muestra la aplicación para confirmar.</Typography>
        </>
      ) : (
        <Typography variant="body2">
          {recovery
            ? 'Escriba uno de sus códigos de recuperación (cada uno sirve una sola vez).'
            : 'Escriba el código de 6 dígitos que muestra su aplicación de autenticación.'}
        </Typography>
      )}
      <CodeField
        value={code}
        onChange={(v) => {
          setCode(v);
          setError(null);
        }}
        recovery={recovery}
        label={recovery ? 'Código de recuperación' : 'Código de 6 dígitos'}
      />
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" disabled={busy || (setup && !enrolment)}>
        {busy ? t('Loading') : 'Verificar'}
      </Button>
      <Box sx={{ display: 'flex', justifyContent: 'space-between' }}>
        {!setup ? (
          <Link
            component="button"
            type="button"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Usar el código de la aplicación' : 'Usar un código de recuperación'}
          </Link>
        ) : (
          <span />
        )}
        <Link component="button" type="button" onClick={onCancel}>
          Volver
        </Link>
      </Box>
    </Box>
  );
}

export function LoginPage() {
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
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
      const step = await login({ username: username.trim(), password, rememberMe });
      // A second factor: the code comes next. Otherwise the login route's guard sends the user to
      // the default tab.
      if (step) {
        setPassword('');
        setChallenge(step);
      }
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

  if (challenge)
    return (
      <AuthFrame title="Verificación en dos pasos">
        <SecondStep challenge={challenge} rememberMe={rememberMe} onCancel={() => setChallenge(null)} />
      </AuthFrame>
    );

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
