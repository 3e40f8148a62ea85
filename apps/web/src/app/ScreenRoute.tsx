// Every address inside the shell: the screen of the address (SPEC §2 routes, matched from the
// menu), with the routing rules of its Guard. Loaded with the shell, so the screens table and
// the contracts behind it stay out of the login page's bundle.
import { type ComponentType, lazy } from 'react';
import { Navigate, useLocation } from 'react-router';
import { withChunkTimeout } from '../lib/chunkTimeout';
import { TAB_PREFIX } from '../lib/paths';
import { defaultTabPath, HOME_PATH, screenByPath } from '../lib/screens';
import NotFound from '../pages/NotFound';
import { Guard } from './guard';
import { SCREEN_COMPONENTS } from './screens';

const lazyCache = new Map<string, ComponentType>();
function lazyScreen(name: string): ComponentType {
  let c = lazyCache.get(name);
  if (!c) {
    const loader = SCREEN_COMPONENTS[name] ?? (() => import('../pages/UnderConstruction'));
    c = lazy(withChunkTimeout(loader));
    lazyCache.set(name, c);
  }
  return c;
}

export default function ScreenRoute() {
  const { pathname } = useLocation();
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/main') return <Navigate to={HOME_PATH} replace />;
  if (path.startsWith(TAB_PREFIX))
    return <Navigate to={defaultTabPath(decodeURIComponent(path.slice(TAB_PREFIX.length)))} replace />;
  const screen = screenByPath(path);
  if (!screen) return <NotFound />;
  if (screen.firstChild) return <Navigate to={screen.firstChild} replace />;
  const Component = lazyScreen(screen.name);
  return (
    <Guard key={screen.name} name={screen.name} title={screen.title} permission={screen.permission}>
      <Component />
    </Guard>
  );
}
