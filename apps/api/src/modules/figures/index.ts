// Figures, fees and capacities: the monthly grids, their periods and compliance. The lists are
// declared resources (read-only, dealer-scoped); every grid call is a declared action.
import { defineModule } from '../../core/registry';
import { capacitiesActions } from './capacities.actions';
import { feesActions } from './fees.actions';
import { figuresActions } from './figures.actions';
import { figuresResources } from './figures.resources';

export const figuresModule = defineModule({
  name: 'figures',
  resources: figuresResources,
  actions: [...figuresActions, ...feesActions, ...capacitiesActions],
});

export { figureSummary } from './figures.compare';
export { onMonthConfirmed } from './figures.periods';
