import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { Invalid } from '../domain-errors';
import type { Logger } from '../logger';
import type { SandboxRecord } from '../store/sandboxes-store';
import { AGENT_SERVER_CONTAINER_PORT, CONTAINER_HOME } from './docker/sandbox-image';
import { demultiplex } from './docker/log-frames';
import type { ExecOptions, ExecResult, RuntimeHandle, RuntimeState, SandboxLaunch, SandboxRuntime, Started } from './runtime';

/** On every container and volume of a sandbox: which one it is. */
export const SANDBOX_LABEL = 'agent-console.sandbox';
/** And whose: the data dir of the server that made it (another server never touches it). */
export const DATA_DIR_LABEL = 'agent-console.data-dir';

const PORT_KEY = `${AGENT_SERVER_CONTAINER_PORT}/tcp`;
/** Only the end of a command's output is kept beyond this (errors are at the end). */
const MAX_OUTPUT = 256 * 1024;

export interface ContainerLimits {
  memoryBytes: number;
  cpus: number;
  pids: number;
}

export interface DockerRuntimeOptions {
  docker: Docker;
  /** Labels what this server makes, so it finds its own again and never another server's. */
  dataDir: string;
  /** What sandboxes start from unless their launch names another image. */
  image: string;
  limits: ContainerLimits;
  /** How long a removed container has to exit after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  log: Logger;
}

const statusCode = (error: unknown) => (error as { statusCode?: number }).statusCode;
/** `value` for an engine error that says the container is gone (404) or not in a state for it (409); others go on. */
const ifGone =
  <T>(value: T) =>
  (error: unknown): T => {
    if (statusCode(error) === 404 || statusCode(error) === 409) return value;
    throw error;
  };
const message = (error: unknown) =>
  (error as { json?: { message?: string } }).json?.message ?? (error instanceof Error ? error.message : String(error));

/** Keeps the last MAX_OUTPUT bytes written to it. */
class OutputTail extends Writable {
  #chunks: Buffer[] = [];
  #size = 0;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    while (this.#chunks.length > 1 && this.#size - this.#chunks[0]!.length >= MAX_OUTPUT) this.#size -= this.#chunks.shift()!.length;
    done();
  }

  text(): string {
    const all = Buffer.concat(this.#chunks);
    return all.subarray(Math.max(0, all.length - MAX_OUTPUT)).toString('utf8');
  }
}

/** `relative` inside the container's home; `undefined` when it leads out of it. */
function inHome(relative: string): string | undefined {
  const resolved = path.posix.resolve(CONTAINER_HOME, relative);
  return resolved === CONTAINER_HOME || resolved.startsWith(`${CONTAINER_HOME}/`) ? resolved : undefined;
}

/** Kills, inside the container, every process whose environment has the line given as $1. */
const KILL_MARKED = `for d in /proc/[0-9]*; do if tr '\\0' '\\n' < "$d/environ" 2>/dev/null | grep -qxF "$1"; then kill -KILL "\${d#/proc/}" 2>/dev/null; fi; done`;

/**
 * Sandboxes as containers on a local Docker engine: one per sandbox, from the default image (its
 * agent server), its home a named volume, labelled with its id and this server's data dir. The
 * agent server's port is published on 127.0.0.1 on a host port the engine picks, read again on
 * every use (it changes when the container starts again). Every capability dropped, no new
 * privileges, limits on memory, CPU and processes; nothing of the server (its environment, its
 * data dir) is inside. Pause is the engine's (the cgroup freezer stops every process in it).
 */
export class DockerRuntime implements SandboxRuntime {
  readonly name = 'docker';
  /** How each container's main process ending is told, while this server runs. */
  readonly #onExit = new Map<string, SandboxLaunch['onExit']>();
  /** The waits on running containers, ended at close. */
  readonly #waits = new Map<string, AbortController>();
  /** Sandboxes being removed: their end is no failure. */
  readonly #removing = new Set<string>();

  constructor(private readonly options: DockerRuntimeOptions) {}

  #labels(id: string): Record<string, string> {
    return { [SANDBOX_LABEL]: id, [DATA_DIR_LABEL]: this.options.dataDir };
  }

