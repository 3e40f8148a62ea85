import { downloadFile } from '../../api/http';

/** GET /api/sales/template: the empty import template. */
export const downloadTemplate = (): Promise<void> => downloadFile('/sales/template', 'Plantilla_Ventas.xlsx');
