import type { CatalogLoader } from '../../i18n/catalogs';
import { messages as english } from './locales/en.po';

/** The shortcuts' strings: in English with the dialog's code, in another language fetched. */
export const loadCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
