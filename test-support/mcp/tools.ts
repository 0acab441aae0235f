import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** A tiny MCP server with two tools, the same for every transport the tests use. */
export function createToolsServer(): McpServer {
  const server = new McpServer({ name: 'agent-console-test-server', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes what it is given', inputSchema: { text: z.optional(z.string()) } },
    async ({ text }) => ({
      content: [{ type: 'text', text: text === undefined ? 'echo' : `echo: ${text}` }],
    }),
  );
  server.registerTool('clock', { description: 'Tells the time' }, async () => ({
    content: [{ type: 'text', text: new Date().toISOString() }],
  }));
  return server;
}
