// The profile's second factor: its state, enrolment (QR code, secret, a code to confirm, then the
// recovery codes once), new recovery codes, and turning it off when it is not required.
import { securityCalls, type TwoFactorEnrolment } from '@app/contracts';

/** The calls that take a code from the app. */
type CodeCall =
  | typeof securityCalls.twoFactorConfirm
  | typeof securityCalls.twoFactorRecoveryCodes
  | typeof securityCalls.twoFactorDisable;

import { Alert, Box, Button, Chip, Paper, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { type FormEvent, useState } from 'react';
import { call, HttpError } from '../lib/http';
import { CodeField, EnrolmentView, RecoveryCodes } from './TwoFactor';

type Step = 'idle' | 'enrol' | 'codes' | 'disable';

export function TwoFactorSection() {
  const client = useQueryClient();
  const status = useQuery({
    queryKey: ['two-factor'],
    queryFn: () => call(securityCalls.twoFactorStatus),
  });
  const [step, setStep] = useState<Step>('idle');
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const s = status.data;

  const reset = (next: Step = 'idle') => {
    setStep(next);
    setCode('');
    setError(null);
  };

  const begin = async () => {
    setBusy(true);
    try {
      setEnrolment(await call(securityCalls.twoFactorEnable));
      setCodes(null);
      reset('enrol');
    } finally {
      setBusy(false);
    }
  };

  /** Sends the code to `path`; answers the recovery codes when the call gives them. */
  const send = async (e: FormEvent, action: CodeCall, done: string) => {
    e.preventDefault();
    if (code.length !== 6) return setError('Escriba el código de 6 dígitos de la aplicación');
    setBusy(true);
    try {
      const r = await call(action, { body: { code } }, { fieldErrors: true });
      const fresh = r && typeof r === 'object' ? r.recovery_codes : undefined;
      setEnrolment(null);
      setCodes(fresh ?? null);
      reset('idle');
      enqueueSnackbar(done, { variant: 'success' });
      await client.invalidateQueries({ queryKey: ['two-factor'] });
    } catch (err) {
      if (err instanceof HttpError)
        setError(err.validationErrors[0]?.message ?? err.error?.message ?? err.message);
    } finally {
      setBusy(false);
    }
  };

  const codeForm = (action: CodeCall, done: string, submitLabel: string, danger = false) => (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => void send(e, action, done)}
      sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
    >
      <CodeField
        value={code}
        onChange={(v) => {
          setCode(v);
          setError(null);
        }}
        error={error}
      />
      <Button
        type="submit"
        variant="contained"
        color={danger ? 'error' : 'primary'}
        disabled={busy}
        sx={{ mt: 1 }}
      >
        {submitLabel}
      </Button>
      <Button onClick={() => reset()} sx={{ mt: 1 }}>
        Cancelar
      </Button>
    </Box>
  );

  return (
    <Paper sx={{ p: 3, maxWidth: 760, mt: 2 }} component="section" aria-labelledby="two-factor-title">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h6" component="h2" id="two-factor-title" sx={{ flexGrow: 1 }}>
          Verificación en dos pasos
        </Typography>
        {s && (
          <Chip
            size="small"
            color={s.enabled ? 'success' : 'default'}
            label={s.enabled ? 'Activada' : 'Desactivada'}
          />
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Al iniciar sesión, además de la contraseña se pide un código de su aplicación de autenticación.
        {s?.required && ' Es obligatoria para los administradores.'}
      </Typography>
      {codes && (
        <Box sx={{ mb: 2 }}>
          <RecoveryCodes codes={codes} />
        </Box>
      )}
      {s && !s.enabled && step === 'idle' && (
        <Button variant="contained" onClick={() => void begin()} disabled={busy}>
          Activar verificación en dos pasos
        </Button>
      )}
      {step === 'enrol' && enrolment && (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <EnrolmentView enrolment={enrolment} />
          <Typography variant="body2">Escriba el código que muestra la aplicación para confirmar.</Typography>
          {codeForm(securityCalls.twoFactorConfirm, 'Verificación en dos pasos activada', 'Confirmar')}
        </Box>
      )}
      {s?.enabled && step === 'idle' && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Typography variant="body2">
            Códigos de recuperación sin usar: <b>{s.recovery_codes_left}</b>
          </Typography>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button variant="outlined" onClick={() => reset('codes')}>
              Generar códigos nuevos
            </Button>
            {!s.required && (
              <Button variant="outlined" color="error" onClick={() => reset('disable')}>
                Desactivar
              </Button>
            )}
          </Box>
        </Box>
      )}
      {step === 'codes' && (
        <Box sx={{ display: 'grid', gap: 1 }}>
          <Alert severity="info">Los códigos anteriores dejarán de valer.</Alert>
          {codeForm(securityCalls.twoFactorRecoveryCodes, 'Códigos de recuperación nuevos', 'Generar')}
        </Box>
      )}
      {step === 'disable' &&
        codeForm(securityCalls.twoFactorDisable, 'Verificación en dos pasos desactivada', 'Desactivar', true)}
    </Paper>
  );
}
