import { salesCalls } from '@app/contracts';
import { download } from '../../lib/http';

/** GET /api/sales/template: the empty import template. */
export const downloadTemplate = (): Promise<void> => download(salesCalls.template, 'Plantilla_Ventas.xlsx');
