import type { ChildProcess } from 'node:child_process';
import type { Caller } from '../../authz/caller';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { McpTestRequest, McpTestResult } from '../../../src/contract/mcp';
import type { Logger } from '../../logger';
import { type ContainerLauncher, ContainerTransport, removeLabelled } from '../../mcp/container-transport';
import { ProcessGroupTransport } from '../../mcp/process-transport';
import { testMcpConnection } from '../../mcp/test-connection';
import { Masker } from '../../agent-server/masking';
import { markedProcesses } from '../../processes/proc';
import { pathForOtherUsers, type ProcessUser } from '../../processes/process-user';
import {
  connectNetwork,
  type NamespaceTools,
  onPath,
  sandboxCommand,
  type SandboxMounts,
  serverDirs,
  writeNetworkFiles,
} from '../../sandboxes/namespaces';
import { endGroup, signalGroup } from '../../processes/group';
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
  #etc: SandboxMounts['etc'];

  constructor(
    private readonly settings: SettingsService,
    private readonly dataDir: string,
    private readonly log: Logger,
    /** The user stdio servers run as, when the server is root (never root itself, nor a sandbox's). */
    private readonly user?: ProcessUser,
    /** Stdio servers run in namespaces of their own with these (see sandboxes/namespaces.ts). */
    private readonly namespaces?: NamespaceTools,
    /** On the Docker runtime: stdio servers run in a throwaway container of the sandbox image instead. */
    private readonly containers?: ContainerLauncher,
  ) {}

  /**
   * HOME and TMPDIR of a stdio server under test, when it is kept apart (run as `user`, or in
   * namespaces): a directory of this test's own, which `npx` and `uvx` can write to, and which
   * goes with the test, so nothing of it reaches a later one.
   */
  async #ownHome(): Promise<string> {
    const home = path.join(this.dataDir, 'mcp-test-home', randomBytes(8).toString('hex'));
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    if (this.user) {
      // The user passes through to its own home, without listing the others.
      await fs.chmod(path.dirname(home), 0o711);
      await fs.chown(home, this.user.uid, this.user.gid);
    }
    return home;
  }

  /**
   * A stdio server's test: in a container of the sandbox image on the Docker runtime; otherwise as
   * `user`, in namespaces of its own when there are, with a home of its own when either.
   */
  async #runStdio(request: McpTestRequest & { kind: 'stdio' }, seconds: number): Promise<McpTestResult> {
    const { containers } = this;
    // Found again by their labels: nothing of this server goes into the container.
    if (containers) return testMcpConnection(request, seconds, this.#shutdown.signal, () => new ContainerTransport(containers, request));
    const searchPath = request.env.PATH ?? (this.user ? pathForOtherUsers(process.env.PATH ?? '') : (process.env.PATH ?? ''));
    // Found before it runs: in namespaces, bwrap's own "not found" would read as a server that exited.
    const command = onPath(request.command, searchPath);
    if (!command) return { ok: false, error: `${request.command}: command not found` };
    const home = this.user || this.namespaces ? await this.#ownHome() : undefined;
    try {
      const env = { ...(home && { HOME: home, TMPDIR: home, PATH: searchPath }), ...request.env, [MCP_TEST_MARKER]: this.dataDir };
      let server: McpTestRequest = { ...request, env };
      const { namespaces, user } = this;
      if (namespaces && home) {
        const isolated = sandboxCommand(namespaces, this.#mounts(home), [command, ...request.args], { dieWithParent: true });
        server = { ...server, command: isolated.file, args: isolated.args };
      }
      const network = namespaces && home ? this.#network(namespaces, home) : undefined;
      return await testMcpConnection(
        server,
        seconds,
        this.#shutdown.signal,
        (stdio) => new ProcessGroupTransport({ ...stdio, user, network }),
      );
    } finally {
      if (home) await fs.rm(home, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** What a stdio server under test sees in its namespaces: a sandbox's view, its home this test's own. */
  #mounts(home: string): SandboxMounts {
    this.#etc ??= writeNetworkFiles(path.join(this.dataDir, 'mcp-test-network'));
    return { home, hidden: [path.resolve(this.dataDir)], shown: serverDirs(), etc: this.#etc, cwd: home };
  }

  /**
   * A sandbox's network for a stdio server under test (the same limits: the internet and the host
   * at its alias, no private address), which ends with it; its helper carries the test's marker,
   * so a later start ends it when this server could not.
   */
  #network(tools: NamespaceTools, home: string) {
    return async (child: ChildProcess) => {
      const helper = await connectNetwork(tools, child, {
        ports: [],
        controlDir: path.join(this.dataDir, 'mcp-test-network', `control-${path.basename(home)}`),
        user: this.user,
        env: { [MCP_TEST_MARKER]: this.dataDir },
      });
      return () => endGroup(helper, 0);
    };
  }

  /** Ends the stdio servers under test an earlier run on this data dir left behind (process groups, containers); returns how many. */
  async endLeftovers(): Promise<number> {
    if (this.containers) return removeLabelled(this.containers, this.log);
    const groups = new Set(markedProcesses(MCP_TEST_MARKER, this.dataDir).map((process) => process.pgrp));
    for (const group of groups) {
      try {
        signalGroup(group, 'SIGKILL');
      } catch (error) {
        this.log.warn({ group, err: error }, 'could not end an MCP test process group an earlier run left behind');
      }
    }
    return groups.size;
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
    if (request.kind === 'stdio') return this.#runStdio(request, seconds);
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
