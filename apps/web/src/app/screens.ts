// Which component shows each screen. A screen file is found by its name: modules/<module>/<screen
// name>.screen.tsx, or pages/<screen name>.screen.tsx for the routes outside the menu (profile,
// error-403, order); the name is the menu entry's (SPEC §2, lib/screens.ts). A menu entry of a
// resource without a screen file shows the generic screen of its contract. Every screen loads
// lazily.
import type { MenuNode } from '@app/contracts';
import { MENU_TREE } from '@app/contracts';
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

/** The screen built from the contract of the resource at this API path. */
const contractScreen =
  (path: string): Loader =>
  () =>
    import('../resources/ContractScreen').then((m) => ({ default: m.contractScreen(path) }));

/** Screens that say more than their contract: row buttons, a header, another layout. */
const SCREEN_FILES: Record<string, Loader> = Object.fromEntries(
  Object.entries({
    ...import.meta.glob<{ default: ComponentType }>('../modules/*/*.screen.tsx'),
    ...import.meta.glob<{ default: ComponentType }>('../pages/*.screen.tsx'),
  }).map(([file, load]) => [file.replace(/^.*\/|\.screen\.tsx$/g, ''), load]),
);

function withContractScreens(nodes: MenuNode[], out: Record<string, Loader>): Record<string, Loader> {
  for (const n of nodes) {
    if (n.resource && n.path && !out[n.name]) out[n.name] = contractScreen(n.resource);
    if (n.children) withContractScreens(n.children, out);
  }
  return out;
}

export const SCREEN_COMPONENTS: Record<string, Loader> = withContractScreens(MENU_TREE, { ...SCREEN_FILES });
