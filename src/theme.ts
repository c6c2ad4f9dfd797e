import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions, type ThemeType } from 'react-admin';

/** Spec 9: header 56 px; sidebar 60 px collapsed, 200 px open; mobile below 600 px (MUI `sm`). */
export const HEADER_HEIGHT = 56;
export const SIDEBAR_WIDTH = 200;
export const SIDEBAR_CLOSED_WIDTH = 60;

export const THEME_KEY = 'theme-mode';

const shared: Partial<RaThemeOptions> = {
  sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
  breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } },
};

/** Buttons keep the case of their label (react-admin's default shouts in capitals). */
function withPlainButtons(theme: RaThemeOptions): RaThemeOptions {
  const components = theme.components ?? {};
  return {
    ...theme,
    ...shared,
    components: {
      ...components,
      MuiButton: {
        ...components.MuiButton,
        styleOverrides: { ...components.MuiButton?.styleOverrides, root: { textTransform: 'none' } },
      },
    },
  };
}

export const lightTheme: RaThemeOptions = withPlainButtons(defaultLightTheme);
export const darkTheme: RaThemeOptions = withPlainButtons(defaultDarkTheme);

/** The mode chosen last (`theme-mode`), light unless dark was chosen. */
export function storedThemeMode(): ThemeType {
  return localStorage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light';
}

export function storeThemeMode(mode: ThemeType): void {
  localStorage.setItem(THEME_KEY, mode);
}
