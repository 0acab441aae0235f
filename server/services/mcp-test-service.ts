import type { McpTestRequest, McpTestResult } from '../../src/contract/mcp';
import { testMcpConnection } from '../mcp/test-connection';
import type { SettingsService } from './settings-service';

/** More at once would let one client fill the machine with server processes. */
export const MAX_CONCURRENT_TESTS = 4;

/**
 * Tests MCP server entries, with the stored API key when an entry keeps it (`api_key: null`).
 * Tests still running when the server stops are cancelled, which ends their processes.
 */
export class McpTestService {
  readonly #shutdown = new AbortController();
  readonly #running = new Set<Promise<McpTestResult>>();

  constructor(private readonly settings: SettingsService) {}

  async test(request: McpTestRequest, seconds: number): Promise<McpTestResult> {
    if (this.#running.size >= MAX_CONCURRENT_TESTS) {
      return { ok: false, error: `${MAX_CONCURRENT_TESTS} connection tests are already running; try again in a moment` };
    }
    const run = this.#run(request, seconds);
    this.#running.add(run);
    try {
      return await run;
    } finally {
      this.#running.delete(run);
    }
  }

  async #run(request: McpTestRequest, seconds: number): Promise<McpTestResult> {
    let server = request;
    if (request.kind !== 'stdio' && (request.api_key === null || request.api_key === undefined)) {
      try {
        server = { ...request, api_key: await this.settings.storedMcpKey(request.kind, request.url) };
      } catch (error) {
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
