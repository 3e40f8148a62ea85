// The capacities calls: the month's grid, its batch save, and the export (SPEC §7: the answer
// names the file, `result.filename`, then the client downloads it from `result.url`).
import { capacityCalls as calls } from '@app/contracts';
import { defineAction } from '../../core/action';
import { sendXlsx } from '../../core/xlsx';
import {
  CAPACITY_COLUMNS,
  capacityExportRows,
  capacityFilename,
  capacityGrid,
  saveCapacities,
} from './capacities';
import { requestedDealer } from './figures.scope';

const tags = ['Capacidades'];

const grid = defineAction({
  ...calls.grid,
  summary: 'Capacidad del mes por sede (horas disponibles calculadas)',
  tags,
  access: { permission: 'Capacities.view' },
  async handler({ db, scope, query: q }) {
    const { year, month } = q;
    await requestedDealer(db, scope, q.dealer_id); // an unknown dealer answers 404
    return capacityGrid(db, scope, year, month);
  },
});

const batch = defineAction({
  ...calls.batch,
  summary: 'Guarda las capacidades del mes en una transacción',
  tags,
  access: { permission: 'Capacities.update' },
  audit: { resource: 'workshop-capacities', action: 'batch' },
  async handler({ user, scope, body, write }) {
    return write(
      (tx) => saveCapacities(tx, user, scope, body),
      (r) => ({ after: { year: body.year, month: body.month, ...r } }),
    );
  },
});

const exportFile = defineAction({
  ...calls.export,
  summary: 'Prepara la exportación del mes: nombre del archivo y dirección de descarga',
  tags,
  access: { permission: 'Capacities.export' },
  async handler({ db, scope, query: q }) {
    const { year, month } = q;
    const dealer = await requestedDealer(db, scope, q.dealer_id);
    const rows = await capacityGrid(db, scope, year, month);
    const filename = capacityFilename(year, month, dealer?.code);
    const params = new URLSearchParams({ year: String(year), month: String(month) });
    if (dealer) params.set('dealer_id', String(dealer.id));
    const url = `/api/capacities/download?${params}`;
    return { filename, url, rows: rows.length };
  },
});

const download = defineAction({
  ...calls.download,
  summary: 'Descarga el .xlsx de capacidades que nombró la exportación',
  tags,
  access: { permission: 'Capacities.export' },
  download: true,
  raw: true,
  async handler({ db, scope, query: q, reply }) {
    const { year, month } = q;
    const dealer = await requestedDealer(db, scope, q.dealer_id);
    const rows = await capacityGrid(db, scope, year, month);
    return sendXlsx(reply, {
      filename: capacityFilename(year, month, dealer?.code),
      sheetName: 'Capacidades',
      columns: CAPACITY_COLUMNS,
      rows: [capacityExportRows(rows)],
    });
  },
});

export const capacitiesActions = [grid, batch, exportFile, download];
