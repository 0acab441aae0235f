import { type ConsoleLocale, consoleLocaleOf, SOURCE_LOCALE } from './locales';

/** Where the language the user's Settings chose is remembered, for the next visit's first render. */
const STORAGE_KEY = 'agent-console:language';

/**
 * The language to show before the user's Settings are read: the one they chose last time in this
 * browser, else the browser's first the console has, else English.
 */
export function initialLocale(): ConsoleLocale {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage blocked: the browser's languages still apply.
  }
  return consoleLocaleOf(remembered) ?? browserLocale();
}

/** The first of the browser's languages the console has, else English. */
export function browserLocale(): ConsoleLocale {
  return navigator.languages.map((tag) => consoleLocaleOf(tag)).find((locale) => locale !== undefined) ?? SOURCE_LOCALE;
}

export function rememberLocale(locale: ConsoleLocale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Not remembered: the next visit shows the browser's language until Settings are read.
  }
}
