// The figures calls (SPEC §7), declared on the engine: the grid (read, batch, one concept across
// dealers, .xlsx export and upload), the period transitions (enable, confirm, reopen), the
// dealers' state for a month with its reminder, the comparison, and the CASIS pull.
import {
  figureCalls as calls,
  FIGURE_MESSAGES,
  type FigureDealerRow,
  type FiguresAnswer,
} from '@app/contracts';
import { defineAction } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { deliverQueued, mailContext } from '../mail/mail.service';
import { pullCasis } from './figures.casis';
import { assertPeriods, checkCells, readCells, writeCells } from './figures.cells';
import {
  announceConfirmed,
  confirmPeriod,
  enablePeriods,
  periodStates,
  reopenPeriod,
} from './figures.periods';
import { remindLateDealers } from './figures.remind';
import { figurePeriodResource } from './figures.resources';
import { resumenReport } from './figures.resumen';
import {
  activeConcepts,
  gridDealers,
  manufacturerOnly,
  requestedDealer,
  scopedDealers,
} from './figures.scope';
import { defineGridImport, sendGridXlsx } from './figures.xlsx';

const tags = ['Cifras'];

const grid = defineAction({
  ...calls.grid,
  summary: 'Cifras: conceptos (filas) y valores con el estado del periodo',
  tags,
  access: { permission: 'Figures.view' },
  async handler({ db, scope, query: q }): Promise<FiguresAnswer> {
    const dealers = await gridDealers(db, scope, q.dealer_id);
    const ids = dealers.map((d) => d.id);
    const [list, periods, values, fees] = await Promise.all([
      activeConcepts(db),
      periodStates(db, q.year, ids, q.month),
      readCells(db, 'figures', q.year, ids, q.month),
      readCells(db, 'fees', q.year, ids, q.month),
    ]);
    return { list, figures: { year: q.year, month: q.month, dealers, periods, values, fees } };
  },
});

const batch = defineAction({
  ...calls.batch,
  summary: 'Guarda una grilla de cifras en una transacción (solo periodos habilitados)',
  tags,
  access: { permission: 'Figures.update' },
  bodyLimit: 20 * 1024 * 1024,
  audit: { resource: 'figure-values', action: 'batch' },
  async handler({ db, user, body, write }) {
    const { cells, dealers } = await checkCells(db, user, body.values, body.dealer_id, body.year);
    return write(
      async (tx) => {
        await assertPeriods(tx, body.year, cells, dealers, ['enabled']);
        return {
          ...(await writeCells(tx, 'figures', body.year, cells, user.id, 'grid')),
          cells: cells.length,
        };
      },
      (r) => ({ after: { year: body.year, ...r, dealers: dealers.size } }),
    );
  },
});

const conceptAcrossDealers = defineAction({
  ...calls.concept,
  summary: 'Guarda un concepto de un mes para varios concesionarios (fabricante)',
  tags,
  access: { permission: 'Figures.store' },
  authorize: manufacturerOnly,
  audit: { resource: 'figure-values', action: 'concept' },
  async handler({ db, user, body, write }) {
    const input = body.values.map((v) => ({ ...v, concept_id: body.concept_id, month: body.month }));
    const { cells, dealers } = await checkCells(db, user, input, null, body.year);
    return write(
      async (tx) => {
        // The manufacturer's own measures (e.g. CSI) may go in before a month is enabled.
        await assertPeriods(tx, body.year, cells, dealers, ['closed', 'enabled']);
        return {
          ...(await writeCells(tx, 'figures', body.year, cells, user.id, 'concept')),
          cells: cells.length,
        };
      },
      (r) => ({ after: { year: body.year, month: body.month, concept_id: body.concept_id, ...r } }),
    );
  },
});

const exportGrid = defineAction({
  ...calls.export,
  summary: 'Cifras del año en .xlsx (el mismo archivo se puede cargar)',
  tags,
  access: { permission: 'Figures.export' },
  download: true,
  raw: true,
  async handler({ db, scope, query: q, reply }) {
    return sendGridXlsx(reply, db, 'figures', q.year, await gridDealers(db, scope, q.dealer_id));
  },
});

const importGrid = defineGridImport('figures', {
  kind: 'figures-import',
  title: 'Carga de cifras',
  name: 'Cifras',
  link: '/main/figure',
  tags,
  permission: 'Figures.update',
  path: calls.import.path,
  summary: 'Carga el archivo exportado de cifras (campo file)',
});

