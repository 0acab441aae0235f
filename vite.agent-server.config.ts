import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vite';
import { linguiMacros } from './scripts/lingui-macros.ts';

// The agent server that runs inside each sandbox, bundled with its dependencies (openai, ws, zod, the MCP SDK's client)
// into one plain ESM file for Node, so a sandbox needs no node_modules.
export default defineConfig({
  publicDir: false,
  plugins: [babel({ presets: [linguiMacros({ keepMessages: true })] })],
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'server/agent-server/main.ts',
    outDir: 'build/agent-server',
    emptyOutDir: true,
    target: 'node20',
    // One file still: the clients loaded at their first use (import()) come inlined, evaluated only then.
    rollupOptions: { output: { codeSplitting: false } },
  },
});
