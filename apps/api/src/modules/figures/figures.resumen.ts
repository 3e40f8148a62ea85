// The Resumen Comparativo (SPEC §7) declared once: its JSON call, its .xlsx export, and the same
// file attached to the monthly mail of a confirmed month (modules/schedules).
import { conceptExcelFormat, figureCalls, MONTH_SHORT, type ResumenAnswer } from '@app/contracts';
import { defineReport } from '../../core/report';
import { figureSummary } from './figures.compare';
import { requestedDealer } from './figures.scope';

const tags = ['Cifras'];

export const resumenQuery = figureCalls.resumen.query;

/** The columns holding a concept's own values (and their differences), in its unit. */
const VALUE_KEYS = new Set([
  'month',
  'month_prev',
  'month_var',
  'ytd',
  'ytd_prev',
  'ytd_var',
  'fee',
  'ytd_fee',
]);

const pctOf = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 10);
type ResumenRow = ResumenAnswer['rows'][number];
const pctCell = (k: keyof ResumenRow) => (r: ResumenRow) => pctOf(r[k] as number | null);

/** The comparison of the query's month (default: this month) for its dealer, or every dealer. */
export const resumenReport = defineReport({
  path: figureCalls.resumen.path,
  result: figureCalls.resumen.result,
  exportPath: figureCalls.resumenExport.path,
  summary: 'Por concepto: el mes, el mismo mes del año anterior, el acumulado de ambos años y la variación',
  exportSummary: 'Resumen comparativo en .xlsx',
  tags,
  permission: 'Figures.Resumen.view',
  query: resumenQuery,
  async load({ db, scope, query: q }) {
    const dealer = await requestedDealer(db, scope, q.dealer_id);
    const rows = await figureSummary(db, {
      year: q.year,
      month: q.month,
      dealerIds: dealer ? [dealer.id] : null,
    });
    const answer: ResumenAnswer = {
      year: q.year,
      month: q.month,
      dealer_id: dealer?.id ?? null,
      dealer_name: dealer?.name ?? null,
      rows,
    };
    return { answer, dealer };
  },
  answer: (data) => data.answer,
  rows: (data) => data.answer.rows,
  columns: ({ answer: { year, month } }) => {
    const m = MONTH_SHORT[month - 1];
    const w = 16;
    return [
      { key: 'group', label: 'Grupo', width: w },
      { key: 'name', label: 'Concepto', width: 36 },
      { key: 'month', label: `${m} ${year}`, width: w },
      { key: 'month_prev', label: `${m} ${year - 1}`, width: w },
      { key: 'month_var', label: 'Variación', width: w },
      {
        key: 'month_var_pct',
        label: 'Variación %',
        width: w,
        value: pctCell('month_var_pct'),
        type: 'percent',
      },
      { key: 'ytd', label: `Acumulado ${year}`, width: w },
      { key: 'ytd_prev', label: `Acumulado ${year - 1}`, width: w },
      { key: 'ytd_var', label: 'Variación acumulada', width: w },
      {
        key: 'ytd_var_pct',
        label: 'Variación acumulada %',
        width: w,
        value: pctCell('ytd_var_pct'),
        type: 'percent',
      },
      { key: 'fee', label: `Cuota ${m}`, width: w },
      { key: 'compliance', label: 'Cumplimiento %', width: w, value: pctCell('compliance'), type: 'percent' },
      { key: 'ytd_fee', label: 'Cuota acumulada', width: w },
      {
        key: 'ytd_compliance',
        label: 'Cumplimiento acumulado %',
        width: w,
        value: pctCell('ytd_compliance'),
        type: 'percent',
      },
    ];
  },
  // The values read as the screen shows them, by the row's concept: 'S/ 45,503,395.22', '17.4 %',
  // '1,250' (the variations in % and the compliance are percentages of their own).
  cellFormat: (row, key) => (VALUE_KEYS.has(key) ? conceptExcelFormat(row.unit) : undefined),
  file: ({ answer: { year, month }, dealer }) => ({
    filename: `Resumen_Comparativo_${year}_${String(month).padStart(2, '0')}${dealer ? `_${dealer.code}` : ''}.xlsx`,
    sheetName: 'Resumen comparativo',
  }),
});
