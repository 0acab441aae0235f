/*
 * The languages the console is written in. Plain data: lingui.config.ts and node scripts read it.
 */

/** What the console's strings are written in, and what it falls back to. */
export const SOURCE_LOCALE = 'en';

/** Settings' `language` values (OpenHands' list) the console has every string in. */
export const CONSOLE_LOCALES = ['en', 'de', 'es', 'fr', 'ja', 'zh-CN'] as const;

export type ConsoleLocale = (typeof CONSOLE_LOCALES)[number];

export function isConsoleLocale(value: string): value is ConsoleLocale {
  return (CONSOLE_LOCALES as readonly string[]).includes(value);
}

/**
 * The console language for a Settings `language` or a browser's language tag: itself, or its
 * language without the region (`de-AT` → `de`); Simplified Chinese for `zh` and `zh-Hans`.
 * Undefined when the console has no strings in it (Settings may name any of OpenHands' languages).
 */
export function consoleLocaleOf(tag: string | null | undefined): ConsoleLocale | undefined {
  if (!tag) return undefined;
  if (isConsoleLocale(tag)) return tag;
  const [language, script] = tag.split(/[-_]/);
  if (language === 'zh') return script === undefined || /^(hans|cn|sg)$/i.test(script) ? 'zh-CN' : undefined;
  return language && isConsoleLocale(language) ? language : undefined;
}
