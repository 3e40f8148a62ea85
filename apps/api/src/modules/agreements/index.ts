// Seguimiento (/agreement): agreements with a dealer, their history and the notice by mail.
import { defineModule } from '../../core/registry';
import { agreementActions } from './agreements.actions';
import { agreementResource } from './agreements.resources';

export const agreementsModule = defineModule({
  name: 'agreements',
  resources: [agreementResource],
  actions: agreementActions,
});
