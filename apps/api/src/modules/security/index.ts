import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../core/registry';
import { authRoutes } from './auth.routes';
import { auditLogResource, roleResource, tabResource, userResource } from './security.resources';
import { securityRoutes } from './security.routes';

export const securityResources = [userResource, roleResource, tabResource, auditLogResource];

export const securityModule = defineModule({
  name: 'security',
  resources: securityResources,
  routes: (app: FastifyInstance) => {
    authRoutes(app);
    securityRoutes(app);
  },
});
