// A real MCP server over stdio, for "Test connection" tests: `tsx test-support/mcp/stdio-server.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createToolsServer } from './tools';

await createToolsServer().connect(new StdioServerTransport());
