// Documents and the extranet: categories (a tree), documents with stored files published to
// every dealer or to chosen ones, the upload, the download and the read marks.
import { defineModule } from '../../core/registry';
import { documentsActions } from './documents.actions';
import { documentsResources } from './documents.resources';

export const documentsModule = defineModule({
  name: 'documents',
  resources: documentsResources,
  actions: documentsActions,
});
