// Which component shows each screen. Pages from the server menu are matched by name (SPEC §2);
// path, title and permission come from the shared MENU_TREE. Every screen loads lazily. A menu
// entry of a resource shows the generic screen of its contract unless a screen file is named here.
import type { MenuNode } from '@app/contracts';
import { MENU_TREE } from '@app/contracts';
import type { ComponentType } from 'react';
import { HOME_PATH } from './paths';

type Loader = () => Promise<{ default: ComponentType }>;

/** The screen built from the contract of the resource at this API path. */
const contractScreen =
  (path: string): Loader =>
  () =>
    import('../resources/ContractScreen').then((m) => ({ default: m.contractScreen(path) }));

/** Screens that say more than their contract: row buttons, a header, another layout. */
const SCREEN_FILES: Record<string, Loader> = {
  home: () => import('../modules/dashboard/home.screen'),
  dealer: () => import('../modules/organisation/dealer.screen'),
  'dealer-branch': () => import('../modules/organisation/dealer-branch.screen'),
  employee: () => import('../modules/organisation/employee.screen'),
  user: () => import('../modules/security/user.screen'),
  role: () => import('../modules/security/role.screen'),
  tab: () => import('../modules/security/tab.screen'),
  sales: () => import('../modules/sales/sales.screen'),
  quiz: () => import('../modules/quiz/quiz.screen'),
  // Screens of later issues: placeholders until their module lands.
  agreement: () => import('../modules/agreements/agreement.screen'),
  workshopinfo: () => import('../modules/workshop/workshopinfo.screen'),
  extranet: () => import('../modules/documents/extranet.screen'),
  capacity: () => import('../modules/figures/capacity.screen'),
  figure: () => import('../modules/figures/figure.screen'),
  resumen: () => import('../modules/figures/resumen.screen'),
  fee: () => import('../modules/figures/fee.screen'),
  dispatches: () => import('../modules/dispatches/dispatches.screen'),
  daily: () => import('../modules/dispatches/daily.screen'),
  dashboard: () => import('../modules/dashboard/summary.screen'),
  audit: () => import('../modules/audit/audit.screen'),
  preferences: () => import('../modules/preferences/preferences.screen'),
  order: () => import('../pages/NotificationsPage'),
  // Routes outside the menu.
  profile: () => import('../pages/ProfilePage'),
  'error-403': () => import('../pages/Forbidden'),
};

function withContractScreens(nodes: MenuNode[], out: Record<string, Loader>): Record<string, Loader> {
  for (const n of nodes) {
    if (n.resource && n.path && !out[n.name]) out[n.name] = contractScreen(n.resource);
    if (n.children) withContractScreens(n.children, out);
  }
  return out;
}

export const SCREEN_COMPONENTS: Record<string, Loader> = withContractScreens(MENU_TREE, { ...SCREEN_FILES });

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

export { FORBIDDEN_PATH, HOME_PATH } from './paths';

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
