import path from 'node:path';

/**
 * The stdio MCP server of test-support/mcp as a command and its arguments: plain Node on its bundle
 * (built once per run by build-global-setup.ts and e2e/support/build.ts), which starts in a moment.
 */
export const STDIO_MCP_SERVER = {
  command: process.execPath,
  args: [path.resolve(import.meta.dirname, '../../build/test-support/stdio-server.js')] as [script: string],
};
