import { PassThrough, type Duplex } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type Docker from 'dockerode';
import type { Exit } from '../processes/exit';
import { describeEnd, type StdioTransport } from './process-transport';
import type { ContainerLimits } from '../sandboxes/docker-runtime';
import { hardenedHostConfig } from '../sandboxes/docker/hardened-host-config';
import type { LimitedSandboxNetwork } from '../sandboxes/docker/network-limits';

const STDERR_TAIL_BYTES = 2000;

/** On every container of an MCP test, beside the data dir's label. */
export const MCP_TEST_LABEL = 'agent-console.mcp-test';

/** Where a stdio MCP server under test runs on the Docker runtime: a container of its own, as a sandbox's would. */
export interface ContainerLauncher {
  docker: Docker;
  /** The sandbox image: what the agent's own MCP servers run in. */
  image: string;
  limits: ContainerLimits;
  /** On every container it makes, so the server finds what a killed run left. */
  labels: Record<string, string>;
  /** The sandboxes' network, which its containers are on. */
  network: LimitedSandboxNetwork;
}

export interface ContainerParams {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * MCP over stdio with a throwaway container of the sandbox image: none of the server's files,
 * environment, groups or engine socket, the sandboxes' network, a sandbox's limits; closing it
 * removes the container and everything that ran in it.
 */
export class ContainerTransport implements StdioTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #container: Docker.Container | undefined;
  #stream: Duplex | undefined;
  /** Closed (a test that timed out) while it was still being made: what it made goes at once. */
  #closed = false;
  #exit: Exit | undefined;
  #stderr = '';
  readonly #buffer = new ReadBuffer();

  constructor(
    private readonly launcher: ContainerLauncher,
    private readonly params: ContainerParams,
  ) {}

  async start(): Promise<void> {
    const { docker, image, limits, labels, network } = this.launcher;
    await network.ready();
    const container = await docker.createContainer({
      Image: image,
      Cmd: [this.params.command, ...this.params.args],
      Env: Object.entries(this.params.env).map(([name, value]) => `${name}=${value}`),
      Labels: labels,
      OpenStdin: true,
      StdinOnce: true,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      HostConfig: hardenedHostConfig(limits),
    });
    this.#container = container;
    if (this.#closed) return this.close();
    const stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as Duplex;
    this.#stream = stream;
    if (this.#closed) return this.close();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    docker.modem.demuxStream(stream, stdout, stderr);
    stdout.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      for (let message = this.#read(); message; message = this.#read()) this.onmessage?.(message);
    });
    stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    stream.on('error', (error: Error) => this.onerror?.(error));
    await container.start();
    void container.wait().then(
      ({ StatusCode }: { StatusCode: number }) => {
        // What it wrote last reaches the tail before its end is told.
        setImmediate(() => {
          this.#exit = { code: StatusCode, signal: null };
          this.onclose?.();
        });
      },
      () => undefined, // removed while waited for: closed by us
    );
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
    if (!this.#stream?.writable) throw new Error('The MCP server container is not running');
    this.#stream.write(serializeMessage(message));
  }

  get exitDescription(): string | undefined {
    return describeEnd(this.#exit, this.#stderr);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const container = this.#container;
    if (!container) return;
    this.#container = undefined;
    this.#stream?.destroy();
    await container.remove({ force: true }).catch(() => undefined);
  }
}

/** Removes the containers `launcher` made that are still there (a killed run's); returns how many. */
export async function removeLabelled(
  launcher: ContainerLauncher,
  log: { warn: (details: object, message: string) => void },
): Promise<number> {
  const label = Object.entries(launcher.labels).map(([name, value]) => `${name}=${value}`);
  const found = await launcher.docker.listContainers({ all: true, filters: JSON.stringify({ label }) });
  for (const { Id } of found) {
    await launcher.docker
      .getContainer(Id)
      .remove({ force: true })
      .catch((error: unknown) =>
        log.warn({ container: Id, err: error }, 'could not remove an MCP test container an earlier run left behind'),
      );
  }
  return found.length;
}
