import { MCP_TEST_DEFAULT_SECONDS, type McpTestRequestInput, type McpTestResult, mcpTestResultSchema } from '../contract/mcp';
import { apiRequest } from './client';
import { isApiError } from './errors';

/**
 * Asks the server to connect to an MCP server entry and list its tools. A server without the
 * endpoint (a real OpenHands) answers as a failed test that says so.
 */
export async function testMcpServer(entry: McpTestRequestInput, seconds = MCP_TEST_DEFAULT_SECONDS): Promise<McpTestResult> {
  try {
    return await apiRequest(`/api/mcp/test?timeout=${seconds}`, { method: 'POST', body: entry, schema: mcpTestResultSchema });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      return { ok: false, error: 'This server cannot test MCP connections (it has no /api/mcp/test)' };
    }
    throw error;
  }
}
