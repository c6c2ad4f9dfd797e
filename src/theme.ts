import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions, type ThemeType } from 'react-admin';

/** Layout sizes: header 56 px; sidebar 60 px collapsed, 200 px open; mobile below 600 px (MUI `sm`). */
export const HEADER_HEIGHT = 56;
export const SIDEBAR_WIDTH = 200;
export const SIDEBAR_CLOSED_WIDTH = 60;

export const THEME_KEY = 'theme-mode';

const shared: Partial<RaThemeOptions> = {
  sidebar: { width: SIDEBAR_WIDTH, closedWidth: SIDEBAR_CLOSED_WIDTH },
  breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1200, xl: 1536 } },
};

/** Buttons and tabs keep their words' case: all-caps English shouts, and Chinese has no case anyway. */
const plainCase = (base: RaThemeOptions): RaThemeOptions => ({
  ...base,
  ...shared,
  typography: { ...(base.typography as object), button: { textTransform: 'none' } },
});

export const lightTheme: RaThemeOptions = plainCase(defaultLightTheme);
export const darkTheme: RaThemeOptions = plainCase(defaultDarkTheme);

/** The mode chosen last (`theme-mode`), light unless dark was chosen. */
export function storedThemeMode(): ThemeType {
  return localStorage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light';
}

export function storeThemeMode(mode: ThemeType): void {
  localStorage.setItem(THEME_KEY, mode);
}
