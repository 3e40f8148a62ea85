// The screens of the menu (SPEC §2): path, title and permission come from the shared MENU_TREE,
// plus the few routes outside the menu. Which component shows each is app/screens.ts's business.
import type { MenuNode } from '@app/contracts';
import { MENU_TREE } from '@app/contracts';
import { HOME_PATH } from './paths';

export { FORBIDDEN_PATH, HOME_PATH } from './paths';

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
