// Every module of the API, registered in this order by buildApp(). A new module adds one line.
import type { FastifyInstance } from 'fastify';
import { brandsModule } from './brands/brands.resources';
import { cataloguesModule } from './catalogues/catalogues.resources';
import { organisationModule } from './organisation/organisation.resources';
import { preferencesModule } from './preferences/preferences.resources';
import { quizModule } from './quiz/quiz.routes';
import { salesModule } from './sales/sales.routes';
import { securityModule } from './security';

export type ModuleRegistrar = (app: FastifyInstance) => void | Promise<void>;

export const modules: ModuleRegistrar[] = [
  securityModule,
  organisationModule,
  brandsModule,
  cataloguesModule,
  preferencesModule,
  salesModule,
  quizModule,
];
