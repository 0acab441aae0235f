import { defineConfig } from 'vite';

// The stdio MCP server tests start as a process, bundled into one plain ESM file for Node: through
// tsx each start took a second or more of CPU, enough on a busy machine to miss an MCP connect timeout.
export default defineConfig({
  publicDir: false,
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: 'test-support/mcp/stdio-server.ts',
    outDir: 'build/test-support',
    emptyOutDir: true,
    target: 'node20',
  },
});
