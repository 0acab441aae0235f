import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SseError, SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent, fetch as undiciFetch } from 'undici';
import type { McpTestRequest, McpTestResult } from '../../src/contract/mcp';
import { CommandNotFound, type ThrowawayCommand, type ThrowawayProcess } from '../sandboxes/runtime';
import { ThrowawayTransport } from './stdio-transport';

const MAX_TOOL_PAGES = 20;

class TestTimeout extends Error {}
class TestCancelled extends Error {}

const MAX_DETAIL = 300;
const truncate = (text: string) => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text);

/** What an HTTP refusal of an MCP request means. */
const HTTP_MEANING: Record<number, string> = {
  401: ': the server wants an API key, or refused this one',
  403: ': the server refused this API key',
  404: ': no MCP endpoint at this URL',
  405: ': no MCP endpoint at this URL (the method is not allowed)',
};

/** Network errors in words; the code stays beside them, as operators search for it. */
const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'Connection refused',
  ECONNRESET: 'Connection reset by the server',
  ETIMEDOUT: 'Connection timed out',
  EHOSTUNREACH: 'Host unreachable',
  ENETUNREACH: 'Network unreachable',
  ENOTFOUND: 'Host not found',
  EAI_AGAIN: 'Host name lookup failed (DNS)',
  EPROTO: 'TLS handshake failed',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'Self-signed TLS certificate not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'Self-signed TLS certificate in the chain not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate could not be verified',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
};

/** The first errno-style code in an error, its causes (fetch wraps them) or its message (the SSE client flattens them). */
function networkCode(error: unknown): { code: string; address?: string } | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    const { code, address, port } = current as NodeJS.ErrnoException & { address?: string; port?: number };
    if (typeof code === 'string' && code in NETWORK_WORDS) return { code, address: address && (port ? `${address}:${port}` : address) };
  }
  const named = error instanceof Error ? Object.keys(NETWORK_WORDS).find((code) => error.message.includes(code)) : undefined;
  return named ? { code: named } : undefined;
}

/** Why a connection failed, in words and with the terms an operator searches for (ENOENT, ECONNREFUSED, HTTP 401…). */
function describeFailure(error: unknown, transport: Transport, server: McpTestRequest, seconds: number): string {
  if (error instanceof TestTimeout) return `timeout after ${seconds} s`;
  if (error instanceof TestCancelled) return 'cancelled: the server is shutting down';
  if (error instanceof CommandNotFound) return error.message;
  const exited = transport instanceof ThrowawayTransport ? transport.exitDescription : undefined;
  if (exited) return exited;
  const network = server.kind !== 'stdio' && networkCode(error);
  if (network) return `${NETWORK_WORDS[network.code]} at ${network.address ?? new URL(server.url).host} (${network.code})`;
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    // With a status, what the SDK adds is the response's body: the status and what it means, not that.
    if (typeof error.code === 'number' && error.code >= 100) return `HTTP ${error.code}${HTTP_MEANING[error.code] ?? ''}`;
    return truncate(error.message.replace(/^(Streamable HTTP|SSE) error: /, '').trim());
  }
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  if (cause?.code) return cause.message.includes(cause.code) ? cause.message : `${cause.code}: ${cause.message}`;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (typeof code === 'string' && error instanceof Error) {
    return code === 'ENOENT' ? `${error.message} (command not found)` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Where a stdio server under test runs: a throwaway sandbox (SandboxRuntime.startThrowaway). */
export type StdioLauncher = (command: ThrowawayCommand) => Promise<ThrowawayProcess>;

function transportFor(server: McpTestRequest, stdio: StdioLauncher | undefined, connections: Agent): Transport {
  if (server.kind === 'stdio') {
    // Never on the host by default: a stdio server is user-supplied code.
    if (!stdio) throw new Error('A stdio MCP server is tested only where the caller says it runs');
    return new ThrowawayTransport(() => stdio({ command: server.command, args: server.args, env: server.env }));
  }
  const url = new URL(server.url);
  // A blank key means none, as it does when saving.
  const headers: Record<string, string> = server.api_key?.trim() ? { Authorization: `Bearer ${server.api_key}` } : {};
  // A test's own connections: one an earlier test left open would prove nothing, and the server
  // may have closed it meanwhile, which fails the request with "other side closed".
  // Node's fetch types and undici's differ only in their iterators' helpers.
  type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;
  const fetch: FetchLike = (input, init) => undiciFetch(input, { ...(init as UndiciInit), dispatcher: connections });
  // The SDK sends `requestInit.headers` on the SSE event stream and on every POST alike.
  return server.kind === 'sse'
    ? new SSEClientTransport(url, { requestInit: { headers }, fetch })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch });
}

/**
 * Connects to one MCP server as the agent would (`initialize`, then `tools/list`) and says what
 * it offers or why it failed. Everything is over within `seconds` (or when `signal` aborts), and
 * the connection (for stdio, the whole process group) is closed whatever happens.
 */
export async function testMcpConnection(
  server: McpTestRequest,
  seconds: number,
  signal?: AbortSignal,
  /** Where a stdio server runs. */
  stdio?: StdioLauncher,
): Promise<McpTestResult> {
  if (server.kind !== 'stdio' && /^wss?:/i.test(server.url)) {
    return { ok: false, error: 'WebSocket (ws://, wss://) servers cannot be tested here' };
  }
  const connections = new Agent();
  const transport = transportFor(server, stdio, connections);
  const client = new Client({ name: 'agent-console', version: '0.1.0' });
  const timeoutMs = seconds * 1000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TestTimeout()), timeoutMs);
    if (signal?.aborted) reject(new TestCancelled());
    signal?.addEventListener('abort', () => reject(new TestCancelled()), { once: true });
  });

  const handshake = async () => {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: { name: string; description: string | null }[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
      tools.push(...result.tools.map((tool) => ({ name: tool.name, description: tool.description ?? null })));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return tools;
  };

  try {
    return { ok: true, tools: await Promise.race([handshake(), deadline]) };
  } catch (error) {
    return { ok: false, error: describeFailure(error, transport, server, seconds) };
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    // Idempotent; covers a connect that failed before the client took the transport over.
    await transport.close().catch(() => undefined);
    await connections.destroy().catch(() => undefined);
  }
}
