import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vite';
import { commonJsPackage } from './scripts/commonjs-package.ts';
import { linguiMacros } from './scripts/lingui-macros.ts';

// The agent server that runs inside each sandbox, bundled with its dependencies (openai, ws, zod, the MCP SDK's client)
// into plain JavaScript files for Node in one directory, so a sandbox needs no node_modules.
export default defineConfig({
  publicDir: false,
  plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] }), commonJsPackage()],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'server/agent-server/main.ts',
    outDir: 'build/agent-server',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      output: {
        // CommonJS: an ES module start also has Node's module loader wrap each built-in it imports.
        format: 'cjs',
        entryFileNames: 'main.js',
        // The clients loaded at their first use (import(): OpenAI, the MCP SDK) in files of their own
        // beside main.js: inlined, a start read and compiled their code too, most of the bundle.
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
});
