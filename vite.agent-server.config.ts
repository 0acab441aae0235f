import { defineConfig } from 'vite';

// The agent server that runs inside each sandbox, bundled to one plain ESM file for Node.
export default defineConfig({
  publicDir: false,
  build: {
    ssr: 'server/agent-server/main.ts',
    outDir: 'build/agent-server',
    emptyOutDir: true,
    target: 'node20',
  },
});
