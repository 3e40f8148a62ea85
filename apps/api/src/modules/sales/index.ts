// CEM sales: the sale resource and its actions (import, batch, external API, responses).
import { defineModule } from '../../core/registry';
import { salesActions } from './sales.actions';
import { saleResource } from './sales.resources';

export const salesModule = defineModule({ name: 'sales', resources: [saleResource], actions: salesActions });
