import { downloadFile } from '../../lib/http';

/** GET /api/sales/template: the empty import template. */
export const downloadTemplate = (): Promise<void> => downloadFile('/sales/template', 'Plantilla_Ventas.xlsx');
