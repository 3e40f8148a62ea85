// The dashboard calls of SPEC §7. Each reads the filters (year, month, dealer_id, manufacturer_id)
// and answers the widget groups it names, each group only to a user who may view its module.
import {
  DASHBOARD_GROUP_PERMISSIONS,
  DASHBOARD_SCHEMAS,
  type DashboardAnswer,
  type DashboardGroups,
  type DashboardSchema,
  dashboardCalls,
  dashboardGroupSchemas,
  dashboardResults,
} from '@app/contracts';
import type { z } from 'zod';
import { type ActionContext, defineAction } from '../../core/action';
import type { CurrentUser } from '../../core/context';
import { ForbiddenError } from '../../core/errors';
import { defineReport } from '../../core/report';
import { type DashboardQueryIn, dashboardQuery, readDashboardQuery } from './dashboard.filter';
import {
  cifrasGroup,
  despachosGroup,
  encuestasGroup,
  type GroupContext,
  ventasGroup,
} from './dashboard.groups';
import { seguimientoGroup, tallerGroup } from './dashboard.tickets';

/** Each group's function; who may see it is DASHBOARD_GROUP_PERMISSIONS (contracts). */
const GROUPS: { [K in DashboardSchema]: (c: GroupContext) => Promise<DashboardGroups[K]> } = {
  ventas: ventasGroup,
  encuestas: encuestasGroup,
  despachos: despachosGroup,
  cifras: cifrasGroup,
  seguimiento: seguimientoGroup,
  taller: tallerGroup,
};

const tags = ['Dashboard'];
const access = { permission: 'Dashboard.view', or: ['Dashboard.Summary.view'] };
type Ctx = ActionContext<undefined, CurrentUser, DashboardQueryIn>;

/** The groups named, computed at once; a group of a module the user cannot view is null. */
async function answer<S extends DashboardSchema>(
  ctx: Pick<Ctx, 'db' | 'user' | 'query' | 'scope'>,
  schemas: readonly S[],
) {
  const q = await readDashboardQuery(ctx.db, ctx.query);
  const c: GroupContext = { ...q, db: ctx.db, scope: ctx.scope };
  const values = await Promise.all(
    schemas.map((s) => (ctx.user.permissions.has(DASHBOARD_GROUP_PERMISSIONS[s]) ? GROUPS[s](c) : null)),
  );
  const groups = Object.fromEntries(schemas.map((s, i) => [s, values[i]])) as {
    [K in S]: DashboardGroups[K] | null;
  };
  return { filter: q.filter, period: q.period, groups };
}

/** One group, for the calls that answer it alone: 403 when the user cannot view its module. */
async function single<S extends DashboardSchema>(ctx: Ctx, schema: S) {
  const permission = DASHBOARD_GROUP_PERMISSIONS[schema];
  if (!ctx.user.permissions.has(permission))
    throw new ForbiddenError('No tiene permiso para ver este indicador', `Permiso requerido: ${permission}`);
  const { filter, period, groups } = await answer(ctx, [schema]);
  return { filter, period, group: groups[schema] as DashboardGroups[S] };
}

/** The group alone, as the widget calls answer it. */
const groupOf = async <S extends DashboardSchema>(ctx: Ctx, schema: S) => (await single(ctx, schema)).group;

const call = (path: string, summary: string, result: z.ZodType, handler: (ctx: Ctx) => Promise<unknown>) =>
  defineAction({ method: 'GET', path, summary, tags, access, query: dashboardQuery, result, handler });

/** One line of the indicators: the number of the period, the same period a year before. */
export interface DashboardIndicator {
  name: string;
  unit: 'unidades' | '%' | 'registros';
  value: number | null;
  previous: number | null;
  /** (value - previous) ÷ previous, % (null without a previous value). */
  variation: number | null;
}

const variation = (v: number | null, p: number | null) =>
  v === null || p === null || p === 0 ? null : Math.round(((v - p) / Math.abs(p)) * 1000) / 10;

/**
 * The dashboard's headline numbers as a list (the cards of /api/dash-figures), for the user's
 * groups: the JSON call, its .xlsx, and the file of the weekly mail (modules/schedules).
 */
