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
 * Builds the console with React Router's own production build: its package exports only the
 * development one, which differs by its warnings. The build fails when an upgrade moves the file.
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'agent-console:react-router-production',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
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
  };
}
