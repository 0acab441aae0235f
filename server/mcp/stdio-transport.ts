import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describeExit, type Exit } from '../processes/exit';
import type { ThrowawayProcess } from '../sandboxes/runtime';

const STDERR_TAIL_BYTES = 2000;

/** How many of the last lines a stdio server wrote to stderr its end is told with. */
const STDERR_LINES = 5;

/** How a stdio server's process ended (`exit`), with the last lines of `stderr`, one per line; undefined while it runs. */
export function describeEnd(exit: Exit | undefined, stderr: string): string | undefined {
  if (!exit) return undefined;
  const said = stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean)
    .slice(-STDERR_LINES)
    .join('\n');
  // A clean exit before responding is most often a command that is not an MCP server (a CLI that printed its help).
  if (exit.code === 0 && !exit.signal)
    return `process exited with code 0 before responding — is this an MCP server?${said ? ` It wrote: ${said}` : ''}`;
  const how = `process ${describeExit(exit)}`;
  return said ? `${how}: ${said}` : how;
}

/**
 * MCP over the standard streams of a command in a throwaway sandbox (see SandboxRuntime), like the
 * SDK's StdioClientTransport, but closing it removes the sandbox and everything that ran in it,
 * also when it is closed while the sandbox is still being made (a test that timed out).
 */
export class ThrowawayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #starting: Promise<ThrowawayProcess> | undefined;
  #process: ThrowawayProcess | undefined;
  #closed = false;
  #exit: Exit | undefined;
  #stderr = '';
  readonly #buffer = new ReadBuffer();

  constructor(private readonly startProcess: () => Promise<ThrowawayProcess>) {}

  async start(): Promise<void> {
    this.#starting = this.startProcess();
    const started = await this.#starting;
    if (this.#closed) return started.end();
    this.#process = started;
    started.stdout.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#read(); message; message = this.#read()) this.onmessage?.(message);
    });
    started.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    started.stdin.on('error', (error: Error) => this.onerror?.(error));
    void started.exited.then((exit) => {
      this.#exit = exit;
      this.onclose?.();
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
    const stdin = this.#process?.stdin;
    if (!stdin?.writable) throw new Error('The MCP server is not running');
    stdin.write(serializeMessage(message));
  }

  /** How the process ended, with the end of what it wrote to stderr; undefined while it runs. */
  get exitDescription(): string | undefined {
    return describeEnd(this.#exit, this.#stderr);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const started = this.#process ?? (await this.#starting?.catch(() => undefined));
    await started?.end();
  }
}
