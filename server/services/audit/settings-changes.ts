import type { AuditDiff } from '../../../src/contract/audit';
import type { McpConfig } from '../../../src/contract/mcp';
import { SECRET_FIELDS, type Settings } from '../../../src/contract/settings';
import { changesOf } from './audit-diff';

/** A URL without what may hold a credential (user info, query, fragment). */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** Each MCP server by kind and name or URL, with its configuration (which may hold keys and env values). */
function mcpServers(config: McpConfig | null | undefined): Map<string, string> {
  const servers = new Map<string, string>();
  for (const server of config?.stdio_servers ?? []) servers.set(`stdio ${server.name}`, JSON.stringify(server));
  for (const server of config?.sse_servers ?? []) servers.set(`sse ${shownUrl(server.url)}`, JSON.stringify(server));
  for (const server of config?.shttp_servers ?? []) servers.set(`shttp ${shownUrl(server.url)}`, JSON.stringify(server));
  return servers;
}

/**
 * MCP servers added and removed (by name), and changed (only that they did: a change may be of a
 * key or an environment value).
 */
export function mcpChanges(before: McpConfig | null | undefined, after: McpConfig | null | undefined): AuditDiff {
  const old = mcpServers(before);
  const next = mcpServers(after);
  const diff: AuditDiff = {};
  for (const name of new Set([...old.keys(), ...next.keys()])) {
    const was = old.get(name);
    const is = next.get(name);
    if (was === is) continue;
    diff[name] = was && is ? { old: null, new: null, secret: true } : { old: was ? name : null, new: is ? name : null, secret: false };
  }
  return diff;
}

/** The settings fields a save changed: plain ones with their values, secrets by name only; MCP servers apart. */
export function settingsChanges(before: Settings, after: Settings): { settings: AuditDiff; mcp: AuditDiff } {
  const { mcp_config: mcpBefore, ...restBefore } = before;
  const { mcp_config: mcpAfter, ...restAfter } = after;
  return { settings: changesOf(restBefore, restAfter, SECRET_FIELDS), mcp: mcpChanges(mcpBefore, mcpAfter) };
}