  #volume(id: string): string {
    return `agent-console-${id}`;
  }

  async #inspect(containerId: string, id: string): Promise<Docker.ContainerInspectInfo | undefined> {
    try {
      const info = await this.options.docker.getContainer(containerId).inspect();
      const labels = info.Config.Labels ?? {};
      return labels[SANDBOX_LABEL] === id && labels[DATA_DIR_LABEL] === this.options.dataDir ? info : undefined;
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
  }

  /** Its containers (one, unless a start was interrupted), running or not. */
  async #containers(id: string): Promise<Docker.ContainerInfo[]> {
    const label = Object.entries(this.#labels(id)).map(([name, value]) => `${name}=${value}`);
    return this.options.docker.listContainers({ all: true, filters: JSON.stringify({ label }) });
  }

  async prepare(id: string): Promise<{ port: number }> {
    await this.options.docker.createVolume({ Name: this.#volume(id), Labels: this.#labels(id) });
    return { port: AGENT_SERVER_CONTAINER_PORT };
  }

  async start({ id, command, image: launchImage, workingDir, env, sessionKey, onExit }: SandboxLaunch): Promise<Started> {
    const cwd = inHome(workingDir);
    if (!cwd) return { ok: false, error: `Its working directory ${workingDir} is outside the sandbox` };
    const { docker, limits } = this.options;
    const image = launchImage ?? this.options.image;
    const fullEnv = { ...env, SESSION_API_KEY: sessionKey, PORT: String(AGENT_SERVER_CONTAINER_PORT), HOST: '0.0.0.0' };
    let container: Docker.Container;
    try {
      container = await docker.createContainer({
        name: `agent-console-${id}`,
        Image: image,
        Cmd: command ?? undefined, // the image's own
        Env: Object.entries(fullEnv).map(([name, value]) => `${name}=${value}`),
        WorkingDir: cwd,
        Labels: this.#labels(id),
        ExposedPorts: { [PORT_KEY]: {} },
        HostConfig: {
          Init: true,
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges'],
          Privileged: false,
          Memory: limits.memoryBytes,
          MemorySwap: limits.memoryBytes, // no swap: the limit is the limit
          NanoCpus: Math.round(limits.cpus * 1e9),
          PidsLimit: limits.pids,
          PortBindings: { [PORT_KEY]: [{ HostIp: '127.0.0.1', HostPort: '' }] },
          Mounts: [{ Type: 'volume', Source: this.#volume(id), Target: CONTAINER_HOME }],
          ExtraHosts: ['host.docker.internal:host-gateway'],
        },
      });
    } catch (error) {
      const reason = statusCode(error) === 404 ? `The image ${image} is not on the Docker engine` : message(error);
      return { ok: false, error: reason };
    }
    this.#onExit.set(id, onExit);
    try {
      await container.start();
    } catch (error) {
      this.#onExit.delete(id);
      await container.remove({ force: true }).catch(() => undefined);
      return { ok: false, error: message(error) };
    }
    this.#watch(id, container);
    return { ok: true, handle: { pid: 0, process_start: container.id } };
  }

  /** Waits for the container's main process to end, and tells why when it was not clean. */
  #watch(id: string, container: Docker.Container): void {
    const onExit = this.#onExit.get(id);
    if (!onExit || this.#waits.has(id)) return;
    const abort = new AbortController();
    this.#waits.set(id, abort);
    container
      .wait({ abortSignal: abort.signal })
      .then(async () => {
        this.#waits.delete(id);
        if (this.#removing.has(id)) return;
        const failure = await this.#exitDetail(id, container.id);
        onExit(failure);
      })
      .catch((error: unknown) => {
        this.#waits.delete(id);
        if (!abort.signal.aborted) this.options.log.warn({ sandbox: id, err: error }, 'lost the wait on a sandbox container');
      });
  }

  /** Why a stopped container stopped: out of memory, an exit code with its last words, the engine's error; `null` when clean. */
  async #exitDetail(id: string, containerId: string): Promise<string | null> {
    const info = await this.#inspect(containerId, id);
    if (!info || info.State.Running) return null; // gone with a delete, or started again already
    const { OOMKilled, ExitCode, Error: engineError } = info.State;
    if (OOMKilled) {
      const mib = Math.round(this.options.limits.memoryBytes / 2 ** 20);
      return `The container ran out of memory (SANDBOX_MEMORY, ${mib} MiB) and was killed`;
    }
    if (engineError) return `The container failed: ${engineError}`;
    if (ExitCode === 0) return null;
    const tail = (await this.#logLines(containerId, 4, false)).join(' ');
    return `The process exited with code ${ExitCode}${tail ? `: ${tail}` : ''}`;
  }

  async adopt(id: string): Promise<RuntimeHandle | undefined> {
    const [found] = await this.#containers(id);
    return found && { pid: 0, process_start: found.Id };
  }

  async watchAgain(record: SandboxRecord, onExit: SandboxLaunch['onExit']): Promise<void> {
    const info = record.process_start ? await this.#inspect(record.process_start, record.id) : undefined;
    if (!info) return;
    this.#onExit.set(record.id, onExit);
    // a paused container is Running too
    if (info.State.Running) this.#watch(record.id, this.options.docker.getContainer(info.Id));
    else onExit(await this.#exitDetail(record.id, info.Id));
  }

  async state(record: SandboxRecord): Promise<RuntimeState> {
    if (record.process_start === null) return 'pending';
    const info = await this.#inspect(record.process_start, record.id);
    switch (info?.State.Status) {
      case 'running':
      case 'restarting':
        return 'running';
      // a stopped container starts again on resume
      case 'paused':
      case 'created':
      case 'exited':
        return 'paused';
      default:
        return 'missing';
    }
  }

  async pause(record: SandboxRecord): Promise<boolean> {
    if ((await this.state(record)) !== 'running' || !record.process_start) return false;
    // It may have ended or gone since its state was read: then there is nothing to pause.
    return this.options.docker
      .getContainer(record.process_start)
      .pause()
      .then(() => true, ifGone(false));
  }

  async resume(record: SandboxRecord): Promise<boolean> {
    if (!record.process_start) return false;
    const info = await this.#inspect(record.process_start, record.id);
    const container = this.options.docker.getContainer(record.process_start);
    try {
      if (info?.State.Status === 'paused') await container.unpause();
      else if (info?.State.Status === 'exited' || info?.State.Status === 'created') {
        await container.start();
        this.#watch(record.id, container);
      } else return false;
    } catch (error) {
      return ifGone(false)(error);
    }
    return true;
  }

  async remove(record: SandboxRecord): Promise<void> {
    this.#removing.add(record.id);
    try {
      const ids = new Set((await this.#containers(record.id)).map((container) => container.Id));
      for (const id of ids) {
        const container = this.options.docker.getContainer(id);
        // stopped first, so its processes get the grace a process sandbox gets
        await container.stop({ t: Math.ceil(this.options.stopGraceMs / 1000) }).catch(() => undefined);
        await container.remove({ force: true }).catch((error: unknown) => {
          if (statusCode(error) !== 404) throw error;
        });
      }
      await this.#removeVolume(record.id);
    } finally {
      this.#removing.delete(record.id);
      this.#onExit.delete(record.id);
      this.#waits.get(record.id)?.abort();
    }
  }

  /** Its volume, when it is this server's (the name alone does not say whose it is). */
  async #removeVolume(id: string): Promise<void> {
    const volume = this.options.docker.getVolume(this.#volume(id));
    try {
      const { Labels } = await volume.inspect();
      if (Labels?.[SANDBOX_LABEL] === id && Labels[DATA_DIR_LABEL] === this.options.dataDir) await volume.remove();
    } catch (error) {
      if (statusCode(error) === 404) return;
      // Still in use for a moment after its container went: the sandbox is gone all the same.
      if (statusCode(error) === 409) return this.options.log.warn({ sandbox: id, err: error }, 'could not remove a sandbox volume yet');
      throw error;
    }
  }

  close(): void {
    for (const abort of this.#waits.values()) abort.abort();
    this.#waits.clear();
  }

  /** The container's log lines (`withTimes`: each after its time); none when it is gone. */
  async #logLines(containerId: string, tail: number, withTimes: boolean): Promise<string[]> {
    let data: Buffer;
    try {
      data = await this.options.docker
        .getContainer(containerId)
        .logs({ stdout: true, stderr: true, timestamps: withTimes, tail, follow: false });
    } catch (error) {
      if (statusCode(error) === 404) return [];
      throw error;
    }
    const lines = demultiplex(data).split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-tail);
  }

  async logs(record: SandboxRecord, tail: number): Promise<string[]> {
    const [found] = await this.#containers(record.id);
    return found ? this.#logLines(found.Id, tail, true) : [];
  }

  async agentServerUrl(record: SandboxRecord): Promise<string> {
    const info = record.process_start ? await this.#inspect(record.process_start, record.id) : undefined;
    // Not running (stopped meanwhile): port 0, where nothing answers.
    const hostPort = info?.NetworkSettings.Ports?.[PORT_KEY]?.[0]?.HostPort ?? '0';
    return `http://127.0.0.1:${hostPort}`;
  }

  async exec(record: SandboxRecord, command: string[], { cwd, env, timeoutMs, signal }: ExecOptions): Promise<ExecResult> {
    const directory = inHome(cwd);
    if (!directory) throw new Invalid(['cwd'], `${cwd} is outside the sandbox`);
    const container = this.options.docker.getContainer(record.process_start ?? '');
    // Marks the command's processes, so a timeout can end all of them (the engine cannot stop an exec).
    const marker = `AGENT_CONSOLE_EXEC=${randomUUID()}`;
    const exec = await container.exec({
      Cmd: command,
      Env: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), marker],
      WorkingDir: directory,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const output = new OutputTail();
    this.options.docker.modem.demuxStream(stream, output, output);
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      void container
        .exec({ Cmd: ['sh', '-c', KILL_MARKED, 'kill-marked', marker], AttachStdout: false, AttachStderr: false })
        .then((killer) => killer.start({ Detach: true }))
        .catch((error: unknown) => this.options.log.warn({ sandbox: record.id, err: error }, 'could not end a command that ran too long'));
    };
    const timer = setTimeout(kill, timeoutMs);
    signal?.addEventListener('abort', kill, { once: true });
    if (signal?.aborted) kill();
    try {
      await new Promise<void>((resolve, reject) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.once('error', reject);
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
    }
    const { ExitCode } = await exec.inspect();
    return { exitCode: timedOut ? null : ExitCode, output: output.text(), timedOut };
  }
}
