import type { McpConfig } from '../../../src/contract/mcp';
import type { Settings } from '../../../src/contract/settings';
import { ORGANIZATION_DEFAULT_FIELDS } from '../../../src/contract/organization-defaults';

const unset = (value: unknown) => value === null || value === undefined || value === '';

const NO_MCP: McpConfig = { sse_servers: [], stdio_servers: [], shttp_servers: [] };

/** The team's MCP servers the agent gets beside a user's own: none that a server of theirs with the same name or URL stands for. */
export function teamOnlyMcp(own: McpConfig | null, team: McpConfig): McpConfig {
  const mine = own ?? NO_MCP;
  const urls = new Set([...mine.sse_servers, ...mine.shttp_servers].map((server) => server.url));
  const names = new Set(mine.stdio_servers.map((server) => server.name));
  return {
    sse_servers: team.sse_servers.filter((server) => !urls.has(server.url)),
    shttp_servers: team.shttp_servers.filter((server) => !urls.has(server.url)),
    stdio_servers: team.stdio_servers.filter((server) => !names.has(server.name)),
  };
}

/** The team's MCP servers added to a user's own. */
function sharedMcp(own: McpConfig | null, team: McpConfig | null): McpConfig | null {
  if (!team) return own;
  const mine = own ?? NO_MCP;
  const theirs = teamOnlyMcp(own, team);
  return {
    sse_servers: [...mine.sse_servers, ...theirs.sse_servers],
    shttp_servers: [...mine.shttp_servers, ...theirs.shttp_servers],
    stdio_servers: [...mine.stdio_servers, ...theirs.stdio_servers],
  };
}

/**
 * A user's settings with the team's defaults where the user has no value of their own, and which
 * fields those are. The team's LLM key goes only with the team's base URL: a user who points the
 * LLM elsewhere brings their own key. `shareMcp`: the team's MCP servers join the user's (what the
 * agent gets); without it the user's own list stays as it is (what their Settings page edits).
 */
export function withOrganizationDefaults(
  own: Settings,
  team: Settings | undefined,
  shareMcp: boolean,
): { settings: Settings; inherited: string[] } {
  if (!team) return { settings: own, inherited: [] };
  const settings: Settings = { ...own };
  const inherited: string[] = [];
  for (const field of ORGANIZATION_DEFAULT_FIELDS) {
    if (field === 'mcp_config' || field === 'llm_api_key' || !unset(own[field]) || unset(team[field])) continue;
    (settings as Record<string, unknown>)[field] = team[field];
    inherited.push(field);
  }
  const sameLlm = unset(own.llm_base_url) || own.llm_base_url === team.llm_base_url;
  if (unset(own.llm_api_key) && !unset(team.llm_api_key) && sameLlm) {
    settings.llm_api_key = team.llm_api_key;
    inherited.push('llm_api_key');
  }
  if (shareMcp) settings.mcp_config = sharedMcp(own.mcp_config, team.mcp_config);
  return { settings, inherited };
}
