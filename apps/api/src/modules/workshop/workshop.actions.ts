// The Info Taller calls beyond CRUD, declared on the engine: the template, the .xlsx import and
// the JSON batch (all or nothing, a report per row), and report-info with its .xlsx export.
import {
  MONTH_NAMES,
  QUERY_LABELS,
  type ReportInfoRow,
  reportInfoByDealer,
  reportInfoByMonth,
  WORKSHOP_FILES,
  workshopCalls,
} from '@app/contracts';
import type { z } from 'zod';
import type { Db } from '../../core/action';
import { ValidationError } from '../../core/errors';
import { defineReport } from '../../core/report';
import type { Scope } from '../../core/scope';
import { requestedDealer } from '../figures/figures.scope';
import { workshopImport } from './workshop.import';
import { reportInfo } from './workshop.summary';

const tags = ['Info Taller'];

const reportQuery = workshopCalls.report.query;

/** The period and the dealer shown of a report-info query (the dealer already held by the engine). */
async function reportPeriod(db: Db, scope: Scope, q: z.output<typeof reportQuery>) {
  const monthFrom = q.month_from ?? q.month ?? 1;
  const monthTo = q.month_to ?? q.month ?? 12;
  if (monthFrom > monthTo)
    throw ValidationError.field('month_to', 'Mes hasta no puede ser anterior a Mes desde');
  const dealer = await requestedDealer(db, scope, q.dealer_id);
  return { year: q.year, monthFrom, monthTo, dealer, view: q.view };
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : v * 100);

/** A report row's ratios as percents, the year before beside them. */
const prev = (r: ReportInfoRow) => r.previous;

const reportInfoActions = defineReport({
  path: workshopCalls.report.path,
  result: workshopCalls.report.result,
  exportPath: workshopCalls.reportExport.path,
  summary:
    'Productividad, eficiencia, tarifa efectiva de mano de obra y repuestos por OT por concesionario y mes, con el mismo mes del año anterior',
  exportSummary: 'Reporte de Info Taller (report-info) en .xlsx',
  tags,
  permission: 'WorkshopInfos.view',
  query: reportQuery,
  async load({ db, query, scope }) {
    const q = await reportPeriod(db, scope, query);
    return { q, rows: await reportInfo(db, scope, q) };
  },
  // ?view summarises the answer (a row per dealer, or per month) so the screen never needs the
  // network's dealer-months at once; the .xlsx keeps every dealer-month.
  answer: ({ q, rows }) =>
    q.view === 'dealer' ? reportInfoByDealer(rows) : q.view === 'network' ? reportInfoByMonth(rows) : rows,
  rows: (data) => data.rows,
  columns: ({ q }) => {
    const y = q.year - 1;
    return [
      { key: 'dealer_code', label: 'Código', width: 10 },
      { key: 'dealer_name', label: QUERY_LABELS.dealer, width: 28 },
      { key: 'month', label: 'Mes', width: 12, value: (r) => MONTH_NAMES[r.month - 1] },
      { key: 'work_orders_closed', label: 'OT cerradas', type: 'count', total: true },
      { key: 'hours_sold', label: 'Horas vendidas', type: 'number', total: true },
      { key: 'hours_worked', label: 'Horas trabajadas', type: 'number', total: true },
      { key: 'available_hours', label: 'Horas disponibles', type: 'number', total: true },
      { key: 'labour_revenue', label: 'Venta mano de obra', type: 'money', total: true, width: 18 },
      { key: 'parts_revenue', label: 'Venta repuestos', type: 'money', total: true, width: 18 },
      { key: 'productivity', label: 'Productividad', type: 'percent', value: (r) => pct(r.productivity) },
      {
        key: 'prev_productivity',
        label: `Productividad ${y}`,
        type: 'percent',
        value: (r) => pct(prev(r)?.productivity),
      },
      { key: 'efficiency', label: 'Eficiencia', type: 'percent', value: (r) => pct(r.efficiency) },
      {
        key: 'prev_efficiency',
        label: `Eficiencia ${y}`,
        type: 'percent',
        value: (r) => pct(prev(r)?.efficiency),
      },
      { key: 'labour_rate', label: 'Tarifa efectiva MO', type: 'money' },
      {
        key: 'prev_labour_rate',
        label: `Tarifa efectiva MO ${y}`,
        type: 'money',
        value: (r) => prev(r)?.labour_rate ?? null,
      },
      { key: 'parts_per_order', label: 'Repuestos por OT', type: 'money' },
      {
        key: 'prev_parts_per_order',
        label: `Repuestos por OT ${y}`,
        type: 'money',
        value: (r) => prev(r)?.parts_per_order ?? null,
      },
    ];
  },
  file: ({ q }) => ({
    filename: WORKSHOP_FILES.report(q.year),
    sheetName: 'Info Taller',
    title: 'Reporte de Info Taller',
    info: [
      [QUERY_LABELS.dealer, q.dealer ? `${q.dealer.code} ${q.dealer.name}` : 'Todos'],
      ['Periodo', `${MONTH_NAMES[q.monthFrom - 1]} a ${MONTH_NAMES[q.monthTo - 1]} ${q.year}`],
    ],
    totalsLabel: 'Total',
    totalsFrom: (s) => ({
      productivity: s.available_hours ? (s.hours_worked / s.available_hours) * 100 : null,
      efficiency: s.hours_worked ? (s.hours_sold / s.hours_worked) * 100 : null,
      labour_rate: s.hours_sold ? s.labour_revenue / s.hours_sold : null,
      parts_per_order: s.work_orders_closed ? s.parts_revenue / s.work_orders_closed : null,
    }),
    freezeColumns: 3,
  }),
});

export const workshopActions = [...workshopImport.actions, ...reportInfoActions];
