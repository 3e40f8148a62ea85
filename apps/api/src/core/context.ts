// What every request handler can reach: the database, configuration and the signed-in user.
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/client';

export interface CurrentUser {
  id: number;
  username: string;
  fullName: string;
  email: string;
  dealerId: number | null;
  isDealer: boolean;
  tokenVersion: number;
  roles: string[];
  permissions: Set<string>;
}

export interface AppContext {
  handle: DatabaseHandle;
  config: AppConfig;
  jwtSecret: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: CurrentUser | null;
  }
}
