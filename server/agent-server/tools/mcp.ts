import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { McpConfig, McpServerConfig } from '../contract';
import { type Observation, text } from './observation';

/*
 * The user's MCP servers as the agent's tools, as the agent SDK makes them (fastmcp's client
 * over `agent.mcp_config`): stdio servers start here, in the sandbox, as its processes; SSE and
 * streamable-HTTP servers are called from here. With one server its tools keep their names; with
 * several each is named `<server>_<tool>`. A call's result is an `MCPToolObservation` that starts
 * with "[Tool '<name>' executed.]".
 */

/** How long a server has to start and list its tools: the conversation's start waits for them. */
const CONNECT_TIMEOUT_MS = 10_000;
/** As the SDK: a call may take five minutes. */
const CALL_TIMEOUT_MS = 300_000;
const MAX_TOOL_PAGES = 20;
const MAX_REASON = 300;

export interface McpTool {
  /** The name the model calls it by. */
  name: string;
  /** The server's name in the configuration. */
  server: string;
  /** The server says the tool only reads (`readOnlyHint`): it takes no risk rating. */
  readOnly: boolean;
  definition: ChatCompletionFunctionTool;
  call: (args: Record<string, unknown>, signal?: AbortSignal) => Promise<Observation>;
}

/** A server that did not start or answer, and why. */
export interface McpFailure {
  server: string;
  reason: string;
}

/** The MCP SDK's client, loaded when a conversation has MCP servers: a sandbox's agent server starts without it. */
const loadSdk = async () => {
  const [{ Client }, { SSEClientTransport }, { StdioClientTransport }, { StreamableHTTPClientTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return { Client, SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport };
};
type Sdk = Awaited<ReturnType<typeof loadSdk>>;

function transportFor(
  { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport }: Sdk,
  config: McpServerConfig,
  cwd: string,
): Transport {
  if ('command' in config)
    return new StdioClientTransport({ command: config.command, args: config.args, env: config.env, cwd, stderr: 'ignore' });
  const requestInit = { headers: config.headers };
  return config.transport === 'sse'
    ? new SSEClientTransport(new URL(config.url), { requestInit })
    : new StreamableHTTPClientTransport(new URL(config.url), { requestInit });
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const said = code === 'ENOENT' ? `${message} (command not found)` : message;
  return said.length > MAX_REASON ? `${said.slice(0, MAX_REASON)}…` : said;
}

const observation = (toolName: string, blocks: string[], isError: boolean): Observation => ({
  kind: 'MCPToolObservation',
  content: blocks.flatMap(text),
  is_error: isError,
  tool_name: toolName,
});

/** Connects and lists the tools, all within CONNECT_TIMEOUT_MS (a transport's start has no timeout of its own); on failure nothing of it is left running. */
async function connectOne(sdk: Sdk, config: McpServerConfig, cwd: string) {
  const client = new sdk.Client({ name: 'agent-console-agent', version: '0.1.0' });
  const transport = transportFor(sdk, config, cwd);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
  });
  const handshake = async () => {
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    const listed = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
      listed.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { client, listed };
  };
  try {
    return await Promise.race([handshake(), deadline]);
  } catch (error) {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Every server's tools; those that failed are named with why, and left out. */
export async function connectMcpServers(config: McpConfig, cwd: string): Promise<{ tools: McpTool[]; failures: McpFailure[] }> {
  const entries = Object.entries(config.mcpServers);
  if (entries.length === 0) return { tools: [], failures: [] };
  const prefixed = entries.length > 1;
  const sdk = await loadSdk();
  const settled = await Promise.allSettled(entries.map(([, server]) => connectOne(sdk, server, cwd)));
  const tools: McpTool[] = [];
  const failures: McpFailure[] = [];
  settled.forEach((outcome, index) => {
    const [server] = entries[index]!;
    if (outcome.status === 'rejected') {
      failures.push({ server, reason: reasonOf(outcome.reason) });
      return;
    }
    const { client, listed } = outcome.value;
    for (const tool of listed) {
      const name = prefixed ? `${server}_${tool.name}` : tool.name;
      tools.push({
        name,
        server,
        readOnly: tool.annotations?.readOnlyHint === true,
        definition: {
          type: 'function',
          function: { name, description: tool.description ?? '', parameters: tool.inputSchema as Record<string, unknown> },
        },
        call: async (args, signal) => {
          try {
            const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { signal, timeout: CALL_TIMEOUT_MS });
            const blocks = (result.content as { type: string; text?: string }[]).map((block) =>
              block.type === 'text' ? (block.text ?? '') : `[${block.type} content left out]`,
            );
            return observation(name, [`[Tool '${name}' executed.]`, ...blocks], result.isError === true);
          } catch (error) {
            return observation(name, [`Error calling MCP tool ${name}: ${reasonOf(error)}`], true);
          }
        },
      });
    }
  });
  return { tools, failures };
}

/**
 * The values of a configuration that are secrets, named for `<secret:NAME>`: every header (an API
 * key) and every environment value. The user was told they are masked like secrets; a value's
 * name does not say whether it is one.
 */
export function mcpSecrets(config: McpConfig): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [server, settings] of Object.entries(config.mcpServers)) {
    const values = 'command' in settings ? settings.env : settings.headers;
    for (const [name, value] of Object.entries(values)) {
      secrets[`MCP_${server}_${name}`] = value;
      // An Authorization header's token on its own too: a server may echo it without "Bearer ".
      const token = /^Bearer\s+(.+)$/i.exec(value)?.[1];
      if (token) secrets[`MCP_${server}_${name}_TOKEN`] = token;
    }
  }
  return secrets;
}
