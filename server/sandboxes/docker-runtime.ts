import { msg } from '@lingui/core/macro';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type Docker from 'dockerode';
import { Invalid } from '../domain-errors';
import type { Logger } from '../logger';
import type { SandboxRecord } from '../store/sandboxes-store';
import { AGENT_SERVER_CONTAINER_PORT, CONTAINER_HOME, WORKER_CONTAINER_PORTS } from './docker/sandbox-image';
import { storedWorkerPorts, workerEnv, type WorkerUrl } from './worker-ports';
import { type ContainerEvent, ContainerEvents } from './docker/container-events';
import { engineFailure, engineMessage, isGone, statusCode } from './docker/engine-errors';
import { SANDBOX_PUBLISHED_HOST } from './published-host';
import type {
  ExecOptions,
  ExecResult,
  OutsideChange,
  ResourceUse,
  RuntimeHandle,
  RuntimeState,
  SandboxLaunch,
  SandboxRuntime,
  Started,
  ThrowawayCommand,
  ThrowawayProcess,
} from './runtime';
import { ExecStarts } from './docker/exec-starts';
import { ContainerThrowaways, THROWAWAY_LABEL } from './docker/throwaway-containers';
import type { LimitedSandboxNetwork } from './docker/network-limits';
import { hardenedHostConfig } from './docker/hardened-host-config';
import { DATA_DIR_LABEL, SANDBOX_LABEL } from './docker/labels';

export { DATA_DIR_LABEL, SANDBOX_LABEL } from './docker/labels';

const PORT_KEY = `${AGENT_SERVER_CONTAINER_PORT}/tcp`;
const PUBLISHED_PORT_KEYS = [PORT_KEY, ...WORKER_CONTAINER_PORTS.map((port) => `${port}/tcp`)];
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
  /** The network sandboxes' containers are on. */
  network: LimitedSandboxNetwork;
  /** Settings' `remote_runtime_resource_factor` at a start: the memory and CPUs of `limits` times it. */
  resourceFactor?: () => Promise<number>;
  /** How long a removed container has to exit after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  log: Logger;
  /** What every agent server is told beside its port and key (the browser origins it answers CORS for). */
  agentEnv?: Record<string, string>;
}

/** What a container's main process exits with when SIGTERM ended it: a stop (the engine's, or its own shutdown), not a crash. */
const STOPPED_BY_SIGTERM = 143;
/** How long an action of this server waits for its own event on the stream (it never takes that long). */
const OWN_EVENT_MS = 30_000;

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
 * data dir) is inside. Pause is the engine's (the cgroup freezer stops every process in it),
 * once the commands starting in it have started (`ExecStarts`).
 *
 * One stream of the engine's events for all of this server's containers says how each ended
 * (who stopped it: a `kill` before its `die` is a stop, not a crash) and what was done to them
 * outside this server (`docker unpause`, `docker start`). What each sandbox is doing comes from
 * one listing of this server's containers, shared by every question asked while it runs.
 */
export class DockerRuntime implements SandboxRuntime {
  readonly name = 'docker';
  readonly isolation = 'container';
  /** The sandboxes whose end is reported, while this server runs: their container and whom to notify. */
  readonly #watched = new Map<string, { containerId: string; onExit: SandboxLaunch['onExit'] }>();
  /** Sandboxes being removed: their end is no failure. */
  readonly #removing = new Set<string>();
  /** Containers sent a signal through the engine since they last started (`docker stop`, `docker kill`): their end is a stop. */
  readonly #signalled = new Set<string>();
  /** `container:action` this server did and has not seen on the stream yet, with when to stop waiting for it. */
  readonly #own = new Map<string, number>();
  /** Sandboxes this server prepared: never swept, whatever the registry said when the sweep began. */
  readonly #prepared = new Set<string>();
  readonly #events: ContainerEvents;
  #outside: ((id: string, change: OutsideChange) => void) | undefined;
  /** The listing under way, if any, and the count of changes (made here, or received as events) when it began. */
  #listing: { changes: number; containers: Promise<Map<string, Docker.ContainerInfo>> } | undefined;
  #changes = 0;

  readonly #throwaways: ContainerThrowaways;
  readonly #execStarts = new ExecStarts();

