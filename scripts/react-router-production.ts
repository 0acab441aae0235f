import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** React Router's own production build: the one its package exports is the development build. */
const PRODUCTION_ENTRY = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * Builds the console with React Router's production build (its package exports only the
 * development one, which differs by its warnings), and lets the bundler drop what the console
 * never renders: the bundle defines its components as top-level `React.forwardRef(...)` calls
 * and names each with `X.displayName = "X"`, and either keeps `<Form>`, fetchers and submissions
 * in every page. The calls are marked pure and the names (React DevTools only) left out.
 */
export function reactRouterProduction(): Plugin {
  return {
    name: 'agent-console:react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === 'react-router' ? PRODUCTION_ENTRY : null;
    },
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]production[\\/].*\.mjs$/ },
      handler(code) {
        const pure = code.replace(/(?<![\w$.])(React\d*\.(?:forwardRef|createContext|memo)\()/g, '/* @__PURE__ */ $1');
        return { code: pure.replace(/^[\w$]+\.displayName = "[^"\n]*";$/gm, ''), map: null };
      },
    },
  };
}
