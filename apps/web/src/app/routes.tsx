// The route table of SPEC §2. Only the login page is in the first bundle; the rest is lazy.

import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { withChunkTimeout } from '../lib/chunkTimeout';
import { Loading } from '../lib/Loading';
import { LoginPage } from '../pages/LoginPage';
import { Guard } from './guard';
import { RouteError } from './RouteError';

const Shell = lazy(withChunkTimeout(() => import('../shell/Shell')));
const LockPage = lazy(() => import('../pages/LockPage'));
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
