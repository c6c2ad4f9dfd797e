import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { storedUser } from '../api/client';
import { useStatus } from '../status/status';

/** A page that needs login: without a stored user it sends to /login. */
export function RequireUser({ children }: { children: ReactNode }) {
  if (!storedUser()) return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/** Where the setup state sends this path, or null to stay (spec 2 and 4). */
export function setupRedirect(setupDone: boolean | undefined, pathname: string): string | null {
  if (setupDone === undefined) return null;
  if (!setupDone && pathname !== '/setup') return '/setup';
  if (setupDone && pathname === '/setup') return '/';
  return null;
}

/**
 * Sends every route to /setup until the system is initialised, and /setup to / afterwards. The
 * app stays mounted meanwhile: the redirect is a navigation, not a different tree.
 */
export function SetupGate({ children }: { children: ReactNode }) {
  const { status } = useStatus();
  const { pathname } = useLocation();
  const target = setupRedirect(status?.setup, pathname);
  return (
    <>
      {target && <Navigate to={target} replace />}
      {children}
    </>
  );
}
