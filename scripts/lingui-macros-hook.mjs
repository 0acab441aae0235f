// A module hook for scripts run by tsx (the bench): tsx strips types but runs no Babel, so a module
// that imports Lingui's macros (`msg` in the contract's checks) would fail to link. Files that import
// them go through the same macro plugin the builds use, keeping the English text as the servers do.
import { fileURLToPath } from 'node:url';
import { transformAsync } from '@babel/core';

const MACRO_IMPORT = /from\s*['"]@lingui\/(core|react)\/macro['"]/;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.startsWith('file:') || url.includes('/node_modules/') || loaded.source == null) return loaded;
  const code = typeof loaded.source === 'string' ? loaded.source : Buffer.from(loaded.source).toString('utf8');
  if (!MACRO_IMPORT.test(code)) return loaded;
  const transformed = await transformAsync(code, {
    filename: fileURLToPath(url),
    babelrc: false,
    configFile: false,
    sourceMaps: 'inline',
    plugins: [['@lingui/babel-plugin-lingui-macro', { stripMessageField: false }]],
  });
  return { ...loaded, source: transformed?.code ?? code };
}
