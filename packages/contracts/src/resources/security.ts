// Security: users, roles, tabs (the menu tree), auth payloads.

import { messages } from '../messages';
import { z } from '../zod';
import { defineContract, f, field, typeError } from './fields';

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
        .max(AVATAR_MAX_CHARS, `${label} admite como máximo una imagen de 64 KB`)
        .regex(
          AVATAR_RE,
          `${label} debe ser una imagen PNG, JPEG, GIF o WebP (de hasta 64 KB) o una ruta de este servidor que empiece con /`,
        )
        .nullable(),
    )
    .optional();

export const userContract = defineContract(
  {
    path: 'users',
    permission: 'Admin.Users',
    title: 'Usuarios',
    pageSize: 10,
    sort: 'username',
    lookupOrder: 'full_name',
    menu: { group: 'security', name: 'user', icon: 'People' },
  },
  {
    username: f.rule(
      'Usuario',
      (l) => field.text(l, 80).regex(/^[A-Za-z0-9_.@-]+$/, `${l} solo admite letras, números y _ . @ -`),
      { search: true, sort: true, column: true },
    ),
    email: f.email('Email', { search: true, sort: true, column: { flex: 1.5 } }),
    full_name: f.text('Nombre completo', 150, { search: true, sort: true, column: { flex: 1.5 } }),
    /** Required on create; on update, only when changing it. */
    password: f.rule('Contraseña', (l) => field.password(l).optional(), { input: 'password' }),
    dealer_id: f.optRef('Concesionario', 'dealers', { filter: true }),
    dealer_name: f.display('Concesionario', { search: true, sort: true, column: true }),
    role_names: f.display('Roles', { column: true }),
    default_tab: f.optText('Pestaña inicial', 80),
    avatar_url: f.rule('Avatar', avatarUrl, { column: { width: 70 } }),
    confirmed: f.bool('Confirmado', { filter: true, column: { width: 110 } }),
    roles: f.rule('Roles', () => roleIds.optional(), { ref: 'roles' }),
    active: f.active(),
    created_at: f.created(),
  },
);

export const roleContract = defineContract(
  {
    path: 'roles',
    permission: 'Admin.Roles',
    title: 'Roles',
    pageSize: 50,
    sort: 'name',
    lookup: 'authenticated',
    // Without Admin.Roles.view (e.g. the users form) a role is its name: no permission list.
    lookupFields: ['id', 'name', 'description', 'is_static', 'active'],
    menu: { group: 'security', name: 'role', icon: 'AdminPanelSettings' },
  },
  {
    name: f.text('Nombre', 80, { search: true, sort: true, column: { flex: 1 } }),
    description: f.optText('Descripción', 200, { search: true, input: 'textarea', column: { flex: 2 } }),
    is_static: f.display('Del sistema', { filter: true, column: { width: 120, type: 'boolean' } }),
    permissions: f.display('Permisos'),
    active: f.active(),
    created_at: f.created(),
  },
);

export const tabContract = defineContract(
  {
    path: 'tabs',
    permission: 'Admin.Tabs',
    title: 'Menú',
    sort: 'order',
    lookupOrder: 'title',
    menu: { group: 'security', name: 'tab', icon: 'AccountTree' },
  },
  {
    parent_id: f.optRef('Padre', 'tabs', { filter: true }),
    name: f.text('Nombre', 80, { search: true, sort: true, column: true }),
    title: f.text('Título', 120, { search: true, sort: true, column: { flex: 1.5 } }),
    path: f.optText('Ruta', 200, { search: true, column: { flex: 1.5 } }),
    parent_title: f.display('Padre', { sort: true, column: true }),
    icon: f.optText('Icono', 80),
    order: f.optInt('Orden', 0, 100000, { sort: true, column: { width: 90 } }),
    permission: f.optText('Permiso', 120, { search: true, column: { flex: 1.5 } }),
    active: f.active(),
  },
);

/** The audit trail (read-only): who changed what and when. */
/**
 * Every action the audit trail records, with its Spanish name (the audit screen, its filter and
 * its export). The server's writeAudit takes only these: a new action gets its name here.
 */
