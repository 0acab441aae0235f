import type { Plugin } from 'vite';

/**
 * A package.json that makes a build's `.js` files CommonJS wherever its directory is (the
 * repository's own says `module`; a sandbox image has none). Node starts CommonJS with less work
 * than ES modules, and only CommonJS compiles through `Module.prototype._compile`, where
 * server/code-cache.ts gives V8 the code it compiled last time.
 */
export const commonJsPackage = (): Plugin => ({
  name: 'commonjs-package',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: 'package.json', source: `${JSON.stringify({ type: 'commonjs' })}\n` });
  },
});
