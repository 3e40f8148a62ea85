// Preferences: general types, type values and configurations (resources), and the settings the
// client reads, the bulk save and the values of every general type (actions).
import { defineModule } from '../../core/registry';
import { preferencesActions } from './preferences.actions';
import { configurationResource, typeValueResource } from './preferences.resources';

export const preferencesModule = defineModule({
  name: 'preferences',
  resources: [typeValueResource, configurationResource],
  actions: preferencesActions,
});
