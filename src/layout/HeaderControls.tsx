import { useEffect, useState, type MouseEvent } from 'react';
import { Button, IconButton, ListItemIcon, Menu, MenuItem, Tooltip } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import CelebrationIcon from '@mui/icons-material/Celebration';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import LightModeIcon from '@mui/icons-material/LightMode';
import LogoutIcon from '@mui/icons-material/Logout';
import TranslateIcon from '@mui/icons-material/Translate';
import { useLocaleState, useLogout, useNotify, useTheme, useTranslate } from 'react-admin';
import { LOCALES, storeLocale, type Locale } from '../i18n';
import { storedThemeMode, storeThemeMode } from '../theme';

/** Dark/light switch; the choice is kept as `theme-mode`, which wins over react-admin's store. */
export function ThemeSwitch() {
  const translate = useTranslate();
  const [mode, setMode] = useTheme();
  useEffect(() => {
    // react-admin resets its store on logout; the remembered mode must survive that.
    const remembered = storedThemeMode();
    if (mode !== remembered) setMode(remembered);
  }, [mode, setMode]);
  const toggle = () => {
    const next = mode === 'dark' ? 'light' : 'dark';
    storeThemeMode(next);
    setMode(next);
  };
  const label = translate(mode === 'dark' ? 'app.header.light_mode' : 'app.header.dark_mode');
  return (
    <Tooltip title={label}>
      <IconButton color="inherit" onClick={toggle} aria-label={label}>
        {mode === 'dark' ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </Tooltip>
  );
}

/** 中文 / English, remembered as `i18nextLng`. */
export function LocaleMenu() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (next: Locale) => {
    storeLocale(next);
    setLocale(next);
    setAnchor(null);
  };
  return (
    <>
      <Tooltip title={translate('app.header.language')}>
        <IconButton
          color="inherit"
          onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
          aria-label={translate('app.header.language')}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LOCALES.map((item) => (
          <MenuItem key={item.locale} selected={item.locale === locale} onClick={() => choose(item.locale)}>
            {item.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The logged-in person's menu: their name and Logout. */
export function AccountMenu({ name }: { name: string }) {
  const translate = useTranslate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircleIcon />}
        onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
        sx={{ textTransform: 'none' }}
      >
        {name}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem
          onClick={() => {
            setAnchor(null);
            void logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('app.header.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}

const NEW_YEAR_RELOAD_MS = 13_000;

/** Shown on 1 January only: greets, then reloads the page after about 13 s. */
export function NewYearButton({ today = new Date() }: { today?: Date }) {
  const translate = useTranslate();
  const notify = useNotify();
  if (today.getMonth() !== 0 || today.getDate() !== 1) return null;
  const celebrate = () => {
    notify('app.header.new_year_greeting', { type: 'info' });
    setTimeout(() => location.reload(), NEW_YEAR_RELOAD_MS);
  };
  return (
    <Tooltip title={translate('app.header.new_year')}>
      <IconButton color="inherit" onClick={celebrate} aria-label={translate('app.header.new_year')}>
        <CelebrationIcon />
      </IconButton>
    </Tooltip>
  );
}
