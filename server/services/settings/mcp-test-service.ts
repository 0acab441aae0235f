import type { Caller } from '../../authz/caller';
import { randomBytes } from 'node:crypto';
import type { McpTestRequest, McpTestResult } from '../../../src/contract/mcp';
import type { Logger } from '../../logger';
import { Masker } from '../../agent-server/masking';
import type { SandboxRuntime } from '../../sandboxes/runtime';
import type { SettingsService } from './settings-service';

/** More at once would let one client fill the machine with server processes. */
export const MAX_CONCURRENT_TESTS = 4;

/**
 * Tests MCP server entries, with the stored API key when an entry keeps it (`api_key: null`).
 * Tests still running when the server stops are cancelled, which ends their processes; what a
 * server that was killed could not end is ended by the next start on the same data dir.
 */
export class McpTestService {
  readonly #shutdown = new AbortController();
  readonly #running = new Set<Promise<McpTestResult>>();

  constructor(
    private readonly settings: SettingsService,
    private readonly log: Logger,
    /** Where stdio servers run: each in a throwaway sandbox of the runtime (see SandboxRuntime.startThrowaway). */
    private readonly sandboxes: Pick<SandboxRuntime, 'startThrowaway' | 'endThrowawayLeftovers'>,
  ) {}

  /** Ends the stdio servers under test an earlier run on this data dir left behind; returns how many. */
  endLeftovers(): Promise<number> {
    return this.sandboxes.endThrowawayLeftovers();
  }

  async test(caller: Caller, request: McpTestRequest, seconds: number): Promise<McpTestResult> {
    if (this.#running.size >= MAX_CONCURRENT_TESTS) {
      return { ok: false, error: `${MAX_CONCURRENT_TESTS} connection tests are already running; try again in a moment` };
    }
    const log = this.log.child({ test: randomBytes(4).toString('hex'), kind: request.kind });
    const run = this.#run(caller, request, seconds, log);
    this.#running.add(run);
    try {
      const found = await run;
      // A stdio server's last words may echo its environment: its values are masked as in the agent's events.
      const result = found.ok || request.kind !== 'stdio' ? found : { ...found, error: new Masker(request.env).text(found.error) };
      // The reason is the server's or the transport's words; it names no key (keys travel in headers).
      log.debug(result.ok ? { tools: result.tools.length } : { reason: result.error }, 'MCP connection test done');
      return result;
    } finally {
      this.#running.delete(run);
    }
  }

  async #run(caller: Caller, request: McpTestRequest, seconds: number, log: Logger): Promise<McpTestResult> {
    // The MCP client is loaded at the first test, not at every server start.
    const { testMcpConnection } = await import('../../mcp/test-connection');
    if (request.kind === 'stdio') {
      return testMcpConnection(request, seconds, this.#shutdown.signal, (command) => this.sandboxes.startThrowaway(command));
    }
    let server = request;
    if (request.api_key === null || request.api_key === undefined) {
      try {
        server = { ...request, api_key: await this.settings.storedMcpKey(caller, request.kind, request.url) };
      } catch (error) {
        log.error({ err: error }, 'the stored MCP API key could not be read');
        return { ok: false, error: `The stored API key could not be read: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    return testMcpConnection(server, seconds, this.#shutdown.signal);
  }

  /** Cancels running tests and waits until their processes are gone. */
  async close(): Promise<void> {
    this.#shutdown.abort();
    await Promise.allSettled([...this.#running]);
  }
}
