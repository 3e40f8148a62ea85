// The fees (cuotas) calls: the grid of a year, its batch save, the .xlsx export and the upload
// of that file. Targets are the manufacturer's: a dealer user reads its own, never writes them.
import { feeCalls as calls, type FeesAnswer } from '@app/contracts';
import { defineAction } from '../../core/action';
import { checkCells, readCells, writeCells } from './figures.cells';
import { activeConcepts, gridDealers, manufacturerOnly } from './figures.scope';
import { defineGridImport, sendGridXlsx } from './figures.xlsx';

const tags = ['Cuotas'];

const grid = defineAction({
  ...calls.grid,
  summary: 'Cuotas del año: conceptos (filas) y valores por concesionario y mes',
  tags,
  access: { permission: 'Fees.view' },
  async handler({ db, scope, query: q }): Promise<FeesAnswer> {
    const { year } = q;
    const dealers = await gridDealers(db, scope, q.dealer_id);
    const [list, values] = await Promise.all([
      activeConcepts(db),
      readCells(
        db,
        'fees',
        year,
        dealers.map((d) => d.id),
        null,
      ),
    ]);
    return { list, fees: { year, dealers, values } };
  },
});

const batch = defineAction({
  ...calls.batch,
  summary: 'Guarda una grilla de cuotas en una transacción (fabricante)',
  tags,
  access: { permission: 'Fees.update' },
  authorize: manufacturerOnly,
  bodyLimit: 20 * 1024 * 1024,
  audit: { resource: 'fee-values', action: 'batch' },
  async handler({ db, user, body, write }) {
    const { cells, dealers } = await checkCells(db, user, body.values, body.dealer_id, body.year);
    return write(
      async (tx) => ({ ...(await writeCells(tx, 'fees', body.year, cells, user.id)), cells: cells.length }),
      (r) => ({ after: { year: body.year, ...r, dealers: dealers.size } }),
    );
  },
});

const exportGrid = defineAction({
  ...calls.export,
  summary: 'Cuotas del año en .xlsx (el mismo archivo se puede cargar)',
  tags,
  access: { permission: 'Fees.export' },
  download: true,
  raw: true,
  async handler({ db, scope, query: q, reply }) {
    return sendGridXlsx(reply, db, 'fees', q.year, await gridDealers(db, scope, q.dealer_id));
  },
});

const importGrid = defineGridImport(
  'fees',
  {
    kind: 'fees-import',
    title: 'Carga de cuotas',
    name: 'Cuotas',
    link: '/main/fee',
    tags,
    permission: 'Fees.update',
    path: calls.import.path,
    summary: 'Carga el archivo exportado de cuotas (campo file)',
  },
  manufacturerOnly,
);

export const feesActions = [grid, batch, exportGrid, ...importGrid.actions];
