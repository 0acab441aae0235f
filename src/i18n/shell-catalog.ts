import { messages as english } from './locales/en.po';
import type { CatalogLoader } from './catalogs';

/**
 * The strings of the layout, the shared components and the sign-in screen. In English they come
 * with the entry, so the first render waits for no catalog; another language's is fetched.
 */
export const loadShellCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
