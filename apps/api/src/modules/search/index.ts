// The global search of the top bar (GET /api/search).
import { defineModule } from '../../core/registry';
import { searchActions } from './search.actions';

export const searchModule = defineModule({ name: 'search', resources: [], actions: searchActions });
