import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vite';
import { linguiMacros } from './scripts/lingui-macros.ts';

// The agent server that runs inside each sandbox, bundled with its dependencies (openai, ws, zod, the MCP SDK's client)
// into plain ESM files for Node in one directory, so a sandbox needs no node_modules.
export default defineConfig({
  publicDir: false,
  plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] })],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'server/agent-server/main.ts',
    outDir: 'build/agent-server',
    emptyOutDir: true,
    target: 'node20',
    // The clients loaded at their first use (import(): OpenAI, the MCP SDK) in files of their own
    // beside main.js: inlined, a start read and compiled their code too, most of the bundle.
    rollupOptions: { output: { chunkFileNames: 'chunks/[name]-[hash].js' } },
  },
});
