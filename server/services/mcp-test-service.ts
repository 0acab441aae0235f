import type { McpTestRequest, McpTestResult } from '../../src/contract/mcp';
import { testMcpConnection } from '../mcp/test-connection';
import { markedProcesses } from '../sandboxes/proc';
import type { SettingsService } from './settings-service';

/** More at once would let one client fill the machine with server processes. */
export const MAX_CONCURRENT_TESTS = 4;

/** In the environment of every stdio server a test starts: the data dir of the server that started it. */
export const MCP_TEST_MARKER = 'AGENT_CONSOLE_MCP_TEST';

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
    private readonly dataDir: string,
  ) {}

  /** Kills the process groups of stdio servers an earlier run on this data dir left behind; answers how many. */
  endLeftovers(): number {
    const groups = new Set(markedProcesses(MCP_TEST_MARKER, this.dataDir).map((process) => process.pgrp));
    for (const group of groups) {
      try {
        if (group > 1) process.kill(-group, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    return groups.size;
  }

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
    if (request.kind === 'stdio') {
      return testMcpConnection({ ...request, env: { ...request.env, [MCP_TEST_MARKER]: this.dataDir } }, seconds, this.#shutdown.signal);
    }
    let server = request;
    if (request.api_key === null || request.api_key === undefined) {
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
