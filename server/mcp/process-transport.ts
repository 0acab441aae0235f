import type { ChildProcess } from 'node:child_process';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeExit, type Exit } from '../processes/exit';
import { endGroup, spawnGroup } from '../processes/group';
import type { ProcessUser } from '../processes/process-user';

const STDERR_TAIL_BYTES = 2000;
const GRACE_MS = 1000;

/** A stdio MCP server's transport: it can say how its process ended. */
export interface StdioTransport extends Transport {
  /** How the process ended, with the end of what it wrote to stderr; undefined while it runs. */
  readonly exitDescription: string | undefined;
}

/** How a stdio server's process ended (`exit`), with the last lines of `stderr`; undefined while it runs. */
export function describeEnd(exit: Exit | undefined, stderr: string): string | undefined {
  if (!exit) return undefined;
  const said = stderr.trim().split('\n').slice(-3).join(' ');
  // A clean exit before responding is most often a command that is not an MCP server (a CLI that printed its help).
  if (exit.code === 0 && !exit.signal)
    return `process exited with code 0 before responding — is this an MCP server?${said ? ` It wrote: ${said}` : ''}`;
  const how = `process ${describeExit(exit)}`;
  return said ? `${how}: ${said}` : how;
}

export interface ProcessParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Runs it as this user (the server must be root). */
  user?: ProcessUser;
  /**
   * For a command in namespaces of its own (`sandboxCommand`, which holds it back on fds 3 and 4):
   * gives them their network and lets it run; resolves with what ends the network with it.
   */
  network?: (child: ChildProcess) => Promise<() => Promise<void>>;
}

/**
 * MCP over stdio with a process of our own, like the SDK's StdioClientTransport but started in
 * its own process group, so closing it ends everything it started (an `npx` wrapper and the
 * server below it alike): SIGTERM to the group, then SIGKILL after a grace period.
 */
export class ProcessGroupTransport implements StdioTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #child: ChildProcess | undefined;
  /** Its network as it is being given (`params.network`): what ends it, once it is there. */
  #network: Promise<(() => Promise<void>) | undefined> | undefined;
  #exit: Exit | undefined;
  #stderr = '';
  readonly #buffer = new ReadBuffer();

  constructor(private readonly params: ProcessParams) {}

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawnGroup(this.params.command, this.params.args, {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: this.params.network ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
        ...this.params.user,
      });
      this.#child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      const { network } = this.params;
      child.once('spawn', () => {
        if (!network) return resolve();
        const given = network(child);
        this.#network = given.catch(() => undefined);
        given.then(
          () => resolve(),
          (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
        );
      });
      // 'close' comes after stdout and stderr ended, so the stderr tail is complete by then.
      child.once('close', (code, signal) => {
        this.#exit = { code, signal };
        this.onclose?.();
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        this.#buffer.append(chunk);
        for (let message = this.#read(); message; message = this.#read()) this.onmessage?.(message);
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  #read(): JSONRPCMessage | null {
    try {
      return this.#buffer.readMessage();
    } catch (error) {
      this.onerror?.(error as Error);
      return null;
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin?.writable) throw new Error('The MCP server process is not running');
    stdin.write(serializeMessage(message));
  }

  get exitDescription(): string | undefined {
    return describeEnd(this.#exit, this.#stderr);
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child?.pid) return;
    this.#child = undefined;
    await endGroup(child.pid, GRACE_MS);
    // Closed while its network was still being given (a test that timed out): ended once given.
    await (
      await this.#network
    )?.();
  }
}
