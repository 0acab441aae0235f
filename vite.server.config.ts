import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vite';
import { commonJsPackage } from './scripts/commonjs-package.ts';
import { linguiMacros } from './scripts/lingui-macros.ts';

// The reference server as `npm start`, `npm run demo`, `npm run migrate-to-postgres`, `npm run audit:verify` and
// `npm run sandbox-image` run it: CommonJS for Node in build/server/ (see scripts/commonjs-package.ts). Its dependencies are
// bundled in too (Node resolving and parsing a few thousand files of node_modules was most of a
// start's time), all but those with native or optional native parts, imported from node_modules
// as they are. `run-server` is for the bench, which drives the server in a process of its own.
export default defineConfig({
  publicDir: false,
  plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] }), lingui(), commonJsPackage()],
  ssr: { noExternal: true, external: ['argon2', 'better-sqlite3', 'dockerode', 'pg'], target: 'node' },
  build: {
    ssr: true,
    outDir: 'build/server',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      input: {
        main: 'server/main.ts',
        demo: 'server/demo/main.ts',
        'migrate-to-postgres': 'server/migrate-to-postgres.ts',
        'audit-verify': 'server/audit-verify.ts',
        'sandbox-image': 'server/sandboxes/docker/build-default-image.ts',
        'run-server': 'server/run-server.ts',
      },
      // Every chunk beside the entries, two levels below the project root as each source file in
      // server/<dir>/ is: paths computed from `import.meta.dirname` resolve the same from both.
      preserveEntrySignatures: 'strict',
      output: { format: 'cjs', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
    },
  },
});
