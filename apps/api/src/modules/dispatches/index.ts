// Dispatches (despachos) from SIMA, objectives and daily sales, with their named reports.
import { defineModule } from '../../core/registry';
import { dispatchActions } from './dispatches.actions';
import {
  dailySaleEntryResource,
  dispatchResource,
  objectiveResource,
  storedOfficeResource,
} from './dispatches.resources';

export const dispatchesModule = defineModule({
  name: 'dispatches',
  resources: [storedOfficeResource, dispatchResource, objectiveResource, dailySaleEntryResource],
  actions: dispatchActions,
});
