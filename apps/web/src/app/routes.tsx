// The route table of SPEC §2. Only the login page is in the first bundle; the rest is lazy.

import { LIMITS } from '@app/contracts';
import { type ComponentType, lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { Guard, Loading } from './guard';
import { RouteError } from './RouteError';
import { HOME_PATH, SCREEN_COMPONENTS, SCREENS, type Screen } from './screens';

type Loader = () => Promise<{ default: ComponentType }>;

/** SPEC §9: a screen's code that has not arrived after 120 s is an error, not an endless spinner. */
export function withChunkTimeout(loader: Loader, ms: number = LIMITS.chunkLoadTimeoutMs): Loader {
  return () =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('La pagina tardo demasiado en cargar')), ms);
      loader().then(
        (m) => {
          clearTimeout(t);
          resolve(m);
        },
        (e) => {
          clearTimeout(t);
          reject(e);
        },
      );
    });
}

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

const Shell = lazy(withChunkTimeout(() => import('../shell/Shell')));
const LockPage = lazy(() => import('../auth/LockPage'));
const PublicQuiz = lazy(() => import('../modules/publicquiz/PublicQuizPage'));
const NotFound = lazy(() => import('../pages/NotFound'));

function screenRoute(s: Screen): RouteObject {
  if (s.firstChild) return { path: s.path, element: <Navigate to={s.firstChild} replace /> };
  const Component = lazyScreen(s.name);
  return {
    path: s.path,
    handle: { name: s.name },
    errorElement: <RouteError />,
    element: (
      <Guard name={s.name} title={s.title} permission={s.permission}>
        <Component />
      </Guard>
    ),
  };
}

const suspended = (node: React.ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;

export const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <Guard name="login" title="Iniciar Sesion">
        <LoginPage />
      </Guard>
    ),
  },
  {
    path: '/locking',
    element: suspended(
      <Guard name="locking" title="Pantalla bloqueada">
        <LockPage />
      </Guard>,
    ),
  },
  {
    path: '/encuesta',
    element: suspended(
      <Guard name="publicquiz" title="Encuesta de Satisfaccion">
        <PublicQuiz />
      </Guard>,
    ),
  },
  {
    // The layout shell (/main and the top-level module routes share it).
    errorElement: <RouteError />,
    element: suspended(
      <Guard name="main">
        <Shell />
      </Guard>,
    ),
    children: [
      { path: '/main', element: <Navigate to={HOME_PATH} replace /> },
      ...SCREENS.map(screenRoute),
      { path: '*', element: <NotFound /> },
    ],
  },
];