  constructor(private readonly options: DockerRuntimeOptions) {
    const { docker, image, limits, network, dataDir, log } = options;
    const labels = { [DATA_DIR_LABEL]: dataDir, [THROWAWAY_LABEL]: 'yes' };
    this.#throwaways = new ContainerThrowaways({ docker, image, limits, network, labels, log });
    this.#events = new ContainerEvents(
      options.docker,
      `${DATA_DIR_LABEL}=${options.dataDir}`,
      (event) => this.#onEvent(event),
      options.log,
    );
  }

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

  /**
   * Every container of this server by id, from one listing: a question asked while one is under
   * way shares it, unless a container changed since it began (this server changed it, or the
   * event stream reported a change): then it would be stale.
   */
  #listed(): Promise<Map<string, Docker.ContainerInfo>> {
    if (this.#listing?.changes !== this.#changes) {
      const filters = JSON.stringify({ label: [`${DATA_DIR_LABEL}=${this.options.dataDir}`] });
      const containers = this.options.docker.listContainers({ all: true, filters }).then(
        (found) => new Map(found.map((container) => [container.Id, container])),
        (error: unknown) => {
          throw engineFailure("list this server's containers", error);
        },
      );
      const listing = { changes: this.#changes, containers };
      this.#listing = listing;
      void containers
        .finally(() => {
          if (this.#listing === listing) this.#listing = undefined;
        })
        .catch(() => undefined);
    }
    return this.#listing!.containers;
  }

  /** The recorded container of a sandbox, as the listing shows it. */
  async #listedContainer(record: SandboxRecord): Promise<Docker.ContainerInfo | undefined> {
    if (!record.process_start) return undefined;
    const container = (await this.#listed()).get(record.process_start);
    return container?.Labels[SANDBOX_LABEL] === record.id ? container : undefined;
  }

  /** Runs a change this server makes to a container; what was listed before it is not used after it. */
  async #change<T>(containerId: string, action: 'start' | 'unpause' | undefined, making: () => Promise<T>): Promise<T> {
    const key = action && `${containerId}:${action}`;
    if (key) this.#own.set(key, Date.now() + OWN_EVENT_MS);
    try {
      return await making();
    } catch (error) {
      if (key) this.#own.delete(key);
      throw error;
    } finally {
      this.#changes++;
    }
  }

  /** Whether this server did `action` to the container itself (its event is then taken). */
  #wasOwn(containerId: string, action: 'start' | 'unpause'): boolean {
    const key = `${containerId}:${action}`;
    const until = this.#own.get(key);
    this.#own.delete(key);
    return until !== undefined && until > Date.now();
  }

  async #onEvent({ action, containerId, attributes }: ContainerEvent): Promise<void> {
    const id = attributes[SANDBOX_LABEL] ?? '';
    const watched = this.#watched.get(id);
    const ours = watched?.containerId === containerId;
    this.#changes++; // what was listed before it is stale
    switch (action) {
      case 'kill':
        this.#signalled.add(containerId);
        return;
      case 'start':
      case 'unpause':
        if (action === 'start') this.#signalled.delete(containerId);
        if (this.#wasOwn(containerId, action) || !ours) return;
        // The engine sends the event before its listing shows it: an inspect waits until the change is done.
        await this.#inspect(containerId, id).catch(() => undefined);
        this.#changes++;
        this.#outside?.(id, action === 'start' ? 'started' : 'unpaused');
        return;
      case 'die': {
        const stopped = this.#signalled.delete(containerId);
        if (watched && ours && !this.#removing.has(id)) watched.onExit(stopped ? null : await this.#exitDetail(id, containerId));
        return;
      }
      case 'destroy':
        this.#signalled.delete(containerId);
        this.#own.delete(`${containerId}:start`);
        this.#own.delete(`${containerId}:unpause`);
        return;
    }
  }

  async watchOutside(listener: (id: string, change: OutsideChange) => void): Promise<void> {
    this.#outside = listener;
    await this.#events.follow();
  }

  async prepare(id: string): Promise<{ port: number; workerPorts: number[] }> {
    this.#prepared.add(id);
    await this.options.network.ready();
    await this.options.docker.createVolume({ Name: this.#volume(id), Labels: this.#labels(id) });
    return { port: AGENT_SERVER_CONTAINER_PORT, workerPorts: WORKER_CONTAINER_PORTS };
  }

  async start({ id, command, image: launchImage, workingDir, env, sessionKey, workerPorts, onExit }: SandboxLaunch): Promise<Started> {
    const cwd = inHome(workingDir);
    if (!cwd) return { ok: false, error: `Its working directory ${workingDir} is outside the sandbox` };
    const { docker, limits } = this.options;
    const factor = (await this.options.resourceFactor?.()) ?? 1;
    const image = launchImage ?? this.options.image;
    const fullEnv = {
      ...this.options.agentEnv,
      ...env,
      SESSION_API_KEY: sessionKey,
      PORT: String(AGENT_SERVER_CONTAINER_PORT),
      HOST: '0.0.0.0',
      ...workerEnv(workerPorts),
    };
    let container: Docker.Container;
    try {
      container = await docker.createContainer({
        name: `agent-console-${id}`,
        Image: image,
        Cmd: command ?? undefined, // the image's own
        Env: Object.entries(fullEnv).map(([name, value]) => `${name}=${value}`),
        WorkingDir: cwd,
        Labels: this.#labels(id),
        ExposedPorts: Object.fromEntries(PUBLISHED_PORT_KEYS.map((key) => [key, {}])),
        HostConfig: {
          ...hardenedHostConfig(limits, factor),
          PortBindings: Object.fromEntries(PUBLISHED_PORT_KEYS.map((key) => [key, [{ HostIp: SANDBOX_PUBLISHED_HOST, HostPort: '' }]])),
          Mounts: [{ Type: 'volume', Source: this.#volume(id), Target: CONTAINER_HOME }],
        },
      });
    } catch (error) {
      const reason = statusCode(error) === 404 ? `The image ${image} is not on the Docker engine` : engineMessage(error);
      return { ok: false, error: reason };
    }
    this.#watched.set(id, { containerId: container.id, onExit });
    try {
      await this.#events.follow(); // so its end is received, however soon it comes
      await this.#change(container.id, 'start', () => container.start());
    } catch (error) {
      this.#watched.delete(id);
      await container.remove({ force: true }).catch(() => undefined);
      return { ok: false, error: engineMessage(error) };
    }
    return { ok: true, handle: { pid: 0, process_start: container.id } };
  }

  /**
   * Why a container that ended ended: out of memory, the engine's error, an exit code with its
   * last words; `null` when clean, or stopped (SIGTERM ended it: `docker stop`, or the engine
   * stopping its containers as it shut down).
   */
  async #exitDetail(id: string, containerId: string): Promise<string | null> {
    const info = await this.#inspect(containerId, id);
    if (!info || info.State.Running) return null; // gone with a delete, or started again already
    const { OOMKilled, ExitCode, Error: engineError } = info.State;
    if (OOMKilled) {
      const mib = Math.round((info.HostConfig.Memory || this.options.limits.memoryBytes) / 2 ** 20);
      return `The container ran out of memory (${mib} MiB: SANDBOX_MEMORY times Settings' resource factor) and was killed`;
    }
    if (engineError) return `The container failed: ${engineError}`;
    if (ExitCode === 0 || ExitCode === STOPPED_BY_SIGTERM) return null;
    const tail = (await this.#logLines(containerId, 4, false)).join(' ');
    return `The process exited with code ${ExitCode}${tail ? `: ${tail}` : ''}`;
  }

  /** The engine's stats of its container (CPU time, memory less the page cache) and, with `disk`, `du` of its home inside it. */
  async resourceUse(record: SandboxRecord, { disk }: { disk: boolean }): Promise<ResourceUse | undefined> {
    const containerId = record.process_start ?? '';
    const info = await this.#inspect(containerId, record.id);
    if (!info?.State.Running || info.State.Paused) return undefined;
    const stats = await this.options.docker.getContainer(containerId).stats({ stream: false, 'one-shot': true });
    const memory = stats.memory_stats;
    const cache = memory.stats?.inactive_file ?? memory.stats?.total_inactive_file ?? 0;
    let diskBytes: number | undefined;
    if (disk) {
      const du = await this.exec(record, ['du', '-sk', '.'], { cwd: '.', env: {}, timeoutMs: 30_000 });
      const kib = du.exitCode === 0 ? Number.parseInt(du.output, 10) : Number.NaN;
      diskBytes = Number.isFinite(kib) ? kib * 1024 : undefined;
    }
    return {
      cpuSeconds: (stats.cpu_stats.cpu_usage.total_usage ?? 0) / 1e9,
      memoryBytes: Math.max(0, (memory.usage ?? 0) - cache),
      ...(diskBytes === undefined ? {} : { diskBytes }),
      limits: {
        cpus: info.HostConfig.NanoCpus ? info.HostConfig.NanoCpus / 1e9 : os.availableParallelism(),
        memoryBytes: info.HostConfig.Memory || null,
        diskBytes: null,
      },
    };
  }

  async adopt(id: string): Promise<RuntimeHandle | undefined> {
    const [found] = await this.#containers(id);
    return found && { pid: 0, process_start: found.Id };
  }

  async watchAgain(record: SandboxRecord, onExit: SandboxLaunch['onExit']): Promise<void> {
    const info = record.process_start ? await this.#inspect(record.process_start, record.id) : undefined;
    if (!info) return;
    this.#watched.set(record.id, { containerId: info.Id, onExit });
    // a paused container is Running too; one that runs after the end the registry holds was started again outside
    if (!info.State.Running) onExit(await this.#exitDetail(record.id, info.Id));
    else if (record.exit_detail !== null) this.#outside?.(record.id, 'started');
  }

  async state(record: SandboxRecord): Promise<RuntimeState> {
    if (record.process_start === null) return 'pending';
    switch ((await this.#listedContainer(record))?.State) {
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
    const listed = await this.#listedContainer(record);
    if (listed?.State !== 'running') return false;
    try {
      const container = this.options.docker.getContainer(listed.Id);
      await this.#execStarts.pause(listed.Id, () => this.#change(listed.Id, undefined, () => container.pause()));
    } catch (error) {
      // It may have ended or gone since it was listed: then there is nothing to pause.
      if (isGone(error)) return false;
      throw engineFailure(`pause sandbox ${record.id}`, error);
    }
    return true;
  }

  async resume(record: SandboxRecord): Promise<boolean> {
    const listed = await this.#listedContainer(record);
    if (!listed) return false;
    const container = this.options.docker.getContainer(listed.Id);
    try {
      if (listed.State === 'paused') await this.#change(listed.Id, 'unpause', () => container.unpause());
      else if (listed.State === 'exited' || listed.State === 'created') await this.#change(listed.Id, 'start', () => container.start());
      else return false;
    } catch (error) {
      if (isGone(error)) return false;
      throw engineFailure(`resume sandbox ${record.id}`, error);
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
        // gone already, or being removed by another call: either way it goes
        await container.remove({ force: true }).catch((error: unknown) => {
          if (!isGone(error)) throw error;
        });
      }
      await this.#removeVolume(record.id);
    } catch (error) {
      throw engineFailure(`delete sandbox ${record.id}`, error);
    } finally {
      this.#changes++;
      this.#removing.delete(record.id);
      this.#watched.delete(record.id);
      this.#prepared.delete(record.id);
    }
  }

  /** Its volume, when it is this server's (the name alone does not say whose it is). */
  async #removeVolume(id: string, name = this.#volume(id)): Promise<void> {
    const volume = this.options.docker.getVolume(name);
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

  sweep(registered: ReadonlySet<string>): Promise<void> {
    void this.#sweep(registered).catch((error: unknown) =>
      this.options.log.warn({ err: error }, 'could not remove what sandboxes that are not in the registry left'),
    );
    return Promise.resolve();
  }

  /** Containers first: a volume in use cannot go. */
  async #sweep(registered: ReadonlySet<string>): Promise<void> {
    const { docker, dataDir, log } = this.options;
    const leftBehind = (id: string | undefined): id is string => id !== undefined && !registered.has(id) && !this.#prepared.has(id);
    const filters = JSON.stringify({ label: [`${DATA_DIR_LABEL}=${dataDir}`] });
    for (const container of await docker.listContainers({ all: true, filters })) {
      const id = container.Labels[SANDBOX_LABEL];
      if (!leftBehind(id)) continue;
      log.info({ sandbox: id, container: container.Id }, 'removing the container of a sandbox that is not in the registry');
      await docker
        .getContainer(container.Id)
        .remove({ force: true })
        .catch((error: unknown) => {
          if (!isGone(error)) throw error;
        });
    }
    for (const volume of (await docker.listVolumes({ filters })).Volumes ?? []) {
      const id = volume.Labels?.[SANDBOX_LABEL];
      if (!leftBehind(id)) continue;
      log.info({ sandbox: id, volume: volume.Name }, 'removing the volume of a sandbox that is not in the registry');
      await this.#removeVolume(id, volume.Name);
    }
  }

  startThrowaway(command: ThrowawayCommand): Promise<ThrowawayProcess> {
    return this.#throwaways.start(command);
  }

  endThrowawayLeftovers(): Promise<number> {
    return this.#throwaways.endLeftovers();
  }

  close(): void {
    this.#events.close();
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
    // Without a TTY the engine sends frames of stdout and stderr, interleaved as written.
    const frames = Readable.from([data]);
    const output = new PassThrough();
    frames.once('end', () => output.end());
    this.options.docker.modem.demuxStream(frames, output, output);
    const lines = (await text(output)).split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.slice(-tail);
  }

  async logs(record: SandboxRecord, tail: number): Promise<string[]> {
    const [found] = await this.#containers(record.id);
    return found ? this.#logLines(found.Id, tail, true) : [];
  }

  async agentServerUrl(record: SandboxRecord): Promise<string | undefined> {
    return this.#publishedUrl(await this.#listedContainer(record), AGENT_SERVER_CONTAINER_PORT);
  }

  async workerUrls(record: SandboxRecord): Promise<WorkerUrl[]> {
    const listed = await this.#listedContainer(record);
    return storedWorkerPorts(record).flatMap((port) => {
      const url = this.#publishedUrl(listed, port);
      return url ? [{ url, port }] : [];
    });
  }

  /** Where container port `port` is published on this machine, while the container runs (a restart publishes it anew). */
  #publishedUrl(listed: Docker.ContainerInfo | undefined, port: number): string | undefined {
    if (listed?.State !== 'running') return undefined;
    const published = listed.Ports.find((candidate) => candidate.PrivatePort === port && candidate.Type === 'tcp' && candidate.PublicPort);
    return published && `http://${SANDBOX_PUBLISHED_HOST}:${published.PublicPort}`;
  }

  async exec(record: SandboxRecord, command: string[], { cwd, env, timeoutMs, signal }: ExecOptions): Promise<ExecResult> {
    const directory = inHome(cwd);
    if (!directory) throw new Invalid(['cwd'], msg`${cwd} is outside the sandbox`);
    const containerId = record.process_start ?? '';
    const container = this.options.docker.getContainer(containerId);
    // Marks the command's processes, so a timeout can end all of them (the engine cannot stop an exec).
    const marker = `AGENT_CONSOLE_EXEC=${randomUUID()}`;
    return this.#execStarts.run(containerId, async (made) => {
      const exec = await container.exec({
        Cmd: command,
        Env: [...Object.entries(env).map(([name, value]) => `${name}=${value}`), marker],
        WorkingDir: directory,
        AttachStdout: true,
        AttachStderr: true,
      });
      made(exec);
      return this.#outputOf(record, container, exec, marker, { timeoutMs, signal });
    });
  }

  /** Starts `exec` and reads its output until it ends, or until `timeoutMs` or `signal` ends the processes marked with `marker`. */
  async #outputOf(
    record: SandboxRecord,
    container: Docker.Container,
    exec: Docker.Exec,
    marker: string,
    { timeoutMs, signal }: Pick<ExecOptions, 'timeoutMs' | 'signal'>,
  ): Promise<ExecResult> {
    const stream = await exec.start({ hijack: true, stdin: false });
    const output = new OutputTail();
    this.options.docker.modem.demuxStream(stream, output, output);
    let timedOut = false;
    const kill = () => {
      timedOut = true;
      void this.#execStarts
        .run(container.id, async (made) => {
          const killer = await container.exec({
            Cmd: ['sh', '-c', KILL_MARKED, 'kill-marked', marker],
            AttachStdout: false,
            AttachStderr: false,
          });
          made(killer);
          await killer.start({ Detach: true });
        })
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
