import type { ReactNode } from 'react';
import { AccessDenied } from 'react-admin';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { Navigate, useLocation } from 'react-router-dom';
import { storedUser } from '../api/client';
import { canAccess } from '../authProvider/canAccess';
import type { PageDefinition } from '../resources/schema/definition';
import { useStatus } from '../status/status';

/**
 * A custom page at its route: a guarded page needs a login (else /login) and its access rule
 * (else react-admin's access-denied screen); open pages render as they are.
 */
export function RequirePage({ page }: { page: PageDefinition }) {
  const { component: Page, guard, name } = page;
  if (!guard) return <Page />;
  const user = storedUser();
  if (!user) return <Navigate to="/login" replace />;
  if (name && !canAccess(user.role, { resource: name, action: 'page' })) return <AccessDenied />;
  return <Page />;
}

/** Where the setup state sends this path, or null to stay. */
export function setupRedirect(setupDone: boolean | undefined, pathname: string): string | null {
  if (setupDone === undefined) return null;
  if (!setupDone && pathname !== '/setup') return '/setup';
  if (setupDone && pathname === '/setup') return '/';
  return null;
}

/** Sends every route to /setup until the system is initialised, and /setup to / afterwards. */
export function SetupGate({ children }: { children: ReactNode }) {
  const { status, error } = useStatus();
  const { pathname } = useLocation();
  // Nothing mounts before the setup state is known, so no page fetches data it cannot have yet.
  if (!status) return <StatusPending error={error} />;
  const target = setupRedirect(status.setup, pathname);
  if (target) return <Navigate to={target} replace />;
  return <>{children}</>;
}

function StatusPending({ error }: { error: string | null }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '100vh', gap: 2 }}>
      {error ? <Typography color="error">Unable to connect to server · 无法连接服务器</Typography> : <CircularProgress />}
    </Box>
  );
}
