// The routing rules of SPEC §2, applied to every route element.
import { Box, CircularProgress } from '@mui/material';
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { pageTitle as pageTitleOf, useSession } from '../auth/session';
import { getLocking, lockingPath } from '../auth/token';
import { defaultTabAddress, FORBIDDEN_PATH } from './paths';

export function Loading() {
  return (
    // The name is the spinner's (a Box without a role may not carry one: aria-prohibited-attr).
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
      <CircularProgress aria-label="Cargando" />
    </Box>
  );
}

interface GuardProps {
  name: string;
  title?: string;
  permission?: string;
  children: ReactNode;
}

export function Guard({ name, title, permission, children }: GuardProps) {
  const status = useSession((s) => s.status);
  const info = useSession((s) => s.info);
  const location = useLocation();
  const locking = getLocking();

  useEffect(() => {
    if (title) document.title = pageTitleOf(title);
  });

  if (status === 'booting') return <Loading />;
  const isPublic = name.includes('public');
  if (locking === '1' && name !== 'locking' && !isPublic && info)
    return <Navigate to={lockingPath(location.pathname + location.search)} replace />;
  if (isPublic) return <>{children}</>;
  if (!info) {
    if (name === 'login') return <>{children}</>;
    const back = location.pathname + location.search;
    return (
      <Navigate to={`/${back && back !== '/' ? `?redirect=${encodeURIComponent(back)}` : ''}`} replace />
    );
  }
  const home = defaultTabAddress(info.user.default_tab);
  if (name === 'login') {
    const redirect = new URLSearchParams(location.search).get('redirect');
    return <Navigate to={redirect?.startsWith('/') ? redirect : home} replace />;
  }
  if (name === 'locking' && locking === '0') return <Navigate to={home} replace />;
  if (permission && !info.user.permissions.includes(`${permission}.view`)) {
    return <Navigate to={FORBIDDEN_PATH} replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}
