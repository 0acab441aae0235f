import type { McpConfig as SettingsMcpConfig } from '../../../src/contract/mcp';
import type { McpConfig } from '../../agent-server/contract';

/** What a tool's name may hold (OpenAI's rule for function names), so `<server>_<tool>` stays callable. */
const NAME_UNSAFE = /[^a-zA-Z0-9_-]+/g;

/** A URL server's name: its host and port, in the characters a tool name may hold (`mcp-example-com`). */
function nameOf(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}${port ? `-${port}` : ''}`.replace(NAME_UNSAFE, '-').replace(/^-+|-+$/g, '') || 'mcp';
  } catch {
    return 'mcp';
  }
}

/**
 * The user's MCP servers (Settings' `mcp_config`) as the agent SDK's `mcp_config`: stdio servers
 * by their names, SSE and streamable-HTTP servers by their host, numbered when two share one;
 * URLs as the sandbox reaches them, an API key as a bearer token.
 */
export function agentMcpConfig(settings: SettingsMcpConfig | null | undefined, urlFromSandbox: (url: string) => string): McpConfig {
  const mcpServers: McpConfig['mcpServers'] = {};
  const named = (wanted: string) => {
    let name = wanted;
    for (let n = 2; name in mcpServers; n++) name = `${wanted}-${n}`;
    return name;
  };
  for (const server of settings?.stdio_servers ?? [])
    mcpServers[named(server.name)] = { command: server.command, args: server.args, env: server.env };
  const remote = [
    ...(settings?.sse_servers ?? []).map((server) => ({ ...server, transport: 'sse' as const })),
    ...(settings?.shttp_servers ?? []).map((server) => ({ ...server, transport: 'http' as const })),
  ];
  for (const { url, api_key: key, transport } of remote) {
    mcpServers[named(nameOf(url))] = {
      url: urlFromSandbox(url),
      transport,
      headers: key?.trim() ? { Authorization: `Bearer ${key}` } : {},
    };
  }
  return { mcpServers };
}
