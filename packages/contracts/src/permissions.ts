// Permission names and the menu tree (tabs). The seed writes this tree into the `tabs`
// table; the client matches tabs to screens by `name`. A permission is `${base}.${action}`.
// The entry of a resource's screen takes its title and permission from the resource's head.
import { RESOURCE_HEADS, type ResourcePath } from './resources/heads';

export const PERMISSION_ACTIONS = ['view', 'store', 'update', 'destroy', 'export'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const permissionName = (base: string, action: PermissionAction) => `${base}.${action}`;

/** The Spanish word of each action ("Concesionarios - Ver", the role permission tree, 403s). */
export const PERMISSION_ACTION_LABELS: Record<PermissionAction, string> = {
  view: 'Ver',
  store: 'Crear',
  update: 'Editar',
  destroy: 'Eliminar',
  export: 'Exportar',
};

export interface MenuNode {
  /** Screen name the client matches (SPEC §2). Unique. */
  name: string;
  title: string;
  /** Client path; absent for a group that only holds children. */
  path?: string;
  icon: string;
  /** Permission base; `.view` shows the entry. Groups show when a child shows. */
  permission?: string;
  /** Actions this screen has besides view (defaults to all five). */
  actions?: PermissionAction[];
  /** The resource (API path) the screen lists: the generic screen of its contract unless the
   * client names another component for it. */
  resource?: ResourcePath;
  children?: MenuNode[];
}

const ALL: PermissionAction[] = [...PERMISSION_ACTIONS];
const READ_EXPORT: PermissionAction[] = ['view', 'export'];

/** The menu entry of a resource's screen: title and permission are the resource's own. */
function resourceEntry(
  resource: ResourcePath,
  node: Omit<MenuNode, 'title' | 'permission' | 'resource'>,
): MenuNode {
  const { title, permission } = RESOURCE_HEADS[resource];
  return { ...node, title, permission, resource, actions: node.actions ?? ALL };
}

export const MENU_TREE: MenuNode[] = [
  {
    name: 'home',
    title: 'Dashboard',
    path: '/main/home',
    icon: 'Dashboard',
    permission: 'Dashboard',
    actions: ['view'],
  },
  {
    name: 'organization',
    title: 'Organizacion',
    icon: 'Business',
    children: [
      resourceEntry('companies', { name: 'company', path: '/main/company', icon: 'Apartment' }),
      resourceEntry('zones', { name: 'zone', path: '/main/zone', icon: 'Map' }),
      resourceEntry('dealers', { name: 'dealer', path: '/main/dealer', icon: 'Store' }),
      resourceEntry('dealer-branches', {
        name: 'dealer-branch',
        path: '/main/dealer-branch',
        icon: 'Storefront',
      }),
      resourceEntry('employees', { name: 'employee', path: '/main/employee', icon: 'Badge' }),
      resourceEntry('dealer-contacts', {
        name: 'dealer-contact',
        path: '/main/dealer-contact',
        icon: 'ContactMail',
      }),
      resourceEntry('countries', { name: 'country', path: '/main/country', icon: 'Public' }),
      resourceEntry('departments', { name: 'department', path: '/main/department', icon: 'Terrain' }),
      resourceEntry('provinces', { name: 'province', path: '/main/province', icon: 'Landscape' }),
      resourceEntry('districts', { name: 'district', path: '/main/district', icon: 'Place' }),
    ],
  },
  {
    name: 'brands',
    title: 'Marcas',
    icon: 'DirectionsCar',
    children: [
      resourceEntry('manufacturers', {
        name: 'manufacturer',
        path: '/main/manufacturer',
        icon: 'LocalOffer',
      }),
      resourceEntry('manufacturer-models', {
        name: 'manufacturer-model',
        path: '/main/manufacturer-model',
        icon: 'CarRepair',
      }),
    ],
  },
  {
    name: 'cem',
    title: 'CEM',
    icon: 'PointOfSale',
    children: [
      resourceEntry('sales', { name: 'sales', path: '/sales', icon: 'ReceiptLong' }),
      {
        name: 'quiz',
        title: 'Satisfaccion de Cliente',
        path: '/quiz',
        icon: 'SentimentSatisfied',
        permission: 'Quizzes',
        actions: ALL,
      },
    ],
  },
  {
    name: 'agreement',
    title: 'Seguimiento',
    path: '/agreement',
    icon: 'Handshake',
    permission: 'Agreements',
    actions: ALL,
  },
  {
    name: 'workshopinfo',
    title: 'Info Taller',
    path: '/workshopinfo',
    icon: 'Build',
    permission: 'WorkshopInfos',
    actions: ALL,
  },
  {
    name: 'figures-group',
    title: 'Cifras',
    icon: 'QueryStats',
    children: [
      resourceEntry('concepts', { name: 'concept', path: '/main/concept', icon: 'ListAlt' }),
      {
        name: 'capacity',
        title: 'Capacidades',
        path: '/main/capacity',
        icon: 'Garage',
        permission: 'Capacities',
        actions: ALL,
      },
      {
        name: 'figure',
        title: 'Cifras',
        path: '/main/figure',
        icon: 'TableChart',
        permission: 'Figures',
        actions: ALL,
      },
      {
        name: 'resumen',
        title: 'Resumen Comparativo',
        path: '/main/resumen',
        icon: 'CompareArrows',
        permission: 'Figures.Resumen',
        actions: READ_EXPORT,
      },
      { name: 'fee', title: 'Cuotas', path: '/main/fee', icon: 'Flag', permission: 'Fees', actions: ALL },
    ],
  },
  {
    name: 'transactions',
    title: 'Despachos',
    icon: 'LocalShipping',
    children: [
      {
        name: 'dispatches',
        title: 'Despachos',
        path: '/main/dispatches',
        icon: 'LocalShipping',
        permission: 'Transactions',
        actions: ALL,
      },
      {
        name: 'daily',
        title: 'Venta Diaria',
        path: '/main/daily',
        icon: 'Today',
        permission: 'DailySales',
        actions: ALL,
      },
      {
        name: 'dashboard',
        title: 'Tablero',
        path: '/main/dashboard',
        icon: 'Insights',
        permission: 'Dashboard.Summary',
        actions: ['view'],
      },
    ],
  },
  {
    name: 'documents',
    title: 'Documentos',
    icon: 'Folder',
    children: [
      {
        name: 'extranet',
        title: 'Extranet',
        path: '/extranet',
        icon: 'FolderShared',
        permission: 'Documents',
        actions: ALL,
      },
      resourceEntry('categories', { name: 'category', path: '/main/category', icon: 'Category' }),
    ],
  },
  {
    name: 'security',
    title: 'Seguridad',
    path: '/security',
    icon: 'Security',
    children: [
      resourceEntry('users', { name: 'user', path: '/main/user', icon: 'People' }),
      resourceEntry('roles', { name: 'role', path: '/main/role', icon: 'AdminPanelSettings' }),
      resourceEntry('tabs', { name: 'tab', path: '/main/tab', icon: 'AccountTree' }),
      resourceEntry('audit-logs', {
        name: 'audit',
        path: '/main/audit',
        icon: 'History',
        actions: READ_EXPORT,
      }),
    ],
  },
  {
    name: 'preferences',
    title: 'Preferencias',
    path: '/preferences',
    icon: 'Settings',
    permission: 'Admin.Preferences',
    actions: ALL,
  },
];

/** Every permission name the menu implies, in tree order. */
export function allPermissions(tree: MenuNode[] = MENU_TREE): string[] {
  const out: string[] = [];
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.permission) for (const a of n.actions ?? ALL) out.push(permissionName(n.permission, a));
      if (n.children) walk(n.children);
    }
  };
  walk(tree);
  return out;
}

