// The dashboard (home tab, SPEC §7 "Dashboard"): its filters, its widget groups and their answers.
// Every number is read by the module that owns it (sales, surveys, dispatches, figures,
// agreements, workshop), for the same filters as that module's screen.

/** The widget groups; GET /api/dashboard/summary?schema=<one of these> answers one. */
export const DASHBOARD_SCHEMAS = [
  'ventas',
  'encuestas',
  'despachos',
  'cifras',
  'seguimiento',
  'taller',
] as const;
export type DashboardSchema = (typeof DASHBOARD_SCHEMAS)[number];

/** The module permission a user needs to see each group (the server answers null without it). */
export const DASHBOARD_GROUP_PERMISSIONS: Record<DashboardSchema, string> = {
  ventas: 'Sales.view',
  encuestas: 'Quizzes.view',
  despachos: 'Transactions.view',
  cifras: 'Figures.view',
  seguimiento: 'Agreements.view',
  taller: 'WorkshopInfos.view',
};

/** The filters every dashboard call reads (query string), as the client keeps them in the URL. */
export interface DashboardFilter {
  year: number;
  /** 1-12; null: the year (to date when it is the current one). */
  month: number | null;
  /** null: every dealer the user sees (a dealer user: its own). */
  dealer_id: number | null;
  manufacturer_id: number | null;
}

/** The period a number covers: [from, to] inclusive, and the same days a year before. */
export interface DashboardPeriod {
  from: string;
  to: string;
  prev_from: string;
  prev_to: string;
  /** The month whose figures (cifras) are shown: the one asked for, else the last complete one. */
  figures_month: number;
}

/** One number of a widget: this period, the same period a year before, and a goal where there is one. */
export interface DashboardNumber {
  value: number | null;
  previous: number | null;
  target?: number | null;
}

/** A month of a trend: this year's value and the year before's. */
export interface DashboardMonth {
  month: number;
  value: number | null;
  previous: number | null;
  target?: number | null;
}

export interface DashboardVentas {
  /** CEM sales (registered sales) in the period. */
  sales: DashboardNumber;
  /** Units sold per day-by-day entry (Venta Diaria). */
  daily: DashboardNumber;
  /** CEM sales per month of the year. */
  by_month: DashboardMonth[];
  /** CEM sales per brand in the period. */
  by_brand: { manufacturer_id: number; name: string; value: number; previous: number }[];
}

export interface DashboardEncuestas {
  sales: number;
  invitations: number;
  responses: number;
  /** Responses ÷ sales of the period (the Cobertura of Satisfaccion de Cliente). */
  coverage: DashboardNumber;
  /** Ratings at the top level ÷ rating answers of the sales questionnaire. */
  top_box: DashboardNumber;
  /** Coverage and top box per month of the year. */
  coverage_by_month: DashboardMonth[];
  top_box_by_month: DashboardMonth[];
  /** The three best and the three last ranked dealers. */
  best: { dealer_id: number; dealer_name: string; top_box: number | null; position?: number }[];
  worst: { dealer_id: number; dealer_name: string; top_box: number | null; position?: number }[];
}

export interface DashboardDespachos {
  /** Units dispatched against the objective (target) of the period. */
  dispatched: DashboardNumber;
  /** Units sold (Venta Diaria) in the same days. */
  sold: DashboardNumber;
  objective: number;
  objective_to_date: number;
  /** Dispatched ÷ objective to date, %. */
  pacing: number | null;
  /** Dispatched ÷ objective, %. */
  compliance: number | null;
  status: string | null;
  days_elapsed: number;
  days_total: number;
  by_month: DashboardMonth[];
  /** Dealers behind their pace (status Atrasado), worst first. */
  behind: { dealer_id: number; dealer_name: string; manufacturer_name: string; pacing: number | null }[];
}

export interface DashboardCifras {
  year: number;
  month: number;
  /** Mean of the concepts' year-to-date compliance (%), this year and the year before. */
  compliance: DashboardNumber;
  concepts: {
    concept_id: number;
    code: string;
    name: string;
    unit: string | null;
    ytd: number | null;
    ytd_prev: number | null;
    ytd_fee: number | null;
    /** %; inverted for lower-is-better concepts. */
    ytd_compliance: number | null;
    compliance: number | null;
  }[];
}

export interface DashboardSeguimiento {
  /**
   * Open agreements (pending, in progress) due in the period, as Seguimiento counts them;
   * previous: those due in the same period a year before that are still open.
   */
  open_agreements: DashboardNumber;
  overdue_agreements: number;
  /** Open agreements by days past due (Seguimiento's buckets: en plazo, 1-30, 31-60, 61-90, >90). */
  agreements_by_age: { key: string; name: string; count: number }[];
  /** Survey alerts open at the end of the period (opened by then, not closed by then). */
  open_alerts: DashboardNumber;
  /** Those alerts by days open. */
  alerts_by_age: { bucket: string; count: number }[];
}

export interface DashboardTaller {
  /** Hours worked ÷ available hours (capacities of the dealer-months that reported), %. */
  productivity: DashboardNumber;
  /** Hours sold ÷ hours worked, %. */
  efficiency: DashboardNumber;
  hours_worked: number;
  available_hours: number | null;
  /** Dealer-months with workshop information in the period. */
  months_reported: number;
  /** Productivity per month, %. */
  by_month: DashboardMonth[];
}

export interface DashboardGroups {
  ventas: DashboardVentas;
  encuestas: DashboardEncuestas;
  despachos: DashboardDespachos;
  cifras: DashboardCifras;
  seguimiento: DashboardSeguimiento;
  taller: DashboardTaller;
}

/** GET /api/dash-widgets: every group the user may see (a group of a module it cannot view is null). */
export interface DashboardAnswer {
  filter: DashboardFilter;
  period: DashboardPeriod;
  groups: { [K in DashboardSchema]: DashboardGroups[K] | null };
}

/** Age buckets of open survey alerts, in days open. */
export const AGE_BUCKETS = [
  { bucket: '0-7', max: 7 },
  { bucket: '8-30', max: 30 },
  { bucket: '31-90', max: 90 },
  { bucket: '>90', max: Number.POSITIVE_INFINITY },
] as const;
