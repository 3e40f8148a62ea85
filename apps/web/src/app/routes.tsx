// The route table of SPEC §2. Only the login page is in the first bundle; the rest is lazy.
import { type ComponentType, lazy, Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { Guard, Loading } from './guard';
import { HOME_PATH, SCREEN_COMPONENTS, SCREENS, type Screen } from './screens';

const lazyCache = new Map<string, ComponentType>();
function lazyScreen(name: string): ComponentType {
  let c = lazyCache.get(name);
  if (!c) {
    const loader = SCREEN_COMPONENTS[name] ?? (() => import('../pages/UnderConstruction'));
    c = lazy(loader);
    lazyCache.set(name, c);
  }
  return c;
}

const Shell = lazy(() => import('../shell/Shell'));
const LockPage = lazy(() => import('../auth/LockPage'));
const PublicQuiz = lazy(() => import('../pages/PublicQuizPage'));
const NotFound = lazy(() => import('../pages/NotFound'));

function screenRoute(s: Screen): RouteObject {
  if (s.firstChild) return { path: s.path, element: <Navigate to={s.firstChild} replace /> };
  const Component = lazyScreen(s.name);
  return {
    path: s.path,
    handle: { name: s.name },
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
