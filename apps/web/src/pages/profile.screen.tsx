// /admin/users/profile: name, email, avatar and password change (PUT /api/user/{id}).
import { AVATAR_MAX_BYTES, messages, securityCalls } from '@app/contracts';
import { Avatar, Box, Button, Paper, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { type ChangeEvent, useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { FormFields } from '../fields/FormFields';
import type { FieldDef } from '../fields/types';
import { call, HttpError } from '../lib/http';
import { loadSession, useSession } from '../session/session';
import { setToken, wasRemembered } from '../session/token';
import { TwoFactorSection } from './TwoFactorSection';

const fields: FieldDef[] = [
  { name: 'full_name', type: 'text', label: 'Nombre completo', required: true, cols: 12 },
  { name: 'email', type: 'email', label: 'Email', required: true },
  {
    name: 'avatar_url',
    type: 'text',
    label: 'Avatar (URL)',
    helperText: 'Elija una imagen (hasta 64 KB) o escriba una ruta de este servidor que empiece con /',
  },
  { name: 'pwd', type: 'subheader', label: 'Cambiar contraseña', text: 'Cambiar contraseña' },
  { name: 'current_password', type: 'password', label: 'Contraseña actual', cols: 4 },
  { name: 'password', type: 'password', label: 'Contraseña nueva', cols: 4 },
  { name: 'password_confirmation', type: 'password', label: 'Confirmar contraseña', cols: 4 },
];

interface Answer {
  access_token?: string;
  encrypted_access_token?: string;
  expire_in_seconds?: number;
}

export default function ProfilePage() {
  const user = useSession((s) => s.info?.user);
  const form = useForm<Record<string, any>>({ mode: 'onSubmit' });
  useEffect(() => {
    if (user) form.reset({ full_name: user.full_name, email: user.email, avatar_url: user.avatar_url ?? '' });
  }, [user, form]);

  // The preview follows the field only for what the server accepts (an address of another site
  // would not load anyway: the page's policy allows images from this server and data: only).
  const typed: string | undefined = form.watch('avatar_url');
  const avatar = typed && /^(data:image\/|\/(?![/\\]))/.test(typed) ? typed : user?.avatar_url || undefined;
  // The chosen image travels inline (data:): the server accepts no other site's address.
  const pickAvatar = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (!/^image\/(png|jpeg|gif|webp)$/.test(file.type)) {
      form.setError('avatar_url', { message: 'Elija una imagen PNG, JPEG, GIF o WebP' });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      form.setError('avatar_url', { message: 'La imagen supera los 64 KB: elija una más pequeña' });
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      form.setValue('avatar_url', String(reader.result), { shouldDirty: true });
      form.clearErrors('avatar_url');
    };
    reader.readAsDataURL(file);
  };

  const save = useMutation({
    mutationFn: (v: Record<string, any>) => {
      const body: Record<string, unknown> = {
        full_name: v.full_name,
        email: v.email,
        avatar_url: v.avatar_url || null,
      };
      if (v.password) body.password = v.password;
      // A new password or a new e-mail: the server asks for the current password.
      if (v.current_password) body.current_password = v.current_password;
      return call(securityCalls.profile, { params: { id: user!.id }, body }) as Promise<Answer>;
    },
    onSuccess: async (r) => {
      if (r?.access_token && r.encrypted_access_token && r.expire_in_seconds) {
        setToken(r.access_token, r.encrypted_access_token, r.expire_in_seconds, wasRemembered());
      }
      enqueueSnackbar(messages.saved, { variant: 'success' });
      form.reset({ ...form.getValues(), current_password: '', password: '', password_confirmation: '' });
      await loadSession();
    },
    onError: (err) => {
      if (err instanceof HttpError)
        for (const e of err.validationErrors) form.setError(e.field, { type: 'server', message: e.message });
    },
  });

  const submit = form.handleSubmit((v) => {
    if (v.password && v.password !== v.password_confirmation) {
      form.setError('password_confirmation', { message: 'Las contraseñas no coinciden' });
      return;
    }
    const emailChanged =
      String(v.email ?? '')
        .trim()
        .toLowerCase() !==
      String(user?.email ?? '')
        .trim()
        .toLowerCase();
    if ((v.password || emailChanged) && !v.current_password) {
      form.setError('current_password', { message: messages.required('Contraseña actual') });
      return;
    }
    save.mutate(v);
  });

  return (
    <>
      <Paper sx={{ p: 3, maxWidth: 760 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 3 }}>
          <Avatar src={avatar} sx={{ width: 64, height: 64, bgcolor: 'primary.main' }}>
            {user?.full_name?.[0]}
          </Avatar>
          <Box sx={{ flexGrow: 1 }}>
            <Typography variant="h6">{user?.full_name}</Typography>
            <Typography color="text.secondary">
              {[user?.username, user?.roles.join(', ')].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
          <Button component="label" variant="outlined" size="small">
            Elegir imagen
            <input
              hidden
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              aria-label="Imagen de avatar"
              onChange={pickAvatar}
            />
          </Button>
        </Box>
        <form onSubmit={submit} noValidate>
          <FormFields fields={fields} form={form} useRules />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              Guardar
            </Button>
          </Box>
        </form>
      </Paper>
      <TwoFactorSection />
    </>
  );
}
