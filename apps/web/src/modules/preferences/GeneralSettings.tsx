// The everyday settings as a form: company name, currency sign, survey expiry, mail and the
// external systems. Saving calls PUT /api/configurations/save and merges its answer into the
// client's settings at once (page title, currency sign...).
import { configurationContract, messages, preferenceCalls, resourceCalls } from '@app/contracts';
import SaveIcon from '@mui/icons-material/Save';
import { Alert, Box, Button, Grid, LinearProgress, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect, useState } from 'react';
import { useHotkeys } from 'react-hotkeys-hook';
import { EMAIL_RE } from '../../fields/rules';
import { call } from '../../lib/http';
import { mergeSettings, usePermission } from '../../session/session';

interface SettingField {
  key: string;
  label: string;
  kind?: 'text' | 'int' | 'email' | 'url' | 'secret' | 'bool';
  required?: boolean;
  min?: number;
  max?: number;
  help?: string;
}

const SECTIONS: { title: string; fields: SettingField[] }[] = [
  {
    title: 'Empresa',
    fields: [
      { key: 'COMPANY_NAME', label: 'Nombre de la empresa', required: true, help: 'Título de las páginas' },
      { key: 'APP_NAME', label: 'Nombre de la aplicación', required: true },
      { key: 'DEFAULT_CURRENCY_SIGN', label: 'Símbolo de moneda', required: true },
    ],
  },
  {
    title: 'Seguridad',
    fields: [
      {
        key: 'TWO_FACTOR_REQUIRED',
        label: 'Verificación en dos pasos obligatoria para administradores',
        kind: 'bool',
        help: 'Sí: quien administra usuarios, roles o preferencias la activa al iniciar sesión',
      },
    ],
  },
  {
    title: 'Encuestas',
    fields: [
      {
        key: 'SURVEY_EXPIRY_DAYS',
        label: 'Días de vigencia de la encuesta',
        kind: 'int',
        required: true,
        min: 1,
        max: 365,
      },
      { key: 'SURVEY_MIN_SAMPLE', label: 'Muestra mínima para el ranking', kind: 'int', min: 0, max: 100000 },
    ],
  },
  {
    title: 'Correo',
    fields: [
      { key: 'MAIL_FROM_NAME', label: 'Nombre del remitente' },
      { key: 'MAIL_FROM_ADDRESS', label: 'Correo del remitente', kind: 'email' },
      {
        key: 'SMTP_URL',
        label: 'Servidor SMTP (smtp://usuario:clave@host:587)',
        kind: 'secret',
        help: 'No se muestra; escriba uno nuevo para cambiarlo. Sin SMTP los correos quedan en la bandeja de salida.',
      },
    ],
  },
  {
    title: 'Sistemas externos',
    fields: [
      { key: 'SALES_API_URL', label: 'URL de la API de ventas', kind: 'url' },
      { key: 'SALES_API_TOKEN', label: 'Token de la API de ventas', kind: 'secret' },
      { key: 'CASIS_API_URL', label: 'URL de CASIS', kind: 'url' },
      { key: 'CASIS_API_TOKEN', label: 'Token de CASIS', kind: 'secret' },
      { key: 'SIMA_API_URL', label: 'URL de SIMA', kind: 'url' },
      { key: 'SIMA_API_TOKEN', label: 'Token de SIMA', kind: 'secret' },
    ],
  },
];

const ALL = SECTIONS.flatMap((s) => s.fields);

function validate(f: SettingField, value: string): string | null {
  const v = value.trim();
  if (!v) return f.required ? messages.required(f.label) : null;
  if (f.kind === 'int') {
    if (!/^\d+$/.test(v)) return `${f.label} debe ser un número entero`;
    if (f.min !== undefined && Number(v) < f.min) return messages.min(f.label, f.min);
    if (f.max !== undefined && Number(v) > f.max) return messages.max(f.label, f.max);
  }
  if (f.kind === 'email' && !EMAIL_RE.test(v)) return messages.email;
  if (f.kind === 'url' && !/^https?:\/\/\S+$/.test(v))
    return `${f.label} debe empezar con http:// o https://`;
  return null;
}

