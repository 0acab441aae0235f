import type { CatalogLoader } from '../../../i18n/catalogs';
import { messages as english } from './locales/en.po';

/** The strings of the Settings page's parts loaded after it: in English with their code, in another language fetched. */
export const loadCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
