import { Suspense, useEffect, type ReactNode } from 'react';
import { Alert, Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import { Loading, useTranslate } from 'react-admin';
import { matchPath, useLocation } from 'react-router-dom';
import { storedUser } from '../api/client';
import { customPages } from '../customPages';
import { useStatus } from '../status/status';
import { ErrorBoundary } from './ErrorBoundary';
import { Footer } from './Footer';
import { Header } from './Header';
import { pathHidesSidebar } from './menu';
import { Sidebar } from './Sidebar';
import { SupportButton } from './SupportButton';

/** Custom pages declared `bare` render without the sidebar. */
function isBarePage(pathname: string): boolean {
  return customPages.some((page) => page.bare && page.path !== '*' && matchPath(page.path, pathname) !== null);
}

/** The site's name (the admin's, or the console's own): react-admin's default page title, e.g. of the crash page. */
export function SystemName() {
  const translate = useTranslate();
  const { status } = useStatus();
  return <>{status?.system_name || translate('app.name')}</>;
}

/** Which of the two status failures a load error is. */
function statusErrorKey(message: string): string {
  return message.startsWith('Error:') ? 'app.error.status_connect' : 'app.error.status_load';
}

/**
 * The console frame: header, sidebar (hidden on home, chat, setup, bare pages, mobile and when
 * logged out), the routed page, and the footer.
 */
export function Layout({ children }: { children?: ReactNode }) {
  const translate = useTranslate();
  const { status, error } = useStatus();
  // Re-rendered on every navigation, so a login or logout shows at once.
  const { pathname } = useLocation();
  const user = storedUser();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const showSidebar = user !== null && !mobile && !pathHidesSidebar(pathname) && !isBarePage(pathname);
  const systemName = status?.system_name || translate('app.name');
  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  return (
    <Box
      sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh', bgcolor: 'background.default', color: 'text.primary' }}
    >
      <Header status={status} user={user} />
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        {showSidebar && <Sidebar role={user.role} chats={status?.chats} />}
        <Box component="main" id="main-content" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          {error && !status && (
            <Alert severity="error" sx={{ m: 1 }}>
              {translate(statusErrorKey(error))}
            </Alert>
          )}
          <Box sx={{ flex: 1, p: { xs: 1, sm: 2 } }}>
            <Typography id="react-admin-title" component="h1" variant="h6" sx={{ '&:empty': { display: 'none' }, mb: 1 }} />
            <ErrorBoundary resetKey={pathname}>
              <Suspense fallback={<Loading />}>{children}</Suspense>
            </ErrorBoundary>
          </Box>
          <Footer footerHtml={status?.footer_html} systemName={systemName} />
          {user !== null && <SupportButton link={status?.support_link} />}
        </Box>
      </Box>
    </Box>
  );
}
