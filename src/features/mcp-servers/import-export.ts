import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { McpConfigResponse, McpTestRequestInput } from '../../contract/mcp';
import { EMPTY_MCP_CONFIG, problemsAdding, serverRows, withServer } from './mcp-model';

/*
 * The `{"mcpServers": {"<name>": {...}}}` format that Claude Desktop, Cursor and VS Code (there
 * as `servers`) use: stdio servers as `command`/`args`/`env`, remote ones as `url` plus optional
 * `headers` and `type` ("sse", or "http"/"streamable-http").
 */

export interface ImportItem {
  /** The key the server had in the pasted JSON. */
  name: string;
  /** The server to add; absent when the entry can't be added. */
  entry?: McpTestRequestInput;
  error?: string;
  /** What is left out on the way in: a remote server's name, unsupported headers; each a sentence. */
  warnings?: string[];
}

export type ImportParse = { ok: true; items: ImportItem[] } | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function remoteKind(spec: Record<string, unknown>, url: string): 'sse' | 'shttp' | undefined {
  const type = typeof spec.type === 'string' ? spec.type.toLowerCase() : undefined;
  if (type === 'sse') return 'sse';
  if (type === 'http' || type === 'streamable-http' || type === 'streamablehttp') return 'shttp';
  if (type !== undefined) return undefined;
  return /\/sse\/?$/.test(new URL(url, 'http://x').pathname) ? 'sse' : 'shttp';
}

/** One pasted server as an entry of ours, or why it can't be one. */
function toEntry(name: string, spec: unknown, i18n: I18n): ImportItem {
  if (!isObject(spec)) return { name, error: i18n._(msg`Expected an object with "command" or "url"`) };
  if (typeof spec.url === 'string') {
    const kind = remoteKind(spec, spec.url);
    const type = String(spec.type);
    if (!kind) return { name, error: i18n._(msg`Unsupported type "${type}"`) };
    const headers = isObject(spec.headers) ? spec.headers : {};
    const auth = Object.entries(headers).find(([header]) => header.toLowerCase() === 'authorization')?.[1];
    const bearer = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth)?.[1] : undefined;
    const dropped = Object.keys(headers)
      .filter((header) => header.toLowerCase() !== 'authorization' || !bearer)
      .join(', ');
    // `timeout` is ours (seconds, streamable HTTP); other tools ignore it.
    const timeout = kind === 'shttp' && spec.timeout !== undefined ? { timeout: spec.timeout as number } : {};
    const warnings = [
      // OpenHands' mcp_config has no name for SSE and streamable HTTP servers: say so rather than drop it quietly.
      i18n._(msg`The name "${name}" is not kept: remote servers are stored by their URL only.`),
      ...(dropped ? [i18n._(msg`Headers other than "Authorization: Bearer …" are not supported; left out: ${dropped}.`)] : []),
    ];
    return { name, entry: { kind, url: spec.url, api_key: bearer ?? null, ...timeout }, warnings };
  }
  if ('command' in spec) {
    return {
      name,
      entry: {
        kind: 'stdio',
        name,
        command: spec.command as string,
        args: (spec.args ?? []) as string[],
        env: (spec.env ?? {}) as Record<string, string>,
      },
    };
  }
  return { name, error: i18n._(msg`Expected "command" (a local server) or "url" (a remote one)`) };
}

/**
 * Reads pasted JSON into servers to add, each checked with the contract together with the
 * servers already there (`existing`) and the earlier ones in the paste. What is wrong is said in
 * `i18n`'s language (the contract's own words are English).
 */
export function parseMcpServersJson(text: string, existing: McpConfigResponse | null, i18n: I18n): ImportParse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: i18n._(msg`Not valid JSON: ${reason}`) };
  }
  const servers = isObject(parsed) ? (parsed.mcpServers ?? parsed.servers) : undefined;
  // The shape is code, and its braces would read as placeholders in a message.
  // eslint-disable-next-line lingui/no-unlocalized-strings -- JSON, the same in every language
  const shape = '"mcpServers": { "<name>": { … } }';
  if (!isObject(servers)) return { ok: false, error: i18n._(msg`Expected an object with ${shape}`) };

  let accepted = existing ?? EMPTY_MCP_CONFIG;
  const items = Object.entries(servers).map(([name, spec]): ImportItem => {
    const item = toEntry(name, spec, i18n);
    if (!item.entry) return item;
    const problems = problemsAdding(accepted, item.entry);
    if (problems.length > 0) return { name, error: problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; ') };
    accepted = withServer(accepted, null, item.entry).config;
    return item;
  });
  return { ok: true, items };
}

/** A name for a remote server in the export: its host and path, as a slug. */
function slug(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    return `${hostname}${pathname}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  } catch {
    return 'server';
  }
}

/**
 * The servers in the common format, without API keys, with `type` (and `timeout`) so a round trip
 * gives the same servers back. Environment values are included: they are the server's config.
 */
export function toMcpServersJson(config: McpConfigResponse | null): string {
  const out: Record<string, unknown> = {};
  const unique = (name: string) => {
    let candidate = name;
    for (let n = 2; candidate in out; n++) candidate = `${name}-${n}`;
    return candidate;
  };
  for (const { value } of serverRows(config)) {
    if (value.kind === 'stdio') {
      const { name, command, args, env } = value.server;
      out[unique(name)] = { command, args, ...(Object.keys(env).length ? { env } : {}) };
    } else {
      const timeout = value.kind === 'shttp' && value.server.timeout != null ? { timeout: value.server.timeout } : {};
      out[unique(slug(value.server.url))] = { type: value.kind === 'sse' ? 'sse' : 'http', url: value.server.url, ...timeout };
    }
  }
  return `${JSON.stringify({ mcpServers: out }, null, 2)}\n`;
}
