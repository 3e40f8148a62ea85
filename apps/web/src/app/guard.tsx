// The routing rules of SPEC §2, applied to every route element.
import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Loading } from '../lib/Loading';
import { defaultTabAddress, FORBIDDEN_PATH } from '../lib/paths';
import { pageTitle as pageTitleOf, useSession } from '../session/session';
import { getLocking, lockingPath } from '../session/token';

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