export const AUDIT_ACTIONS = [
  { id: 'create', name: 'Creó' },
  { id: 'update', name: 'Editó' },
  { id: 'delete', name: 'Eliminó' },
  { id: 'grant', name: 'Concedió permisos' },
  { id: 'revoke', name: 'Retiró permisos' },
  { id: 'save', name: 'Guardó' },
  { id: 'profile', name: 'Editó su perfil' },
  { id: 'reset-password', name: 'Restableció la contraseña' },
  { id: 'import', name: 'Cargó un Excel' },
  { id: 'batch', name: 'Envió un lote' },
  { id: 'grid', name: 'Guardó la grilla' },
  { id: 'sales-api', name: 'Trajo del sistema de ventas' },
  { id: 'sima', name: 'Trajo de SIMA' },
  { id: 'casis', name: 'Trajo de CASIS' },
  { id: 'concept', name: 'Editó un concepto' },
  { id: 'enable', name: 'Habilitó el periodo' },
  { id: 'confirm', name: 'Confirmó' },
  { id: 'reopen', name: 'Reabrió' },
  { id: 'remind', name: 'Envió recordatorios' },
  { id: 'invite', name: 'Envió invitaciones de encuesta' },
  { id: 'flush', name: 'Envió los correos pendientes' },
  { id: 'reply', name: 'Respondió la alerta' },
  { id: 'close', name: 'Cerro la alerta' },
  { id: 'comment', name: 'Comentó' },
  { id: 'notify', name: 'Envió el aviso' },
  { id: 'upload', name: 'Subió un archivo' },
  { id: 'read', name: 'Marcó como leída' },
  { id: 'two-factor-on', name: 'Activó la verificación en dos pasos' },
  { id: 'two-factor-off', name: 'Desactivó la verificación en dos pasos' },
  { id: 'two-factor-reset', name: 'Restableció la verificación en dos pasos' },
  { id: 'recovery-codes', name: 'Generó códigos de recuperación' },
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number]['id'];

export const auditLogContract = defineContract(
  {
    path: 'audit-logs',
    permission: 'Admin.Audit',
    title: 'Auditoría',
    pageSize: 10,
    sort: { field: 'at', order: 'desc' },
    menu: { group: 'security', name: 'audit', icon: 'History', actions: ['view', 'export'] },
  },
  {
    at: f.display('Fecha', { sort: true, column: { width: 170 } }),
    user_id: f.display('Usuario', { filter: true }),
    username: f.display('Usuario', { search: true, sort: true, column: { flex: 1 } }),
    resource: f.display('Recurso', { search: true, sort: true, filter: true, column: { flex: 1.2 } }),
    record_id: f.display('Registro', { sort: true, filter: true, column: { width: 100, type: 'number' } }),
    action: f.display('Acción', {
      search: true,
      sort: true,
      filter: true,
      options: AUDIT_ACTIONS,
      column: { flex: 1.2 },
    }),
    before: f.display('Antes'),
    after: f.display('Después'),
  },
);

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

/** POST /api/auth/download-ticket: a one-use ticket for one download link (path and query). */
export const downloadTicketSchema = z.object({
  path: z
    .string({ error: typeError('Ruta') })
    .min(1, messages.required('Ruta'))
    .max(2000, 'Ruta no debe exceder 2000 caracteres')
    .regex(/^\/api\/[^?]{1,495}(\?.*)?$/, 'Ruta debe ser una dirección de esta API (/api/...)'),
});

export const downloadTicketResultSchema = z.object({
  ticket: z.string(),
  /** The path with `ticket=` added to its query. */
  url: z.string(),
  expires_in_seconds: z.number().int(),
});
export type DownloadTicket = z.infer<typeof downloadTicketResultSchema>;

export const loginResultSchema = z.object({
  access_token: z.string(),
  encrypted_access_token: z.string(),
  expire_in_seconds: z.int(),
  /** Only right after a second factor was enrolled at sign-in: shown once, never again. */
  recovery_codes: z.array(z.string()).optional(),
});
export type LoginResult = z.output<typeof loginResultSchema>;

// ---------- second factor (TOTP, RFC 6238) ----------

/**
 * Holding any of these makes a user an administrator for the second factor: when the setting
 * TWO_FACTOR_REQUIRED is on, such a user signs in only with a code (and enrols at first sign-in).
 */
export const TWO_FACTOR_ADMIN_PERMISSIONS = [
  'Admin.Users.update',
  'Admin.Roles.update',
  'Admin.Preferences.update',
] as const;

/** The configuration key of the requirement ('true' / 'false'). */
export const TWO_FACTOR_REQUIRED_KEY = 'TWO_FACTOR_REQUIRED';

