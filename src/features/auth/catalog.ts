import type { CatalogLoader } from '../../i18n/catalogs';
import { messages as english } from './locales/en.po';

/** The sign-in and join screens' strings: in English with their code, in another language fetched. */
export const loadAuthCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
