// The head of every resource contract: API path, permission base, Spanish title and default
// page size (SPEC §9: 5 unless said). Free of zod on purpose: the menu (MENU_TREE, in the login
// bundle) reads titles and permissions from here, and the contracts (resources/*.ts) are built
// on these heads, so neither restates them.

export interface ResourceHead {
  /** URL segment after /api/, e.g. 'dealer-branches'. */
  path: string;
  /** Permission base, e.g. 'Admin.Dealers' (.view .store .update .destroy .export). */
  permission: string;
  /** Spanish title: list heading, dialog title, menu entry, export file name. */
  title: string;
  /** Default page size of its list (SPEC §9). */
  pageSize: number;
}

type HeadsIn = Record<string, { permission: string; title: string; pageSize?: number }>;

function heads<T extends HeadsIn>(list: T): { [K in keyof T & string]: ResourceHead & { path: K } } {
  const out: Record<string, ResourceHead> = {};
  for (const [path, h] of Object.entries(list)) out[path] = { path, pageSize: 5, ...h };
  return out as { [K in keyof T & string]: ResourceHead & { path: K } };
}

export const RESOURCE_HEADS = heads({
  companies: { permission: 'Admin.Companies', title: 'Empresas' },
  zones: { permission: 'Admin.Zones', title: 'Zonas' },
  dealers: { permission: 'Admin.Dealers', title: 'Concesionarios' },
  'dealer-branches': { permission: 'Admin.DealerBranches', title: 'Sedes' },
  employees: { permission: 'Admin.Employees', title: 'Empleados' },
  'dealer-contacts': { permission: 'Admin.DealerContacts', title: 'Contactos' },
  countries: { permission: 'Admin.Countries', title: 'Paises' },
  departments: { permission: 'Admin.Departments', title: 'Departamentos', pageSize: 10 },
  provinces: { permission: 'Admin.Provinces', title: 'Provincias', pageSize: 10 },
  districts: { permission: 'Admin.Districts', title: 'Distritos', pageSize: 10 },
  manufacturers: { permission: 'Admin.Manufacturers', title: 'Marcas' },
  'manufacturer-models': { permission: 'Admin.ManufacturerModels', title: 'Modelos' },
  concepts: { permission: 'Admin.Concepts', title: 'Conceptos' },
  categories: { permission: 'Admin.Categories', title: 'Categorias' },
  'general-types': { permission: 'Admin.Preferences', title: 'Tipos generales', pageSize: 15 },
  'type-values': { permission: 'Admin.Preferences', title: 'Valores de tipo', pageSize: 10 },
  configurations: { permission: 'Admin.Preferences', title: 'Configuraciones', pageSize: 10 },
  users: { permission: 'Admin.Users', title: 'Usuarios', pageSize: 10 },
  roles: { permission: 'Admin.Roles', title: 'Roles', pageSize: 50 },
  tabs: { permission: 'Admin.Tabs', title: 'Menu' },
  'audit-logs': { permission: 'Admin.Audit', title: 'Auditoria', pageSize: 10 },
  sales: { permission: 'Sales', title: 'CEM' },
  quizzes: { permission: 'Quizzes', title: 'Encuestas' },
  // A questionnaire's questions are edited on one page (the questions dialog), not paged by 5.
  'quiz-questions': { permission: 'Quizzes', title: 'Preguntas', pageSize: 50 },
  // Read-only but for the dealer's reply and close (actions; the audit screen names them).
  'quiz-alerts': { permission: 'Quizzes', title: 'Alertas de encuesta' },
  // Figures, fees and capacities: read-only lists; the grids write them (modules/figures).
  'figure-periods': { permission: 'Figures', title: 'Periodos de cifras' },
  'figure-values': { permission: 'Figures', title: 'Cifras' },
  'fee-values': { permission: 'Fees', title: 'Cuotas' },
  'workshop-capacities': { permission: 'Capacities', title: 'Capacidades' },
});

export type ResourcePath = keyof typeof RESOURCE_HEADS;
