// The sales import as a background job (a big file; core/import-jobs.ts): the same rules and the
// same all-or-nothing save as POST /api/sales/import, the worksheet read in a worker thread.
import { IMPORT_STEPS, type ImportJobData, jobTemplateRows } from '../../core/import-jobs';
import { defineJob } from '../../core/jobs';
import { importSaleStream } from './sales.import';
import { SALES_TEMPLATE, saleRows } from './sales.xlsx';

export const salesImportJob = defineJob<ImportJobData>({
  kind: 'sales-import',
  permission: 'Sales.store',
  title: 'Carga de ventas',
  type: 'import',
  name: 'Ventas',
  link: '/sales',
  async run(ctx) {
    async function* batches() {
      for await (const rows of jobTemplateRows(ctx, SALES_TEMPLATE)) yield saleRows(rows);
    }
    const result = await importSaleStream(
      ctx.app.ctx.handle.db,
      batches(),
      { user: ctx.user, source: 'import' },
      { beforeSave: (n) => ctx.progress(n, n, IMPORT_STEPS.saving(n)) },
    );
    return { result };
  },
});
