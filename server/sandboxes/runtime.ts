import type { Readable, Writable } from 'node:stream';
import type { Exit } from '../processes/exit';
import type { SandboxIsolation, SandboxRuntimeName } from '../../src/contract/sandboxes';
import type { SandboxRecord } from '../store/sandboxes-store';
import type { WorkerUrl } from './worker-ports';

/*
 * Where sandboxes run. The sandbox service keeps the registry, the caps and the health checks;
 * a runtime does what needs the machine: process groups (`ProcessRuntime`) or containers on a
 * local Docker engine (`DockerRuntime`). Services talk to this interface only.
 */

/** What a runtime sees of a sandbox, without asking the sandbox anything. */
export type RuntimeState =
  /** Its processes run. */
  | 'running'
  /** Its processes are stopped, all of them (or its container stopped): resuming continues it. */
  | 'paused'
  /** It was started but is not recorded yet (the registry learns of it right after the start). */
  | 'pending'
  /** It is gone. */
  | 'missing';

/**
 * What the registry keeps of a started sandbox so the runtime finds it again, also after a
 * restart: a process's pid and start time, or (docker) pid 0 and the container's id.
 */
export type RuntimeHandle = Pick<SandboxRecord, 'pid' | 'process_start'>;

export interface SandboxLaunch {
  id: string;
  /** `null`: the image's own (a container's). */
  command: string[] | null;
  /** The image it runs in (containers only); `null`: the runtime's default. */
  image: string | null;
  /** Relative to the sandbox's home. */
  workingDir: string;
  env: Record<string, string>;
  /** The key its agent server takes (SESSION_API_KEY). */
  sessionKey: string;
  /** What `prepare` reserved for its agent server. */
  port: number;
  /** What `prepare` reserved for its apps (WORKER_1, WORKER_2), as ports inside it. */
  workerPorts: number[];
  /** Notified how its main process ended, while this server runs: `null` for a clean exit, else why. */
  onExit: (failure: string | null) => void;
}

export type Started = { ok: true; handle: RuntimeHandle } | { ok: false; error: string };

/** What was done to a sandbox outside this server: its container unpaused, or started again (`docker start`, `docker restart`). */
export type OutsideChange = 'unpaused' | 'started';

export interface ExecOptions {
  /** A directory inside the sandbox, relative to its home. */
  cwd: string;
  /** The environment of the sandbox's own processes plus these. */
  env: Record<string, string>;
  timeoutMs: number;
  /** Aborting ends the command, as the timeout does. */
  signal?: AbortSignal;
}

export interface ExecResult {
  /** `null` when it did not exit on its own (a signal, the timeout). */
  exitCode: number | null;
  /** stdout and stderr as they interleaved; only the end when there was much. */
  output: string;
  timedOut: boolean;
}

/** A user-supplied command for a throwaway sandbox (an MCP stdio server under test). */
export interface ThrowawayCommand {
  command: string;
  args: string[];
  /** Its environment, beside what the sandbox sets (HOME, TMPDIR, and on the process runtime a sandbox's PATH and locale). */
  env: Record<string, string>;
}

/** A command running in a throwaway sandbox, its standard streams piped to this server. */
export interface ThrowawayProcess {
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** How it ended, once it did and its output was read to the end. */
  readonly exited: Promise<Exit>;
  /** Ends it, everything it started, and the sandbox made for it; resolves once they are gone. */
  end(): Promise<void>;
}

/** The command of a throwaway sandbox is not there: nothing was started. */
export class CommandNotFound extends Error {
  constructor(readonly command: string) {
    super(`${command}: command not found`);
  }
}

/** What a sandbox may use: its CPUs, memory and disk (`null`: no limit of its own, the machine's). */
export interface ResourceLimits {
  cpus: number;
  memoryBytes: number | null;
  diskBytes: number | null;
}

/** What a sandbox uses at one moment. */
export interface ResourceUse {
  /** CPU time its processes used so far, in seconds: a counter, whose rate is the use. */
  cpuSeconds: number;
  memoryBytes: number;
  /** Its workspace (its home) on disk; absent when not measured this time. */
  diskBytes?: number;
  limits: ResourceLimits;
}

