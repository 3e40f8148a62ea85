// Info Taller (/workshopinfo): monthly workshop figures, their template import and report-info.
import { defineModule } from '../../core/registry';
import { workshopActions } from './workshop.actions';
import { workshopInfoResource } from './workshop.resources';

export const workshopModule = defineModule({
  name: 'workshop',
  resources: [workshopInfoResource],
  actions: workshopActions,
});
