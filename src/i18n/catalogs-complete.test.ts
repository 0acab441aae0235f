/// <reference types="node" />
import path from 'node:path';
import { getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { describe, expect, it } from 'vitest';
import { CONSOLE_LOCALES, SOURCE_LOCALE } from './locales';

/*
 * Every string the code shows is in its catalog, and every language has each of them: a string
 * added without `npm run i18n:extract`, or left untranslated in one language, fails here.
 */

const root = path.resolve(import.meta.dirname, '../..');
const config = getConfig({ cwd: root, skipValidation: true });
const catalogs = await getCatalogs(config);
type CatalogMessages = Record<string, { obsolete?: boolean; message?: string; translation?: string }> | undefined;
const current = (messages: CatalogMessages) => Object.entries(messages ?? {}).filter(([, message]) => !message.obsolete);

describe.each(catalogs.map((catalog) => [path.relative(root, catalog.path), catalog] as const))('catalog %s', (_, catalog) => {
  it('holds what the code says, and nothing it no longer says', { timeout: 60_000 }, async () => {
    const extracted = await catalog.collect();
    const english = current(await catalog.read(SOURCE_LOCALE));
    expect(english.map(([id]) => id).sort()).toEqual(Object.keys(extracted ?? {}).sort());
  });

  it.each(CONSOLE_LOCALES.filter((locale) => locale !== SOURCE_LOCALE))('has every string in %s', async (locale) => {
    const english = current(await catalog.read(SOURCE_LOCALE));
    const translated = new Map(current(await catalog.read(locale)));
    const missing = english.filter(([id]) => !translated.get(id)?.translation).map(([id, { message }]) => message ?? id);
    expect(missing, `untranslated in ${locale}: run npm run i18n:extract and translate ${catalog.path}`).toEqual([]);
  });
});