export const dashboardIndicators = defineReport({
  path: '/api/dashboard/indicators',
  summary: 'Las cifras principales del tablero como lista (periodo y año anterior)',
  exportSummary: 'Las cifras principales del tablero en .xlsx',
  tags,
  permission: 'Dashboard.view',
  exportPermission: 'Dashboard.view',
  query: dashboardQuery,
  result: dashboardResults.indicators,
  async load(ctx) {
    const { filter, period, groups: g } = await answer(ctx, DASHBOARD_SCHEMAS);
    const rows: DashboardIndicator[] = [];
    const add = (
      name: string,
      unit: DashboardIndicator['unit'],
      n: { value: number | null; previous: number | null } | null | undefined,
    ) => {
      if (n)
        rows.push({
          name,
          unit,
          value: n.value,
          previous: n.previous,
          variation: variation(n.value, n.previous),
        });
    };
    add('Ventas CEM', 'unidades', g.ventas?.sales);
    add('Unidades despachadas', 'unidades', g.despachos?.dispatched);
    if (g.despachos)
      add('Avance del objetivo a la fecha', '%', { value: g.despachos.pacing, previous: null });
    add('Cobertura de encuestas', '%', g.encuestas?.coverage);
    add('Top box', '%', g.encuestas?.top_box);
    add('Cumplimiento de cifras', '%', g.cifras?.compliance);
    add('Acuerdos abiertos', 'registros', g.seguimiento?.open_agreements);
    add('Alertas abiertas', 'registros', g.seguimiento?.open_alerts);
    add('Productividad de taller', '%', g.taller?.productivity);
    return { filter, period, rows };
  },
  rows: (data) => data.rows,
  columns: [
    { key: 'name', label: 'Indicador', width: 34 },
    { key: 'unit', label: 'Unidad', width: 12 },
    { key: 'value', label: 'Periodo', type: 'number', width: 16 },
    { key: 'previous', label: 'Año anterior', type: 'number', width: 16 },
    { key: 'variation', label: 'Variación %', type: 'percent', width: 14 },
  ],
  file: ({ period }) => ({
    filename: `Tablero_${period.from}_${period.to}.xlsx`,
    sheetName: 'Tablero',
    title: 'Resumen del tablero',
    info: [
      ['Periodo', `${period.from} a ${period.to}`],
      ['Año anterior', `${period.prev_from} a ${period.prev_to}`],
    ],
  }),
});

export const dashboardActions = [
  ...dashboardIndicators,
  call(
    '/api/dash-widgets',
    'Todos los grupos del tablero para los filtros',
    dashboardResults.widgets,
    (ctx) => answer(ctx, DASHBOARD_SCHEMAS) as Promise<DashboardAnswer>,
  ),
  call(
    '/api/dash-figures',
    'Las cifras principales del tablero (tarjetas)',
    dashboardResults.figures,
    async (ctx) => {
      const { filter, period, groups: g } = await answer(ctx, DASHBOARD_SCHEMAS);
      return {
        filter,
        period,
        cards: {
          sales: g.ventas?.sales ?? null,
          dispatched: g.despachos?.dispatched ?? null,
          pacing: g.despachos?.pacing ?? null,
          coverage: g.encuestas?.coverage ?? null,
          top_box: g.encuestas?.top_box ?? null,
          compliance: g.cifras?.compliance ?? null,
          open_agreements: g.seguimiento?.open_agreements ?? null,
          open_alerts: g.seguimiento?.open_alerts ?? null,
          productivity: g.taller?.productivity ?? null,
        },
      };
    },
  ),
  call(
    '/api/widget-sales',
    'Ventas CEM y venta diaria por mes y marca',
    dashboardGroupSchemas.ventas,
    (ctx) => groupOf(ctx, 'ventas'),
  ),
  call(
    '/api/widget-quizzes',
    'Cobertura y top box de las encuestas, con su tendencia',
    dashboardGroupSchemas.encuestas,
    (ctx) => groupOf(ctx, 'encuestas'),
  ),
  call(
    '/api/widget-figures',
    'Cumplimiento de cifras (cifras ÷ cuotas) por concepto',
    dashboardGroupSchemas.cifras,
    (ctx) => groupOf(ctx, 'cifras'),
  ),
  call(
    '/api/chart-compliance',
    'Cumplimiento por concepto para el gráfico',
    dashboardResults.compliance,
    async (ctx) => {
      const g = await groupOf(ctx, 'cifras');
      return g.concepts
        .filter((c) => c.ytd_compliance !== null)
        .map((c) => ({
          concept_id: c.concept_id,
          name: c.name,
          compliance: c.ytd_compliance,
          month: c.compliance,
        }));
    },
  ),
  call(
    '/api/dash-tickets',
    'Acuerdos y alertas abiertos por antigüedad',
    dashboardGroupSchemas.seguimiento,
    (ctx) => groupOf(ctx, 'seguimiento'),
  ),
  defineAction({
    ...dashboardCalls.summary,
    summary: 'Un grupo del tablero (schema: ventas, encuestas, despachos, cifras, seguimiento, taller)',
    tags,
    access,
    async handler(ctx) {
      const { schema } = ctx.query;
      const { filter, period, group } = await single(ctx, schema);
      return { schema, filter, period, result: group };
    },
  }),
];
