import type { CatalogLoader } from '../../../i18n/catalogs';
import { messages as english } from './locales/en.po';

/** The strings of this part's pages: in English with their code, in another language fetched. */
export const loadCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
