import { MCP_TEST_DEFAULT_SECONDS, type McpTestRequestInput, type McpTestResult, mcpTestResultSchema } from '../contract/mcp';
import { apiRequest } from './client';

/**
 * Asks the server to connect to an MCP server entry and list its tools. Only our server can (the
 * `mcpTest` feature): against OpenHands the console offers no test, so a 404 here is an error.
 */
export function testMcpServer(entry: McpTestRequestInput, seconds = MCP_TEST_DEFAULT_SECONDS): Promise<McpTestResult> {
  return apiRequest(`/api/mcp/test?timeout=${seconds}`, { method: 'POST', body: entry, schema: mcpTestResultSchema });
}
