// Every module of the API, registered in this order by buildApp() (core/registry). A new module
// adds one line; its resources and actions are then served, documented and tested.
import type { ApiModule } from '../core/registry';
import { brandsModule } from './brands/brands.resources';
import { cataloguesModule } from './catalogues/catalogues.resources';
import { figuresModule } from './figures';
import { mailModule } from './mail';
import { organisationModule } from './organisation/organisation.resources';
import { preferencesModule } from './preferences';
import { quizModule } from './quiz';
import { salesModule } from './sales';
import { securityModule } from './security';

export const API_MODULES: ApiModule[] = [
  securityModule,
  organisationModule,
  brandsModule,
  cataloguesModule,
  preferencesModule,
  salesModule,
  quizModule,
  mailModule,
  figuresModule,
];
