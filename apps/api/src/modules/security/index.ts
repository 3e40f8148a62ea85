// Security: users, roles, tabs and the audit log (resources), and login, session, menu,
// permissions per role, own profile and password reset (actions).
import { defineModule } from '../../core/registry';
import { downloadTicketAction } from './download-ticket.actions';
import { securityActions } from './security.actions';
import { auditLogResource, roleResource, tabResource, userResource } from './security.resources';
import { twoFactorActions } from './two-factor.actions';

export const securityResources = [userResource, roleResource, tabResource, auditLogResource];

export const securityModule = defineModule({
  name: 'security',
  resources: securityResources,
  actions: [...securityActions, downloadTicketAction, ...twoFactorActions],
});
