// Which component shows each screen. Pages from the server menu are matched by name (SPEC §2);
// path, title and permission come from the shared MENU_TREE. Every screen loads lazily.
import type { MenuNode } from '@app/contracts';
import { MENU_TREE } from '@app/contracts';
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

const placeholder: Loader = () => import('../pages/UnderConstruction');

export const SCREEN_COMPONENTS: Record<string, Loader> = {
  home: placeholder,
  company: () => import('../modules/organisation/company.screen'),
  zone: () => import('../modules/organisation/zone.screen'),
  dealer: () => import('../modules/organisation/dealer.screen'),
  'dealer-branch': () => import('../modules/organisation/dealer-branch.screen'),
  employee: () => import('../modules/organisation/employee.screen'),
  'dealer-contact': () => import('../modules/organisation/dealer-contact.screen'),
  country: () => import('../modules/geography/country.screen'),
  department: () => import('../modules/geography/department.screen'),
  province: () => import('../modules/geography/province.screen'),
  district: () => import('../modules/geography/district.screen'),
  manufacturer: () => import('../modules/brands/manufacturer.screen'),
  'manufacturer-model': () => import('../modules/brands/manufacturer-model.screen'),
  concept: () => import('../modules/catalogues/concept.screen'),
  category: () => import('../modules/catalogues/category.screen'),
  user: () => import('../modules/security/user.screen'),
  role: () => import('../modules/security/role.screen'),
  tab: () => import('../modules/security/tab.screen'),
  // Screens of later issues: placeholders until their module lands.
  sales: () => import('../modules/sales/sales.screen'),
  quiz: () => import('../modules/quiz/quiz.screen'),
  agreement: placeholder,
  workshopinfo: placeholder,
  extranet: placeholder,
  capacity: placeholder,
  figure: placeholder,
  resumen: placeholder,
  fee: placeholder,
  dispatches: placeholder,
  daily: placeholder,
  dashboard: placeholder,
  audit: () => import('../modules/audit/AuditScreen'),
  preferences: () => import('../modules/preferences/PreferencesPage'),
  order: placeholder,
  // Routes outside the menu.
  profile: () => import('../pages/ProfilePage'),
  'error-403': () => import('../pages/Forbidden'),
};

export interface Screen {
  name: string;
  title: string;
  path: string;
  permission?: string;
  icon?: string;
  /** Names of the ancestors in the menu, top first (breadcrumb). */
  trail: MenuNode[];
  /** A group: opens its first child. */
  firstChild?: string;
}

function flatten(nodes: MenuNode[], trail: MenuNode[], out: Screen[]): void {
  for (const n of nodes) {
    if (n.path) {
      const first = n.children?.find((c) => c.path)?.path;
      out.push({
        name: n.name,
        title: n.title,
        path: n.path,
        permission: n.permission,
        icon: n.icon,
        trail,
        firstChild: first,
      });
    }
    if (n.children) flatten(n.children, [...trail, n], out);
  }
}

const fromMenu: Screen[] = [];
flatten(MENU_TREE, [], fromMenu);

export const SCREENS: Screen[] = [
  ...fromMenu,
  { name: 'profile', title: 'Perfil de usuario', path: '/admin/users/profile', trail: [] },
  { name: 'error-403', title: 'Acceso denegado', path: '/main/error-403', trail: [] },
  { name: 'order', title: 'Notificaciones', path: '/main/order', trail: [] },
];

export const HOME_PATH = '/main/home';
export const FORBIDDEN_PATH = '/main/error-403';

export function screenByName(name: string | null | undefined): Screen | undefined {
  return SCREENS.find((s) => s.name === name);
}

export function screenByPath(pathname: string): Screen | undefined {
  const p = pathname.replace(/\/+$/, '') || '/';
  return SCREENS.find((s) => s.path === p);
}

/** The session's default tab (a screen name, or a path) as a path. */
export function defaultTabPath(defaultTab: string | null | undefined): string {
  if (defaultTab?.startsWith('/')) return defaultTab;
  return screenByName(defaultTab)?.path ?? HOME_PATH;
}