/** Screen titles by permission base ("Admin.Dealers" → its menu title), the first one in tree order. */
export function permissionTitles(tree: MenuNode[] = MENU_TREE): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (nodes: MenuNode[]) => {
    for (const n of nodes) {
      if (n.permission && !out.has(n.permission)) out.set(n.permission, n.title);
      if (n.children) walk(n.children);
    }
  };
  walk(tree);
  return out;
}

/** What the Concesionario role holds: its own dealer's records, read of the rest it needs. */
export const DEALER_ROLE_PERMISSIONS: string[] = [
  'Dashboard.view',
  'Admin.DealerBranches.view',
  'Admin.Employees.view',
  'Admin.Employees.store',
  'Admin.Employees.update',
  'Admin.Employees.destroy',
  'Admin.Employees.export',
  'Admin.DealerContacts.view',
  'Admin.DealerContacts.store',
  'Admin.DealerContacts.update',
  'Admin.DealerContacts.destroy',
  'Admin.DealerContacts.export',
  'Sales.view',
  'Sales.store',
  'Sales.update',
  'Sales.export',
  'Quizzes.view',
  'Quizzes.export',
  'Agreements.view',
  'Agreements.update',
  'Agreements.export',
  'WorkshopInfos.view',
  'WorkshopInfos.store',
  'WorkshopInfos.update',
  'WorkshopInfos.export',
  'Capacities.view',
  'Capacities.update',
  'Capacities.export',
  'Figures.view',
  'Figures.update',
  'Figures.export',
  'Figures.Resumen.view',
  'Fees.view',
  'Documents.view',
  'DailySales.view',
  'DailySales.store',
  'DailySales.update',
  'DailySales.export',
  'Transactions.view',
];

export const ADMIN_ROLE = 'Administrador';
export const DEALER_ROLE = 'Concesionario';
