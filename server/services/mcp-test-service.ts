import type { McpTestRequest, McpTestResult } from '../../src/contract/mcp';
import { testMcpConnection } from '../mcp/test-connection';
import type { SettingsService } from './settings-service';

/** Tests an MCP server entry, with the stored API key when the entry keeps it (`api_key: null`). */
export class McpTestService {
  constructor(private readonly settings: SettingsService) {}

  async test(request: McpTestRequest, seconds: number): Promise<McpTestResult> {
    return testMcpConnection(await this.#withStoredKey(request), seconds);
  }

  async #withStoredKey(request: McpTestRequest): Promise<McpTestRequest> {
    if (request.kind === 'stdio' || (request.api_key !== null && request.api_key !== undefined)) return request;
    const stored = (await this.settings.readWithSecrets())?.mcp_config;
    const servers = request.kind === 'sse' ? stored?.sse_servers : stored?.shttp_servers;
    return { ...request, api_key: servers?.find((s) => s.url === request.url)?.api_key ?? null };
  }
}
