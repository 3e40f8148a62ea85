// The sign-in, the session, the menu, roles' permissions, the own profile and the second factor
// (modules/security on the server).

import { defineQuery } from '../query';
import {
  loginAnswerSchema,
  loginInformationSchema,
  loginResultSchema,
  loginSchema,
  permissionChangeResultSchema,
  permissionChangeSchema,
  profileSchema,
  recoveryCodesSchema,
  resetPasswordSchema,
  rolePermissionsSchema,
  tabNodeSchema,
  twoFactorCodeSchema,
  twoFactorEnrolmentSchema,
  twoFactorLoginSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../resources/security';
import { z } from '../zod';
import { defineCall } from './call';
import { startupRoutes } from './startup-routes';

/** A call that answers only that it was done. */
const done = z.literal(true);

export const securityCalls = {
  login: defineCall({
    ...startupRoutes.login,
    body: loginSchema,
    result: loginAnswerSchema,
  }),
  logout: defineCall({ ...startupRoutes.logout, result: done }),
  loginInformation: defineCall({
    ...startupRoutes.loginInformation,
    result: loginInformationSchema,
  }),
  menu: defineCall({ ...startupRoutes.menu, result: z.array(tabNodeSchema) }),
  tabsTree: defineCall({ method: 'GET', path: '/api/tabs-tree', result: z.array(tabNodeSchema) }),
  permissions: defineCall({
    method: 'GET',
    path: '/api/get-permissions',
    query: defineQuery({
      role_id: z.preprocess(
        (v) => (Array.isArray(v) ? v[v.length - 1] : v === '' ? undefined : v),
        z.string({ error: 'Rol es obligatorio' }),
      ),
    }),
    result: rolePermissionsSchema,
  }),
  grant: defineCall({
    method: 'PUT',
    path: '/api/save-permission',
    body: permissionChangeSchema,
    result: permissionChangeResultSchema,
  }),
  revoke: defineCall({
    method: 'PUT',
    path: '/api/revoke-permission',
    body: permissionChangeSchema,
    result: permissionChangeResultSchema,
  }),
  /** The own profile; a new password answers a fresh session beside the user. */
  profile: defineCall({
    method: 'PUT',
    path: '/api/user/:id',
    body: profileSchema,
    result: z.looseObject({
      id: z.int(),
      username: z.string(),
      access_token: z.string().optional(),
      encrypted_access_token: z.string().optional(),
      expire_in_seconds: z.int().optional(),
    }),
  }),
  resetPassword: defineCall({
    method: 'PUT',
    path: '/api/users/:id/reset-password',
    body: resetPasswordSchema,
    result: done,
  }),
  // ---------- the second factor ----------
  twoFactorLogin: defineCall({
    ...startupRoutes.twoFactorLogin,
    body: twoFactorLoginSchema,
    result: loginResultSchema,
  }),
  twoFactorSetup: defineCall({
    ...startupRoutes.twoFactorSetup,
    body: twoFactorSetupSchema,
    result: twoFactorEnrolmentSchema,
  }),
  twoFactorStatus: defineCall({ method: 'GET', path: '/api/user/two-factor', result: twoFactorStatusSchema }),
  twoFactorEnable: defineCall({
    method: 'POST',
    path: '/api/user/two-factor/enable',
    result: twoFactorEnrolmentSchema,
  }),
  twoFactorConfirm: defineCall({
    method: 'POST',
    path: '/api/user/two-factor/confirm',
    body: twoFactorCodeSchema,
    result: recoveryCodesSchema,
  }),
  twoFactorRecoveryCodes: defineCall({
    method: 'POST',
    path: '/api/user/two-factor/recovery-codes',
    body: twoFactorCodeSchema,
    result: recoveryCodesSchema,
  }),
  twoFactorDisable: defineCall({
    method: 'POST',
    path: '/api/user/two-factor/disable',
    body: twoFactorCodeSchema,
    result: done,
  }),
  twoFactorReset: defineCall({ method: 'POST', path: '/api/users/:id/two-factor/reset', result: done }),
};
