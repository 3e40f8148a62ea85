import type { FastifyInstance } from 'fastify';
import { registerResource } from '../../core/resource-routes';
import { authRoutes } from './auth.routes';
import { auditLogResource, roleResource, tabResource, userResource } from './security.resources';
import { securityRoutes } from './security.routes';

export const securityResources = [userResource, roleResource, tabResource, auditLogResource];

export function securityModule(app: FastifyInstance): void {
  authRoutes(app);
  securityRoutes(app);
  for (const r of securityResources) registerResource(app, r);
}
