// Security: users, roles, tabs (the menu tree), auth payloads.
import { z } from 'zod';
import { messages } from '../messages';
import { defineContract, field, typeError } from './fields';

const userLabels = {
  username: 'Usuario',
  email: 'Email',
  full_name: 'Nombre completo',
  password: 'Contraseña',
  dealer_id: 'Concesionario',
  dealer_name: 'Concesionario',
  default_tab: 'Pestaña inicial',
  avatar_url: 'Avatar',
  confirmed: 'Confirmado',
  roles: 'Roles',
  role_names: 'Roles',
};
const roleIds = z.array(field.ref('Rol'), { error: typeError('Roles') }).max(50);

/** An avatar of up to 64 KB: base64 of it is at most this long. */
export const AVATAR_MAX_BYTES = 64 * 1024;
const AVATAR_MAX_CHARS = 'data:image/webp;base64,'.length + Math.ceil(AVATAR_MAX_BYTES / 3) * 4;
/** An image sent inline (PNG, JPEG, GIF, WebP) or a path of this server ('/...', not '//host'). */
const AVATAR_RE =
  /^(?:data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}|\/(?![/\\])[A-Za-z0-9._~%/-]*)$/;

/**
 * Never another site's address: every user who sees the avatar would ask that site for it
 * (and the policy of the pages only loads images from this server and data:).
 */
const avatarUrl = (label: string) =>
  z
    .preprocess(
      (v) => (v === '' ? null : v),
      z
        .string({ error: typeError(label) })
        .trim()
        .max(AVATAR_MAX_CHARS, `${label} admite como maximo una imagen de 64 KB`)
        .regex(
          AVATAR_RE,
          `${label} debe ser una imagen PNG, JPEG, GIF o WebP (de hasta 64 KB) o una ruta de este servidor que empiece con /`,
        )
        .nullable(),
    )
    .optional();

export const userContract = defineContract({
  path: 'users',
  permission: 'Admin.Users',
  title: 'Usuarios',
  labels: userLabels,
  pageSize: 10,
  schema: z.object({
    username: field
      .text(userLabels.username, 80)
      .regex(/^[A-Za-z0-9_.@-]+$/, 'Usuario solo admite letras, numeros y _ . @ -'),
    email: field.email(userLabels.email),
    full_name: field.text(userLabels.full_name, 150),
    /** Required on create; on update, only when changing it. */
    password: field.password(userLabels.password).optional(),
    dealer_id: field.optRef(userLabels.dealer_id),
    default_tab: field.optText(userLabels.default_tab, 80),
    avatar_url: avatarUrl(userLabels.avatar_url),
    confirmed: field.bool(userLabels.confirmed),
    roles: roleIds.optional(),
    active: field.bool('Habilitado'),
  }),
});

export const roleContract = defineContract({
  path: 'roles',
  permission: 'Admin.Roles',
  title: 'Roles',
  labels: { name: 'Nombre', description: 'Descripcion', is_static: 'Del sistema', permissions: 'Permisos' },
  pageSize: 50,
  schema: z.object({
    name: field.text('Nombre', 80),
    description: field.optText('Descripcion', 200),
    active: field.bool('Habilitado'),
  }),
});

export const tabContract = defineContract({
  path: 'tabs',
  permission: 'Admin.Tabs',
  title: 'Menu',
  labels: {
    parent_id: 'Padre',
    parent_title: 'Padre',
    name: 'Nombre',
    title: 'Titulo',
    path: 'Ruta',
    icon: 'Icono',
    order: 'Orden',
    permission: 'Permiso',
  },
  pageSize: 5,
  schema: z.object({
    parent_id: field.optRef('Padre'),
    name: field.text('Nombre', 80),
    title: field.text('Titulo', 120),
    path: field.optText('Ruta', 200),
    icon: field.optText('Icono', 80),
    order: field.int('Orden', 0, 100000).optional(),
    permission: field.optText('Permiso', 120),
    active: field.bool('Habilitado'),
  }),
});

export const loginSchema = z.object({
  username: field.text('Usuario', 150),
  password: z
    .string({ error: typeError('Contraseña') })
    .min(1, messages.required('Contraseña'))
    .max(200),
  rememberMe: z.boolean({ error: typeError('Recordarme') }).optional(),
});

export const permissionChangeSchema = z.object({
  role_id: field.ref('Rol'),
  permissions: z.array(
    z
      .string({ error: typeError('Permiso') })
      .min(1)
      .max(120),
    { error: typeError('Permisos') },
  ),
});

/** PUT /api/user/{id}: the own profile. */
export const profileSchema = z.object({
  full_name: field.text('Nombre completo', 150).optional(),
  email: field.email('Email').optional(),
  avatar_url: avatarUrl('Avatar'),
  current_password: z
    .string({ error: typeError('Contraseña actual') })
    .max(200)
    .optional(),
  password: field.password('Contraseña nueva').optional(),
});

export const resetPasswordSchema = z.object({ password: field.password('Contraseña') });

export interface LoginResult {
  access_token: string;
  encrypted_access_token: string;
  expire_in_seconds: number;
}

export interface LoginInformation {
  application: { name: string; version: string };
  user: {
    id: number;
    username: string;
    full_name: string;
    email: string;
    avatar_url: string | null;
    dealer_id: number | null;
    isDealer: boolean;
    roles: string[];
    permissions: string[];
    default_tab: string;
  };
  company: { id: number; name: string } | null;
}

export interface TabNode {
  id: number;
  name: string;
  title: string;
  path: string | null;
  icon: string | null;
  permission: string | null;
  children: TabNode[];
}

export interface PermissionTreeNode extends TabNode {
  /** Permission names of this tab's base (e.g. Admin.Dealers.view, ...). */
  permissions: string[];
  children: PermissionTreeNode[];
}

export type UserInput = z.input<typeof userContract.schema>;
export type RoleInput = z.input<typeof roleContract.schema>;
export type TabInput = z.input<typeof tabContract.schema>;
export type LoginInput = z.input<typeof loginSchema>;
export type ProfileInput = z.input<typeof profileSchema>;
