// What every request handler can reach: the database, configuration and the signed-in user.
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/client';
import type { CurrentUser } from './current-user';
import type { JobRunner } from './jobs';
import type { FileStorage } from './storage';

export type { CurrentUser } from './current-user';

export interface AppContext {
  handle: DatabaseHandle;
  config: AppConfig;
  jwtSecret: string;
  /** Stored files (documents): DATA_DIR/files unless another store is given. */
  storage: FileStorage;
  /** The background jobs (big imports and exports): pg-boss, started on first use or by main.ts. */
  jobs: JobRunner;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    auth: CurrentUser | null;
  }
}
