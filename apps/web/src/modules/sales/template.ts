import { type FileResult, http, saveFile } from '../../api/http';

/** GET /api/sales/template: the empty import template. */
export async function downloadTemplate(): Promise<void> {
  try {
    const file = await http.get<FileResult>('/sales/template', undefined, { file: true });
    saveFile(file, 'Plantilla_Ventas.xlsx');
  } catch {
    // toast shown by the client
  }
}
