// The pieces of the second factor shared by the login's second step and the profile: the QR code
// with its secret, the code field and the recovery codes shown once.
import type { TwoFactorEnrolment } from '@app/contracts';
import { Alert, Box, Button, TextField, Typography } from '@mui/material';
import { enqueueSnackbar } from 'notistack';

export function EnrolmentView({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, justifyItems: 'center' }}>
      <Typography variant="body2">
        Escanee el código QR con su aplicación de autenticación (Google Authenticator, Microsoft
        Authenticator, FreeOTP u otra) o escriba la clave:
      </Typography>
      <Box
        component="img"
        src={enrolment.qr}
        alt="Código QR para la aplicación de autenticación"
        sx={{ width: 180, height: 180, bgcolor: '#fff' }}
      />
      <Typography
        data-testid="two-factor-secret"
        aria-label="Clave para escribir en la aplicación"
        sx={{ fontFamily: 'monospace', fontSize: 14, letterSpacing: 0.5, textAlign: 'center' }}
      >
        {enrolment.secret.match(/.{1,4}/g)?.join(' ')}
      </Typography>
    </Box>
  );
}

export function CodeField({
  value,
  onChange,
  error,
  label = 'Código de 6 dígitos',
  recovery = false,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  label?: string;
  recovery?: boolean;
}) {
  return (
    <TextField
      label={label}
      name={recovery ? 'recovery_code' : 'code'}
      autoFocus
      autoComplete={recovery ? 'off' : 'one-time-code'}
      value={value}
      onChange={(e) => onChange(recovery ? e.target.value : e.target.value.replace(/\D/g, '').slice(0, 6))}
      error={!!error}
      helperText={error ?? ' '}
      slotProps={{ htmlInput: recovery ? { maxLength: 40 } : { inputMode: 'numeric', maxLength: 6 } }}
    />
  );
}

export function RecoveryCodes({ codes }: { codes: string[] }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      enqueueSnackbar('Códigos copiados', { variant: 'success' });
    } catch {
      enqueueSnackbar('No se pudo copiar: selecciónelos y cópielos a mano', { variant: 'warning' });
    }
  };
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <Alert severity="warning">
        Guarde estos códigos de recuperación en un lugar seguro. Cada uno sirve una sola vez para entrar si
        pierde el teléfono, y no se volverán a mostrar.
      </Alert>
      <Box
        component="ul"
        aria-label="Códigos de recuperación"
        sx={{
          m: 0,
          p: 1.5,
          listStyle: 'none',
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          gap: 0.5,
          fontFamily: 'monospace',
          fontSize: 15,
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </Box>
      <Button size="small" onClick={() => void copy()} sx={{ justifySelf: 'start' }}>
        Copiar códigos
      </Button>
    </Box>
  );
}
