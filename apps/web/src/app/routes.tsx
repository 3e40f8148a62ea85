// The route table of SPEC §2. Only the login page is in the first bundle; the rest is lazy.

import { LIMITS } from '@app/contracts';
import { type ComponentType, lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { Guard, Loading } from './guard';
import { RouteError } from './RouteError';

type Loader = () => Promise<{ default: ComponentType }>;

/** SPEC §9: a screen's code that has not arrived after 120 s is an error, not an endless spinner. */
export function withChunkTimeout(loader: Loader, ms: number = LIMITS.chunkLoadTimeoutMs): Loader {
  return () =>
    new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('La página tardó demasiado en cargar')), ms);
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

const Shell = lazy(withChunkTimeout(() => import('../shell/Shell')));
const LockPage = lazy(() => import('../auth/LockPage'));
const PublicQuiz = lazy(() => import('../modules/publicquiz/PublicQuizPage'));
const ScreenRoute = lazy(withChunkTimeout(() => import('./ScreenRoute')));

const suspended = (node: React.ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;

export const routes: RouteObject[] = [
  {
    path: '/',
    element: (
      <Guard name="login" title="Iniciar Sesión">
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
      <Guard name="publicquiz" title="Encuesta de Satisfacción">
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
    // Every other address is a screen, resolved from the menu once the shell has loaded.
    children: [{ path: '*', errorElement: <RouteError />, element: <ScreenRoute /> }],
  },
];
