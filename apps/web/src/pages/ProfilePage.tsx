// /admin/users/profile: name, email, avatar and password change (PUT /api/user/{id}).
import { messages } from '@app/contracts';
import { Avatar, Box, Button, Paper, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { enqueueSnackbar } from 'notistack';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { HttpError, http } from '../api/http';
import { loadSession, useSession } from '../auth/session';
import { setToken, wasRemembered } from '../auth/token';
import { FormFields } from '../fields/FormFields';
import type { FieldDef } from '../fields/types';

const fields: FieldDef[] = [
  { name: 'full_name', type: 'text', label: 'Nombre completo', required: true, cols: 12 },
  { name: 'email', type: 'email', label: 'Email', required: true },
  { name: 'avatar_url', type: 'text', label: 'Avatar (URL)' },
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

  const save = useMutation({
    mutationFn: (v: Record<string, any>) => {
      const body: Record<string, unknown> = {
        full_name: v.full_name,
        email: v.email,
        avatar_url: v.avatar_url || null,
      };
      if (v.password) {
        body.password = v.password;
        body.current_password = v.current_password;
      }
      return http.put<Answer>(`/user/${user!.id}`, body);
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
    if (v.password && !v.current_password) {
      form.setError('current_password', { message: messages.required('Contraseña actual') });
      return;
    }
    save.mutate(v);
  });

  return (
    <Paper sx={{ p: 3, maxWidth: 760 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 3 }}>
        <Avatar src={user?.avatar_url ?? undefined} sx={{ width: 64, height: 64, bgcolor: 'primary.main' }}>
          {user?.full_name?.[0]}
        </Avatar>
        <Box>
          <Typography variant="h6">{user?.full_name}</Typography>
          <Typography color="text.secondary">
            {[user?.username, user?.roles.join(', ')].filter(Boolean).join(' · ')}
          </Typography>
        </Box>
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
  );
}
