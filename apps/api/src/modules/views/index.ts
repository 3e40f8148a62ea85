// Saved views of the lists (the generic list screen's "Vistas").
import { defineModule } from '../../core/registry';
import { viewActions } from './views.actions';

export const viewsModule = defineModule({ name: 'views', actions: viewActions });
