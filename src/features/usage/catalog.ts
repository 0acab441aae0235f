import type { CatalogLoader } from '../../i18n/catalogs';
import { messages as english } from './locales/en.po';

/** This feature's strings: in English with its pages' code, in another language fetched. */
export const loadUsageCatalog: CatalogLoader = (locale) =>
  locale === 'en' ? Promise.resolve({ messages: english }) : import(`./locales/${locale}.po`);
