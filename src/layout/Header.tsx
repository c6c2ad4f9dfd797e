import { AppBar, Box, Button, Chip, Toolbar, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { StoredUser } from '../api/client';
import type { SiteStatus } from '../status/status';
import { HEADER_HEIGHT } from '../theme';
import { AccountMenu, LocaleMenu, NewYearButton, ThemeSwitch } from './HeaderControls';
import { MobileNav, type NavItem } from './MobileNav';

/** The console's landing page: everyone's own API tokens (where password login lands too). */
export function consolePath(user: StoredUser | null): string {
  return user ? '/token' : '/login';
}

function navItems(user: StoredUser | null, docsLink: string | undefined): NavItem[] {
  const items: NavItem[] = [
    { key: 'home', to: '/' },
    { key: 'console', to: consolePath(user) },
    { key: 'pricing', to: '/pricing' },
  ];
  if (docsLink) items.push({ key: 'docs', to: docsLink, external: true });
  // The how-to an admin writes on the About page.
  items.push({ key: 'tutorial', to: '/about' });
  return items;
}

function NavButton({ item, label }: { item: NavItem; label: string }) {
  return item.external ? (
    <Button color="inherit" href={item.to} target="_blank" rel="noreferrer">
      {label}
    </Button>
  ) : (
    <Button color="inherit" component={Link} to={item.to}>
      {label}
    </Button>
  );
}

/** The 56 px header: brand and mode badges, navigation, theme, language and account. */
export function Header({ status, user }: { status: SiteStatus | null; user: StoredUser | null }) {
  const translate = useTranslate();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const items = navItems(user, status?.docs_link);
  const systemName = status?.system_name || translate('app.name');
  const showRegister = !mobile && !status?.self_use_mode_enabled;

  return (
    <AppBar position="sticky" color="default" elevation={1}>
      <Toolbar sx={{ minHeight: `${HEADER_HEIGHT}px !important`, height: HEADER_HEIGHT, gap: 1 }}>
        {mobile && <MobileNav items={items} user={user} chats={status?.chats} />}
        <Box
          component={Link}
          to="/"
          sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
        >
          <Box component="img" src={status?.logo || '/logo.png'} alt="" sx={{ height: 32, width: 32, borderRadius: 1 }} />
          {!mobile && (
            <Typography variant="h6" noWrap>
              {systemName}
            </Typography>
          )}
        </Box>
        {status?.self_use_mode_enabled && <Chip size="small" color="info" label={translate('app.badge.self_use')} />}
        {status?.demo_site_enabled && <Chip size="small" color="warning" label={translate('app.badge.demo')} />}
        {!mobile && (
          <Box component="nav" sx={{ display: 'flex', ml: 2 }}>
            {items.map((item) => (
              <NavButton key={item.key} item={item} label={translate(`app.header.${item.key}`)} />
            ))}
          </Box>
        )}
        <Box sx={{ flex: 1 }} />
        <NewYearButton />
        <ThemeSwitch />
        <LocaleMenu />
        {user ? (
          <AccountMenu name={user.display_name || user.username} />
        ) : (
          <>
            <Button color="inherit" component={Link} to="/login">
              {translate('app.header.login')}
            </Button>
            {showRegister && (
              <Button variant="outlined" color="inherit" component={Link} to="/register">
                {translate('app.header.register')}
              </Button>
            )}
          </>
        )}
      </Toolbar>
    </AppBar>
  );
}
