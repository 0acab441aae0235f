import { type I18n, type Messages, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { FastifyRequest } from 'fastify';
import { localeOf } from './request-locale';
import { CONSOLE_LOCALES, type ConsoleLocale } from '../../src/i18n/locales';
import { messages as de } from '../locales/de.po';
import { messages as en } from '../locales/en.po';
import { messages as es } from '../locales/es.po';
import { messages as fr } from '../locales/fr.po';
import { messages as ja } from '../locales/ja.po';
import { messages as zhCN } from '../locales/zh-CN.po';

/*
 * The server speaks each request's language (`Accept-Language`, negotiated against the console's
 * languages): one Lingui instance per language, its catalog loaded once when the server starts.
 */

const CATALOGS: Record<ConsoleLocale, Messages> = { en, de, es, fr, ja, 'zh-CN': zhCN };

function instanceFor(locale: ConsoleLocale): I18n {
  const i18n = setupI18n({ locale, messages: { [locale]: CATALOGS[locale] } });
  // A message the catalog lacks (a build before `npm run i18n:extract`) falls back to its English source.
  i18n.setMessagesCompiler(compileMessage);
  return i18n;
}

const INSTANCES = Object.fromEntries(CONSOLE_LOCALES.map((locale) => [locale, instanceFor(locale)])) as Record<ConsoleLocale, I18n>;

/** The server's words in `locale`. */
export const i18nIn = (locale: ConsoleLocale): I18n => INSTANCES[locale];

/** The server's words in the language the request asks for. */
export const i18nOf = (request: FastifyRequest): I18n => i18nIn(localeOf(request.headers['accept-language']));
