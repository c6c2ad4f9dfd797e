import polyglotI18nProvider from 'ra-i18n-polyglot';
import { zh } from './zh';
import { en } from './en';

export const LOCALE_KEY = 'i18nextLng';
export type Locale = 'zh' | 'en';

export const LOCALES: { locale: Locale; name: string }[] = [
  { locale: 'zh', name: '中文' },
  { locale: 'en', name: 'English' },
];

/** The language chosen last (`i18nextLng`); Chinese by default. */
export function storedLocale(): Locale {
  return localStorage.getItem(LOCALE_KEY)?.startsWith('en') ? 'en' : 'zh';
}

export function storeLocale(locale: Locale): void {
  localStorage.setItem(LOCALE_KEY, locale);
  document.documentElement.lang = locale;
}

export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'en' ? en : zh),
  storedLocale(),
  LOCALES,
  // Chinese is the fallback: a key missing in English shows the Chinese text, never the key.
  { onMissingKey: (key: string) => lookup(zh, key) ?? key },
);

function lookup(messages: unknown, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node && typeof node === 'object' && part in node) node = (node as Record<string, unknown>)[part];
    else return undefined;
  }
  return typeof node === 'string' ? node : undefined;
}