/**
 * The login's answer when a second step is due: 'code' (a code from the app or a recovery code)
 * or 'setup' (an administrator without a second factor enrols first). No session yet.
 */
export const twoFactorChallengeSchema = z.object({
  two_factor: z.enum(['code', 'setup']),
  two_factor_token: z.string(),
  expire_in_seconds: z.int(),
});
export type TwoFactorChallenge = z.output<typeof twoFactorChallengeSchema>;

export const loginAnswerSchema = z.union([loginResultSchema, twoFactorChallengeSchema]);

const totpCode = (label: string) =>
  z
    .string({ error: typeError(label) })
    .trim()
    .regex(/^\d{6}$/, `${label} debe tener 6 dígitos`);

/** POST /api/auth/two-factor: the second step of the login. */
export const twoFactorLoginSchema = z
  .object({
    two_factor_token: z
      .string({ error: typeError('Token de verificación') })
      .min(1, messages.required('Token de verificación'))
      .max(2000),
    code: totpCode('Código').optional(),
    recovery_code: z
      .string({ error: typeError('Código de recuperación') })
      .trim()
      .max(40)
      .optional(),
  })
  .refine((v) => !!v.code || !!v.recovery_code, {
    message: messages.required('Código'),
    path: ['code'],
  });

/** POST /api/auth/two-factor/setup: the enrolment of a first sign-in. */
export const twoFactorSetupSchema = z.object({
  two_factor_token: z
    .string({ error: typeError('Token de verificación') })
    .min(1, messages.required('Token de verificación'))
    .max(2000),
});

/** A code from the authenticator app (confirm, new recovery codes, disable). */
export const twoFactorCodeSchema = z.object({ code: totpCode('Código') });

/** What enrolment shows: the secret (to type it) and its QR code; only until it is confirmed. */
export const twoFactorEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** data:image/svg+xml;base64,... */
  qr: z.string(),
});
export type TwoFactorEnrolment = z.output<typeof twoFactorEnrolmentSchema>;

/** GET /api/user/two-factor: the own second factor (never its secret). */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  confirmed_at: z.string().nullable(),
  /** The setting is on and the user is an administrator: it cannot be turned off. */
  required: z.boolean(),
  recovery_codes_left: z.int(),
});
export type TwoFactorStatus = z.output<typeof twoFactorStatusSchema>;

/** The recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

export const loginInformationSchema = z.object({
  application: z.object({ name: z.string(), version: z.string() }),
  user: z.object({
    id: z.int(),
    username: z.string(),
    full_name: z.string(),
    email: z.string(),
    avatar_url: z.string().nullable(),
    dealer_id: z.int().nullable(),
    isDealer: z.boolean(),
    roles: z.array(z.string()),
    permissions: z.array(z.string()),
    default_tab: z.string(),
  }),
  company: z.object({ id: z.int(), name: z.string() }).nullable(),
});
export type LoginInformation = z.output<typeof loginInformationSchema>;

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

const tabFields = {
  id: z.int(),
  name: z.string(),
  title: z.string(),
  path: z.string().nullable(),
  icon: z.string().nullable(),
  permission: z.string().nullable(),
};
/**
 * A menu entry with its children (GET /api/tabs/menu, /api/tabs-tree). Its children are entries
 * too; the schema names them as a list without recursing (a recursive JSON Schema's $ref would
 * point at the envelope once /api/docs wraps the result in it).
 */
export const tabNodeSchema = z.looseObject({
  ...tabFields,
  children: z.array(z.looseObject({ ...tabFields, children: z.array(z.unknown()) })),
}) as unknown as z.ZodType<TabNode>;
/** GET /api/get-permissions: what a role holds and the tree of every permission. */
export const rolePermissionsSchema = z.object({
  granted: z.array(z.string()),
  all: z.array(
    z.looseObject({
      ...tabFields,
      permissions: z.array(z.string()),
      children: z.array(z.unknown()),
    }),
  ),
});
/** PUT /api/save-permission and /api/revoke-permission: what the role holds now. */
export const permissionChangeResultSchema = z.object({ role_id: z.int(), granted: z.array(z.string()) });

/** This module's contracts, in menu order (RESOURCE_CONTRACTS gathers every module's). */
export const SECURITY_CONTRACTS = [userContract, roleContract, tabContract, auditLogContract] as const;
