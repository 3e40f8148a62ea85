// The dashboard (home tab): read-only calls over the other modules' numbers, no table of its own.
import { defineModule } from '../../core/registry';
import { dashboardActions } from './dashboard.actions';

export const dashboardModule = defineModule({ name: 'dashboard', resources: [], actions: dashboardActions });
