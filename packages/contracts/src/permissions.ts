// Permission names and the menu tree (tabs). The seed writes this tree into the `tabs`
// table; the client matches tabs to screens by `name`. A permission is `${base}.${action}`.
// The groups and the screens that are not a resource's list are written here; a resource's
// screen is placed by its contract (`menu`), with the contract's title and permission.

import { PERMISSION_ACTIONS, type PermissionAction, permissionName } from './permission-actions';
import { RESOURCE_CONTRACTS, type ResourcePath } from './resources';
import type { MenuPlacement } from './resources/fields';

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

/** The groups and the screens that are not a resource's list (a resource's come from its contract). */
const MENU_SKELETON: MenuNode[] = [
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
    title: 'Organización',
    icon: 'Business',
    children: [],
  },
  {
    name: 'brands',
    title: 'Marcas',
    icon: 'DirectionsCar',
    children: [],
  },
  {
    name: 'cem',
    title: 'CEM',
    icon: 'PointOfSale',
    children: [
      {
        name: 'quiz',
        title: 'Satisfacción de Cliente',
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
    ],
  },
  {
    name: 'security',
    title: 'Seguridad',
    path: '/security',
    icon: 'Security',
    children: [],
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

/** The menu entry of a resource's screen: title and permission are its contract's. */
function resourceEntry(path: ResourcePath, menu: MenuPlacement): MenuNode {
  const { title, permission } = RESOURCE_CONTRACTS[path];
  const { name, icon, actions } = menu;
  return {
    name,
    title,
    icon,
    permission,
    resource: path,
    path: menu.path ?? `/main/${name}`,
    actions: actions ? [...actions] : ALL,
  };
}

/**
 * The skeleton with each resource's entry in its group: first ones before the group's own
 * entries, the others after them, in contract order.
 */
function withResourceEntries(skeleton: MenuNode[]): MenuNode[] {
  const first = new Map<string, MenuNode[]>();
  const last = new Map<string, MenuNode[]>();
  for (const [path, contract] of Object.entries(RESOURCE_CONTRACTS)) {
    const menu = (contract as { menu?: MenuPlacement }).menu;
    if (!menu) continue;
    const into = menu.first ? first : last;
    into.set(menu.group, [...(into.get(menu.group) ?? []), resourceEntry(path as ResourcePath, menu)]);
  }
  const place = (nodes: MenuNode[]): MenuNode[] =>
    nodes.map((n) => {
      const before = first.get(n.name) ?? [];
      const after = last.get(n.name) ?? [];
      first.delete(n.name);
      last.delete(n.name);
      if (!n.children && !before.length && !after.length) return n;
      return { ...n, children: [...before, ...place(n.children ?? []), ...after] };
    });
  const tree = place(skeleton);
  const orphan = [...first.keys(), ...last.keys()][0];
  if (orphan) throw new Error(`El menú no tiene el grupo ${orphan}`);
  return tree;
}

export const MENU_TREE: MenuNode[] = withResourceEntries(MENU_SKELETON);

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
  'Figures.Resumen.export',
  'Fees.view',
  'Fees.export',
  'Documents.view',
  'DailySales.view',
  'DailySales.store',
  'DailySales.update',
  'DailySales.export',
  'Transactions.view',
  // Its own dispatches report and dynamic report (the internal reports stay the importer's).
  'Transactions.export',
];

export const ADMIN_ROLE = 'Administrador';
export const DEALER_ROLE = 'Concesionario';
