import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const PRODUCTION_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');
/** React Router's own production build of each entry the console may import. */
const PRODUCTION_ENTRY = path.join(PRODUCTION_DIR, 'index.mjs');
const PRODUCTION_ENTRIES: Partial<Record<string, string>> = {
  'react-router': PRODUCTION_ENTRY,
  'react-router/dom': path.join(PRODUCTION_DIR, 'dom-export.mjs'),
};

/**
 * Builds the console with React Router's production build (its package exports only the
 * development one, which differs by its warnings), and lets the bundler drop what the console
 * never renders. The bundle defines its components as top-level `React.forwardRef(...)` calls,
 * which a bundler must keep in case they have side effects, so `<Form>`, fetchers and
 * submissions would ship in every page; the calls are marked pure. It also names each component
 * with `X.displayName = "X"` (for React DevTools only); those lines are left out.
 *
 * Both edits match React Router's bundle text; the build fails, rather than silently shipping
 * the larger bundle, when an upgrade changes its layout so that they match nothing.
 */
export function reactRouterProduction(): Plugin {
  let markedPure = 0;
  let namesLeftOut = 0;
  return {
    name: 'agent-console:react-router-production',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      markedPure = 0;
      namesLeftOut = 0;
      if (!existsSync(PRODUCTION_ENTRY)) this.error(`react-router layout changed: no production build at ${PRODUCTION_ENTRY}`);
    },
    resolveId(source) {
      const entry = PRODUCTION_ENTRIES[source];
      if (entry && existsSync(entry)) return entry;
      if (source === 'react-router' || source.startsWith('react-router/'))
        this.error(
          entry
            ? `react-router layout changed: no production build of ${source} at ${entry}`
            : `no production build known for ${source}: add it to PRODUCTION_ENTRIES in scripts/react-router-production.ts`,
        );
      return null;
    },
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/].*\.mjs$/ },
      handler(code) {
        const pure = code.replace(/(?<![\w$.])(React\d*\.(?:forwardRef|createContext|memo)\()/g, (call: string) => {
          markedPure++;
          return `/* @__PURE__ */ ${call}`;
        });
        const unnamed = pure.replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, () => {
          namesLeftOut++;
          return '';
        });
        return { code: unnamed, map: null };
      },
    },
    buildEnd(error) {
      if (error) return;
      if (markedPure === 0) this.error('react-router layout changed: no React.forwardRef/createContext/memo call found to mark pure');
      if (namesLeftOut === 0) this.error('react-router layout changed: no `X.displayName = "X";` line found to leave out');
    },
  };
}