export function GeneralSettings() {
  const canSave = usePermission('Admin.Preferences.update');
  const q = useQuery({
    queryKey: ['configurations', 'all'],
    queryFn: () =>
      call(resourceCalls(configurationContract).list, { query: { perPage: -1 } }) as Promise<
        { key: string; value: string | null; is_secret: boolean }[]
      >,
  });
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!q.data) return;
    const next: Record<string, string> = {};
    for (const f of ALL) {
      const row = q.data.find((r) => r.key === f.key);
      next[f.key] = f.kind === 'secret' ? '' : (row?.value ?? '');
    }
    setValues(next);
  }, [q.data]);

  const save = async () => {
    if (!canSave || saving) return;
    const errs: Record<string, string> = {};
    for (const f of ALL) {
      const e = validate(f, values[f.key] ?? '');
      if (e) errs[f.key] = e;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const body: Record<string, string> = {};
    for (const f of ALL) {
      const v = (values[f.key] ?? '').trim();
      const before = q.data?.find((r) => r.key === f.key)?.value ?? '';
      if (f.kind === 'secret' ? v !== '' : v !== before) body[f.key] = v;
    }
    if (!Object.keys(body).length) {
      enqueueSnackbar('No hay cambios para guardar', { variant: 'info' });
      return;
    }
    setSaving(true);
    try {
      const settings = await call(preferenceCalls.saveSettings, { body });
      mergeSettings(settings);
      enqueueSnackbar(messages.saved, { variant: 'success' });
      await q.refetch();
    } catch {
      // toast shown by the client
    } finally {
      setSaving(false);
    }
  };
  useHotkeys('alt+g', () => void save(), { enableOnFormTags: true, preventDefault: true }, [values, canSave]);

  return (
    <Box>
      {(q.isFetching || saving) && <LinearProgress sx={{ mb: 1 }} />}
      {!canSave && (
        <Alert severity="info" sx={{ mb: 2 }}>
          Solo lectura: no tiene permiso para editar las preferencias.
        </Alert>
      )}
      {SECTIONS.map((s) => (
        <Box key={s.title} sx={{ mb: 3 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {s.title}
          </Typography>
          <Grid container spacing={2}>
            {s.fields.map((f) => (
              <Grid key={f.key} size={{ xs: 12, md: 6 }}>
                <TextField
                  fullWidth
                  label={f.label}
                  required={f.required}
                  type={f.kind === 'secret' ? 'password' : 'text'}
                  select={f.kind === 'bool'}
                  placeholder={f.kind === 'secret' ? '(sin cambios)' : undefined}
                  value={values[f.key] ?? ''}
                  disabled={!canSave}
                  onChange={(e) => {
                    setValues((v) => ({ ...v, [f.key]: e.target.value }));
                    setErrors((x) => ({ ...x, [f.key]: '' }));
                  }}
                  error={!!errors[f.key]}
                  helperText={errors[f.key] || f.help || ' '}
                  slotProps={{
                    select: f.kind === 'bool' ? { inputProps: { 'aria-label': f.label } } : undefined,
                    htmlInput: {
                      'aria-label': f.label,
                      autoComplete: f.kind === 'secret' ? 'new-password' : 'off',
                    },
                  }}
                >
                  {f.kind === 'bool' && [
                    <MenuItem key="true" value="true">
                      Sí
                    </MenuItem>,
                    <MenuItem key="false" value="false">
                      No
                    </MenuItem>,
                  ]}
                </TextField>
              </Grid>
            ))}
          </Grid>
        </Box>
      ))}
      {canSave && (
        <Button variant="contained" startIcon={<SaveIcon />} onClick={() => void save()} disabled={saving}>
          Guardar
        </Button>
      )}
    </Box>
  );
}