export interface SandboxRuntime {
  /** Which one it is (SANDBOX_RUNTIME), for the console to show. */
  readonly name: SandboxRuntimeName;
  /** What keeps its sandboxes apart, for the console to show. */
  readonly isolation: SandboxIsolation;
  /** Reserves what a new sandbox needs before anything of it runs (its home, its ports: the agent server's, its apps'). */
  prepare(id: string): Promise<{ port: number; workerPorts: number[] }>;
  /** Starts its main process; a command that cannot start is `ok: false` with the reason. */
  start(launch: SandboxLaunch): Promise<Started>;
  /** Finds a sandbox that was started but not recorded (the server stopped in between). */
  adopt(id: string): Promise<RuntimeHandle | undefined>;
  state(record: SandboxRecord): Promise<RuntimeState>;
  /**
   * `state` and `agentServerUrl` returned at once, by a runtime that sees its sandboxes without
   * waiting (process groups: /proc): a search asks about every sandbox, and a promise for each
   * would slow it down.
   */
  lookNow?(record: SandboxRecord): { state: RuntimeState; url: string | undefined; workerUrls: WorkerUrl[] };
  /** Stops every process of it; `false` when nothing was running. */
  pause(record: SandboxRecord): Promise<boolean>;
  /** Continues every process of it (a container that stopped starts again); `false` when nothing was paused. */
  resume(record: SandboxRecord): Promise<boolean>;
  /**
   * Ends its processes and removes what it stored. Files that cannot be removed do not make it
   * fail: they are logged and removed later (see `sweep`).
   */
  remove(record: SandboxRecord): Promise<void>;
  /**
   * Watches again how a sandbox found after a restart ends; one that ended while no server watched
   * is reported at once (`null` when it was stopped, not failed). Containers only: a process's exit
   * status was its parent's, the server that stopped.
   */
  watchAgain?(record: SandboxRecord, onExit: SandboxLaunch['onExit']): Promise<void>;
  /**
   * Notifies `listener` from now on of what is done to its sandboxes outside this server; resolves
   * once it listens (before `watchAgain`, so nothing falls in between). Containers only.
   */
  watchOutside?(listener: (id: string, change: OutsideChange) => void): Promise<void>;
  /**
   * Removes, in the background, what sandboxes that are not in the registry left behind (a delete
   * that failed half-way, a start the server did not live to record); called once at start with
   * the ids the registry holds.
   */
  sweep?(registered: ReadonlySet<string>): Promise<void>;
  /** Stops background work (at shutdown). */
  close?(): void;
  /**
   * What it uses now: its processes' CPU time and memory and, with `disk`, its workspace's size
   * (a walk of its files: asked for less often); `undefined` when it does not run.
   */
  resourceUse?(record: SandboxRecord, options: { disk: boolean }): Promise<ResourceUse | undefined>;
  /** The last `tail` lines of its output. */
  logs(record: SandboxRecord, tail: number): Promise<string[]>;
  /**
   * Where its agent server listens, from this server (a container's host port changes when it
   * starts again); `undefined` when it does not run (a container that stopped meanwhile).
   */
  agentServerUrl(record: SandboxRecord): Promise<string | undefined>;
  /** Where its apps (WORKER_1, WORKER_2: app previews) are reached from this machine, in that order; none when it does not run. */
  workerUrls(record: SandboxRecord): Promise<WorkerUrl[]>;
  /** Runs `command` inside it, as its own processes run, and waits for the end. */
  exec(record: SandboxRecord, command: string[], options: ExecOptions): Promise<ExecResult>;
  /**
   * Starts a user-supplied command in a sandbox of its own, kept from the server as this runtime's
   * sandboxes are (their user or namespaces and network, or a container of the sandbox image), with
   * a home of its own; `end()` removes all of it. The process runtime rejects with `CommandNotFound`
   * when the command is missing; in a container, that is how it exits (127, with the shell's words).
   */
  startThrowaway(command: ThrowawayCommand): Promise<ThrowawayProcess>;
  /** Ends what throwaway sandboxes a killed server on this data dir left behind; returns how many. */
  endThrowawayLeftovers(): Promise<number>;
}
