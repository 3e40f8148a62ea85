// Every module of the API, registered in this order by buildApp() (core/registry). A new module
// adds one line; its resources and actions are then served, documented and tested. A contract
// that no module declares is served as a plain resource from its table (plainResourcesModule).
import { RESOURCE_CONTRACTS } from '@app/contracts';
import { type ApiModule, plainResourcesModule } from '../core/registry';
import { agreementsModule } from './agreements';
import { brandsModule } from './brands/brands.resources';
import { dashboardModule } from './dashboard';
import { dispatchesModule } from './dispatches';
import { documentsModule } from './documents';
import { figuresModule } from './figures';
import { jobsModule } from './jobs';
import { mailModule } from './mail';
import { notificationsModule } from './notifications';
import { opsModule } from './ops';
import { organisationModule } from './organisation/organisation.resources';
import { preferencesModule } from './preferences';
import { quizModule } from './quiz';
import { salesModule } from './sales';
import { schedulesModule } from './schedules';
import { searchModule } from './search';
import { securityModule } from './security';
import * as tables from './tables';
import { viewsModule } from './views';
import { workshopModule } from './workshop';

const DECLARED_MODULES: ApiModule[] = [
  opsModule,
  securityModule,
  organisationModule,
  brandsModule,
  preferencesModule,
  salesModule,
  quizModule,
  mailModule,
  schedulesModule,
  notificationsModule,
  dispatchesModule,
  figuresModule,
  dashboardModule,
  agreementsModule,
  workshopModule,
  documentsModule,
  jobsModule,
  viewsModule,
  searchModule,
];

export const API_MODULES: ApiModule[] = [
  ...DECLARED_MODULES,
  plainResourcesModule(RESOURCE_CONTRACTS, tables, DECLARED_MODULES),
];
