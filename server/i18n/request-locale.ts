import { type ConsoleLocale, consoleLocaleOf, SOURCE_LOCALE } from '../../src/i18n/locales';

/**
 * The console language a request's `Accept-Language` asks for: the first of its languages, by
 * weight, that the console has (`de-AT` → `de`). English without the header or without a match,
 * so clients that send none (OpenHands' own) read what they always have.
 */
export function localeOf(acceptLanguage: string | undefined): ConsoleLocale {
  if (!acceptLanguage) return SOURCE_LOCALE;
  const ranges = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranges) {
    const locale = consoleLocaleOf(tag);
    if (locale) return locale;
  }
  return SOURCE_LOCALE;
}
