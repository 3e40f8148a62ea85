// CEM sales: the sale resource and its actions (import, batch, external API); a sale's surveys
// are the quiz module's, which registers what it refuses on a sale's deletion (guardSaleDelete).
import { defineModule } from '../../core/registry';
import { salesActions } from './sales.actions';
import { saleResource } from './sales.resources';

export { guardSaleDelete } from './sales.resources';

export const salesModule = defineModule({ name: 'sales', resources: [saleResource], actions: salesActions });
