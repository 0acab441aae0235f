import { i18n, type Messages } from '@lingui/core';
import { type ConsoleLocale, SOURCE_LOCALE } from './locales';

/** A catalog's messages in a language: its compiled `.po` file, fetched on demand. */
export type CatalogLoader = (locale: ConsoleLocale) => Promise<{ messages: Messages }>;

/** The catalogs the console has needed so far: a switch of language fetches each again in the new one. */
const inUse = new Set<CatalogLoader>();
/** The language asked for last: a slower switch that finishes after a newer one does not win. */
let wanted: ConsoleLocale = SOURCE_LOCALE;

async function fetchInto(locale: ConsoleLocale, loaders: Iterable<CatalogLoader>): Promise<void> {
  const catalogs = await Promise.all([...loaders].map((load) => load(locale)));
  for (const { messages } of catalogs) i18n.load(locale, messages);
}

/**
 * Makes a catalog's strings ready in the active language (a page's, before it renders), and in
 * any language switched to later.
 */
export async function loadCatalog(load: CatalogLoader): Promise<void> {
  if (inUse.has(load)) return;
  inUse.add(load);
  // In the language shown, and in the one a switch under way will show.
  await Promise.all([...new Set([activeLocale(), wanted])].map((locale) => fetchInto(locale, [load])));
}

/**
 * Shows the console in `locale`: every catalog in use is fetched in it first, then the strings
 * change at once, with no reload. Dates, numbers and plurals follow through `Intl`.
 */
export async function switchLocale(locale: ConsoleLocale): Promise<void> {
  wanted = locale;
  await fetchInto(locale, inUse);
  if (wanted !== locale) return;
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** The language the console shows now. */
export const activeLocale = (): ConsoleLocale => (i18n.locale || SOURCE_LOCALE) as ConsoleLocale;

/** A module loaded on demand with the catalog it exports (`catalog`), ready to render. */
export async function withCatalog<M extends { catalog: CatalogLoader }>(module: Promise<M>): Promise<M> {
  const loaded = await module;
  await loadCatalog(loaded.catalog);
  return loaded;
}