const enable = defineAction({
  ...calls.enable,
  summary: 'Habilita el mes para un concesionario, varios o todos (fabricante)',
  tags,
  access: { permission: 'Figures.store' },
  authorize: manufacturerOnly,
  // One audit row for the call: the month, how many periods and which.
  audit: { resource: 'figure-periods', action: 'enable' },
  async handler({ db, user, scope, body, write }) {
    const list = await scopedDealers(db, scope, body.all ? undefined : body.dealer_ids);
    const { period_ids: _ids, ...answer } = await write(
      (tx) => enablePeriods(tx, user, body.year, body.month, list, !!body.all),
      (r) => ({
        recordId: r.period_ids.length === 1 ? r.period_ids[0] : null,
        after: {
          year: body.year,
          month: body.month,
          enabled: r.enabled,
          period_ids: r.period_ids,
          skipped: r.skipped.length,
        },
      }),
    );
    return answer;
  },
});

const confirm = defineAction({
  ...calls.confirm,
  summary: 'Confirma el mes del concesionario: sus cifras quedan bloqueadas',
  tags,
  access: { permission: 'Figures.update' },
  audit: { resource: 'figure-periods', action: 'confirm' },
  async handler({ app, db, user, scope, body, write }) {
    const dealer = await requestedDealer(db, scope, body.dealer_id);
    if (!dealer) throw ValidationError.field('dealer_id', FIGURE_MESSAGES.noDealer);
    // What other modules queue on a confirmation (schedules: the month's Resumen Comparativo to
    // the dealer's contacts, when that schedule is on) is queued in its transaction, and sent
    // once it commits.
    const { row, mails } = await write(
      async (tx) => ({
        row: await confirmPeriod(tx, user, body.year, body.month, dealer),
        mails: await announceConfirmed(tx, dealer, body.year, body.month),
      }),
      ({ row }) => ({ recordId: row.id, before: { status: 'enabled' }, after: row }),
    );
    void deliverQueued(mailContext(app), mails, { stopAtUnreachable: true }).catch((err) =>
      app.log.warn({ err }, 'no se pudo enviar el Resumen Comparativo del mes confirmado'),
    );
    return row;
  },
});

const reopen = defineAction({
  ...calls.reopen,
  summary: 'Reabre un mes confirmado, con el motivo (fabricante)',
  tags,
  access: { permission: 'Figures.store' },
  authorize: manufacturerOnly,
  target: figurePeriodResource,
  audit: { resource: 'figure-periods', action: 'reopen' },
  async handler({ db, user, scope, id, body, target, write }) {
    const [dealer] = await scopedDealers(db, scope, [target.dealer_id]);
    return write((tx) => reopenPeriod(tx, user, id, body.reason, dealer.code));
  },
});

const figureDealers = defineAction({
  ...calls.dealers,
  summary: 'Concesionarios con el estado de su mes (quién falta confirmar)',
  tags,
  access: { permission: 'Figures.view' },
  async handler({ db, scope, query: q }): Promise<FigureDealerRow[]> {
    const dealers = await scopedDealers(db, scope);
    const ids = dealers.map((d) => d.id);
    const [concepts, periods, values] = await Promise.all([
      activeConcepts(db),
      periodStates(db, q.year, ids, q.month),
      readCells(db, 'figures', q.year, ids, q.month),
    ]);
    const active = new Set(concepts.map((c) => c.id));
    const filled = new Map<number, number>();
    for (const v of values)
      if (active.has(v.concept_id)) filled.set(v.dealer_id, (filled.get(v.dealer_id) ?? 0) + 1);
    const byDealer = new Map(dealers.map((d) => [d.id, d]));
    return periods.map((p) => ({
      ...p,
      dealer_code: byDealer.get(p.dealer_id)!.code,
      dealer_name: byDealer.get(p.dealer_id)!.name,
      filled: filled.get(p.dealer_id) ?? 0,
      concepts: active.size,
    }));
  },
});

const remind = defineAction({
  ...calls.remind,
  summary: 'Envía un recordatorio a los concesionarios que no confirmaron el mes (fabricante)',
  tags,
  access: { permission: 'Figures.store' },
  authorize: manufacturerOnly,
  audit: { resource: 'figure-periods', action: 'remind' },
  async handler({ app, db, scope, body, write }) {
    const dealers = await scopedDealers(db, scope, body.dealer_ids);
    return remindLateDealers(
      mailContext(app),
      write,
      app.ctx.config.publicUrl,
      body.year,
      body.month,
      dealers,
    );
  },
});

const casis = defineAction({
  ...calls.casis,
  summary: 'Trae las cifras del mes desde CASIS (URL en Preferencias) y las guarda, todo o nada',
  tags,
  access: { permission: 'Figures.update' },
  audit: { pipeline: 'pullCasis: todas las celdas y una fila de auditoría en una transacción' },
  async handler({ db, user, scope, body }) {
    const dealer = await requestedDealer(db, scope, body.dealer_id);
    return pullCasis(db, user, scope, body.year, body.month, dealer);
  },
});

export const figuresActions = [
  grid,
  batch,
  conceptAcrossDealers,
  exportGrid,
  ...importGrid.actions,
  enable,
  confirm,
  reopen,
  figureDealers,
  remind,
  ...resumenReport,
  casis,
];
