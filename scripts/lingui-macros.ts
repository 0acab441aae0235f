import { defineRolldownBabelPreset } from '@rolldown/plugin-babel';

/**
 * Lingui's macros (`t`, `<Trans>`, `msg`) become catalog lookups; only files that import them go
 * through Babel. In the console's production build the English text leaves the code (the catalogs
 * carry it); the servers keep it (`keepMessages`), so they can write their words in English for
 * logs and errors without a catalog.
 */
export const linguiMacros = ({ keepMessages = false } = {}) =>
  defineRolldownBabelPreset({
    preset: { plugins: [['@lingui/babel-plugin-lingui-macro', keepMessages ? { stripMessageField: false } : {}]] },
    rolldown: { filter: { code: /from ['"]@lingui\/(core|react)\/macro['"]/ } },
  });
