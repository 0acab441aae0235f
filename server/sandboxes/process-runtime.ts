import { msg } from '@lingui/core/macro';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SandboxIsolation } from '../../src/contract/sandboxes';
import { Invalid } from '../domain-errors';
import { describeExit, type Exit } from '../processes/exit';
import { endGroup, setGroupStopped, spawnGroup } from '../processes/group';
import {
  environValue,
  isStopped,
  liveProcess,
  liveProcesses,
  markedProcesses,
  type ProcStat,
  processesOfUser,
  readProcStat,
} from '../processes/proc';
import { pathForOtherUsers, type ProcessUser, unreadableByOthers } from '../processes/process-user';
import { runInGroup } from '../processes/run';
import type { Logger } from '../logger';
import type { SandboxRecord } from '../store/sandboxes-store';
import type {
  ExecOptions,
  ExecResult,
  ResourceUse,
  RuntimeHandle,
  RuntimeState,
  SandboxLaunch,
  SandboxRuntime,
  Started,
  ThrowawayCommand,
  ThrowawayProcess,
} from './runtime';
import { directorySize, filesystemSize, processUse } from './process-resources';
import { ProcessThrowaways } from './process-throwaway';
import { LeftoverRemoval } from './leftover-removal';
import { appendLog, isOwnLine, openLogForAppend, tailLines } from './sandbox-log';
import { SANDBOX_PUBLISHED_HOST } from './published-host';
import { freeSandboxPorts, sandboxPortRange } from './sandbox-ports';
import { storedWorkerPorts, workerEnv, type WorkerUrl } from './worker-ports';
import type { SandboxUsers } from './sandbox-users';
import {
  connectNetwork,
  commandInSandbox,
  inNamespacesOfItsOwn,
  NETWORK_HELPER_MARKER,
  type NamespaceTools,
  sandboxCommand,
  type SandboxMounts,
  serverDirs,
  writeNetworkFiles,
} from './namespaces';

/** Set in the environment of every process of a sandbox, so they can be distinguished from any others. */
export const SANDBOX_MARKER = 'AGENT_CONSOLE_SANDBOX_ID';

/** What a sandbox gets of the server's environment: enough to run, none of the server's secrets. */
const INHERITED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ'];

/** `relative` resolved inside `root`; `undefined` when it leads out of it. */
function inside(root: string, relative: string): string | undefined {
  const resolved = path.resolve(root, relative);
  return resolved === root || resolved.startsWith(`${root}${path.sep}`) ? resolved : undefined;
}

export interface ProcessRuntimeOptions {
  /** Each sandbox's home is `<dataDir>/sandboxes/<id>`. */
  dataDir: string;
  /** How long a removed sandbox has to exit after SIGTERM before SIGKILL. */
  stopGraceMs: number;
  log: Logger;
  /** Removes deleted sandboxes' directories (a default one under the data dir when absent). */
  removal?: LeftoverRemoval;
  /** Each sandbox runs as a user of its own (the server must be root); absent: as the server's user. */
  users?: SandboxUsers;
  /** Each sandbox runs in namespaces of its own (see namespaces.ts); absent: on the host's. */
  namespaces?: NamespaceTools;
  /** What every agent server is told beside its port and key (the browser origins it answers CORS for). */
  agentEnv?: Record<string, string>;
}

/**
 * Creates `relative` (a path inside `root`) directory by directory, each new one owned by `user`,
 * so a sandbox owns every directory made for it.
 */
async function makeDirs(root: string, relative: string, user: ProcessUser | undefined): Promise<void> {
  let current = root;
  for (const part of relative.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    try {
      await fs.mkdir(current, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw error;
    }
    if (user) await fs.chown(current, user.uid, user.gid);
  }
}

/** How long a look at /proc stands for a sandbox's state (see ProcessRuntime.state). */
const STATE_FRESH_MS = 100;

/** Every live process, and each one's sandbox marker, read when first asked. */
interface ProcessLook {
  all: ProcStat[];
  markerOf(pid: number): string | undefined;
  membersOf(pgrp: number): number[];
}

function processLook(): ProcessLook {
  const all = liveProcesses();
  const markers = new Map<number, string | undefined>();
  return {
    all,
    markerOf(pid) {
      if (!markers.has(pid)) markers.set(pid, environValue(pid, SANDBOX_MARKER));
      return markers.get(pid);
    },
    membersOf: (pgrp) => all.filter((p) => p.pgrp === pgrp).map((p) => p.pid),
  };
}

/** How old a look at /proc the resource-use readings may share. */
const SHARED_LOOK_MS = 1000;

/**
 * Sandboxes as process groups on this machine: each started in a home directory of its own, its
 * output in `sandbox-logs/<id>.log` (where only the server writes), paused with SIGSTOP, resumed
 * with SIGCONT, removed with SIGTERM then SIGKILL. With `namespaces` each runs in namespaces of its
 * own (its network helper in a group of its own beside it); with `users` (the server is root) as
 * a uid of its own; with neither, they are no security boundary. They are not tied to the server:
 * they keep running when it stops.
 */
export class ProcessRuntime implements SandboxRuntime {
  readonly name = 'process';
  readonly isolation: SandboxIsolation;
  readonly #removal: LeftoverRemoval;
  readonly #throwaways: ProcessThrowaways;
  /** The last look at each sandbox's processes (see `state`). */
  readonly #seen = new Map<string, { pid: number | null; start: string | null; at: number; state: RuntimeState }>();
  #shared: { at: number; look: ProcessLook } | undefined;

  constructor(private readonly options: ProcessRuntimeOptions) {
    this.#removal = options.removal ?? new LeftoverRemoval(path.join(options.dataDir, 'sandboxes', '.trash'), options.log);
    this.isolation = options.namespaces ? 'namespaces' : options.users ? 'uids' : 'none';
    this.#throwaways = new ProcessThrowaways({
      dataDir: options.dataDir,
      baseEnv: this.#inheritedEnv(),
      log: options.log,
      user: options.users?.throwawayUser,
      namespaces: options.namespaces,
    });
  }

  /** The /etc files every namespaced sandbox gets, written once. */
  #etc: SandboxMounts['etc'];

  #homes(): string {
    return path.join(this.options.dataDir, 'sandboxes');
  }

  #home(id: string): string {
    return path.join(this.#homes(), id);
  }

  /** The user its processes run as; `undefined` when sandboxes are not isolated. */
  async #userOf(id: string): Promise<ProcessUser | undefined> {
    return this.options.users?.of(this.#home(id));
  }

  /** Outside its home: the sandbox's own processes have no business there. */
  #logFile(id: string): string {
    return path.join(this.options.dataDir, 'sandbox-logs', `${id}.log`);
  }

  /** What a namespaced sandbox sees of the machine, its command starting in `cwd`. */
  #mounts(id: string, cwd: string): SandboxMounts {
    this.#etc ??= writeNetworkFiles(path.join(this.options.dataDir, 'sandbox-network'));
    return { home: this.#home(id), hidden: [path.resolve(this.options.dataDir)], shown: serverDirs(), etc: this.#etc, cwd };
  }

  /** The environment every process of the sandbox starts from. */
  #baseEnv(id: string): Record<string, string> {
    return { HOME: this.#home(id), TMPDIR: path.join(this.#home(id), 'tmp'), ...this.#inheritedEnv() };
  }

  /** What of the server's environment its sandboxes get. */
  #inheritedEnv(): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of INHERITED_ENV) if (process.env[name]) env[name] = process.env[name]!;
    if (this.options.users && env.PATH) env.PATH = pathForOtherUsers(env.PATH);
    return env;
  }

  async prepare(id: string): Promise<{ port: number; workerPorts: number[] }> {
    const { users } = this.options;
    // Sandboxes running as other users pass through the homes directory to their own, without listing it.
    await fs.mkdir(this.#homes(), { recursive: true, mode: users ? 0o711 : 0o700 });
    const user = await users?.allocate(this.#homes());
    await makeDirs(this.#homes(), path.join(id, 'tmp'), user);
    await fs.mkdir(path.dirname(this.#logFile(id)), { recursive: true, mode: 0o700 });
    const [port, ...workerPorts] = await freeSandboxPorts(3, sandboxPortRange());
    return { port: port!, workerPorts };
  }

  async start({ id, command, workingDir, env, sessionKey, port, workerPorts, onExit }: SandboxLaunch): Promise<Started> {
    const [file, ...args] = command ?? [];
    if (!file) return { ok: false, error: 'The spec has no command' };
    const logFile = this.#logFile(id);
    const cwd = inside(this.#home(id), workingDir);
    if (!cwd) return { ok: false, error: `Its working directory ${workingDir} is outside the sandbox` };
    let log: fs.FileHandle;
    let user: ProcessUser | undefined;
    try {
      user = await this.#userOf(id);
      await makeDirs(this.#home(id), path.relative(this.#home(id), cwd), user);
      log = await openLogForAppend(logFile);
    } catch (error) {
      return { ok: false, error: `Cannot prepare its directory: ${error instanceof Error ? error.message : String(error)}` };
    }
    // A command its user cannot read fails deep in its namespaces' setup, with words that say nothing of why.
    const unreadable =
      user &&
      [file, ...args]
        .filter((part) => path.isAbsolute(part) && !inside(this.#home(id), part))
        .map((part) => unreadableByOthers(part, 'its command'));
    const problem = unreadable?.find((found) => found !== undefined);
    if (problem) {
      await log.close();
      await appendLog(logFile, `could not start: ${problem}`);
      return { ok: false, error: problem };
    }
    const { namespaces } = this.options;
    const fullEnv: Record<string, string> = {
      ...this.#baseEnv(id),
      ...this.options.agentEnv,
      ...env,
      // In its own network namespace it listens on its own interfaces (the host reaches it through
      // the forwarded port); on the host's, on the address sandboxes are published on.
      HOST: namespaces ? '0.0.0.0' : SANDBOX_PUBLISHED_HOST,
      SESSION_API_KEY: sessionKey,
      PORT: String(port),
      ...workerEnv(workerPorts),
      [SANDBOX_MARKER]: id,
    };
    const launch = namespaces ? sandboxCommand(namespaces, this.#mounts(id, cwd), [file, ...args]) : { file, args };
    try {
      return await new Promise<Started>((resolve) => {
        const child = spawnGroup(launch.file, launch.args, {
          cwd,
          env: fullEnv,
          stdio: namespaces ? ['ignore', log.fd, log.fd, 'pipe', 'pipe'] : ['ignore', log.fd, log.fd],
          ...user,
        });
        let started: RuntimeHandle | undefined;
        child.once('error', (error: NodeJS.ErrnoException) => {
          const reason = error.code === 'ENOENT' ? `${error.message} (command not found)` : error.message;
          resolve({ ok: false, error: reason });
          void appendLog(logFile, `could not start: ${reason}`);
        });
        child.once('spawn', () => {
          const stat = child.pid === undefined ? undefined : readProcStat(child.pid);
          started = stat && { pid: stat.pid, process_start: stat.startTime };
          if (!started) return resolve({ ok: false, error: 'The process ended before it could be recorded' });
          if (!namespaces) return resolve({ ok: true, handle: started });
          const handle = started;
          connectNetwork(namespaces, child, {
            ports: [port, ...workerPorts],
            controlDir: path.join(this.options.dataDir, 'sandbox-network', id),
            user,
            env: { [SANDBOX_MARKER]: id },
          }).then(
            () => resolve({ ok: true, handle }),
            (error: unknown) => {
              const reason = `Its namespaces could not be set up: ${error instanceof Error ? error.message : String(error)}`;
              void appendLog(logFile, reason);
              void endGroup(handle.pid!, 0).then(() => resolve({ ok: false, error: reason }));
            },
          );
        });
        child.once('exit', (code, signal) => {
          // A look taken while it ran must not outlive it: what follows its end (a resume refused) needs the truth.
          this.#seen.delete(id);
          const exit = { code, signal };
          const ended = appendLog(logFile, `process ${describeExit(exit)}`).then(() => this.#exited(id, exit));
          ended.then(onExit, (error: unknown) => {
            this.options.log.error({ sandbox: id, err: error }, 'could not clean up after a sandbox process ended');
            onExit(exit.code === 0 ? null : `The process ${describeExit(exit)}`);
          });
        });
        child.unref();
      });
    } finally {
      await log.close();
    }
  }

  /** When the main process ends, the rest of its group goes with it (and its network helper); an unclean end says why, with its last words. */
  async #exited(id: string, exit: Exit): Promise<string | null> {
    // Its own group is among them while every member of it carries its marker.
    await Promise.all([...this.#markedGroups(id).keys()].map((group) => endGroup(group, 0)));
    if (exit.code === 0) return null;
    const tail = (await tailLines(this.#logFile(id), 4)).filter((line) => !isOwnLine(line));
    return `The process ${describeExit(exit)}${tail.length ? `: ${tail.join(' ')}` : ''}`;
  }

  async adopt(id: string): Promise<RuntimeHandle | undefined> {
    const leader = markedProcesses(SANDBOX_MARKER, id).find(
      (p) => p.pid === p.pgrp && environValue(p.pid, NETWORK_HELPER_MARKER) === undefined,
    );
    return leader && { pid: leader.pid, process_start: leader.startTime };
  }

  /**
   * Its state as /proc showed it at most STATE_FRESH_MS ago: a search asks about every sandbox, many
   * times a second, and reading /proc for each would dominate its cost. What this server does to a
   * sandbox (pause, resume, remove) is seen at once; what happens behind its back, that soon.
   */
  async state(record: SandboxRecord): Promise<RuntimeState> {
    return this.#freshState(record);
  }

  lookNow(record: SandboxRecord): { state: RuntimeState; url: string; workerUrls: WorkerUrl[] } {
    return { state: this.#freshState(record), url: this.#agentServerUrl(record), workerUrls: this.#workerUrls(record) };
  }

  #freshState(record: SandboxRecord): RuntimeState {
    const seen = this.#seen.get(record.id);
    const now = performance.now();
    if (seen && seen.pid === record.pid && seen.start === record.process_start && now - seen.at < STATE_FRESH_MS) return seen.state;
    const state = this.#state(record);
    this.#seen.set(record.id, { pid: record.pid, start: record.process_start, at: now, state });
    return state;
  }

  #state(record: SandboxRecord): RuntimeState {
    const leader = liveProcess(record.pid, record.process_start);
    if (!leader) return record.pid === null ? 'pending' : 'missing';
    return isStopped(leader) ? 'paused' : 'running';
  }

  /**
   * Every process group of the sandbox with its members, in one look at /proc (a fresh one unless
   * given): its main group while its leader is the recorded process (a reused pid is never
   * signalled), and groups made only of processes carrying its marker (commands run in it, or a
   * main process that was never recorded).
   */
  #groups(record: SandboxRecord, look = processLook()): Map<number, number[]> {
    const groups = this.#markedGroups(record.id, look, record.process_start);
    if (record.pid !== null && look.all.some((p) => p.pid === record.pid && p.startTime === record.process_start)) {
      groups.set(record.pid, look.membersOf(record.pid));
    }
    return groups;
  }

  /**
   * The process groups made only of processes carrying the sandbox's marker (a leader that is gone
   * can't vouch for its group), with their members. Only processes started with or after its main
   * one (`since`, when known) can carry it: the others' environments are not read.
   */
  #markedGroups(id: string, look = processLook(), since: string | null = null): Map<number, number[]> {
    const born = since === null ? 0 : Number(since);
    const isMarked = (p: ProcStat) => Number(p.startTime) >= born && look.markerOf(p.pid) === id;
    const groups = new Map<number, number[]>();
    for (const pgrp of new Set(look.all.filter(isMarked).map((p) => p.pgrp))) {
      const members = look.all.filter((p) => p.pgrp === pgrp);
      if (pgrp > 1 && members.every(isMarked)) groups.set(pgrp, look.membersOf(pgrp));
    }
    return groups;
  }

  /**
   * A look at /proc shared by the resource-use readings of a round: those may be a second old,
   * unless the sandbox's main process is younger than the look.
   */
  #recentLook(record: SandboxRecord): ProcessLook {
    const now = performance.now();
    const shared = this.#shared;
    if (shared && now - shared.at <= SHARED_LOOK_MS && shared.look.all.some((p) => p.pid === record.pid)) return shared.look;
    this.#shared = { at: now, look: processLook() };
    return this.#shared.look;
  }

  async #setStopped(record: SandboxRecord, stop: boolean): Promise<boolean> {
    this.#seen.delete(record.id);
    if (this.#state(record) !== (stop ? 'running' : 'paused')) return false;
    const groups = [...this.#groups(record)];
    const results = await Promise.all(groups.map(([group, members]) => setGroupStopped(group, stop, members)));
    this.#seen.delete(record.id); // a look taken while the signals went out
    return results.some(Boolean);
  }

  pause(record: SandboxRecord): Promise<boolean> {
    return this.#setStopped(record, true);
  }

  resume(record: SandboxRecord): Promise<boolean> {
    return this.#setStopped(record, false);
  }

  /** Its process groups' CPU time and memory from /proc; with `disk`, the size of its home. Limits: the machine's. */
  async resourceUse(record: SandboxRecord, { disk }: { disk: boolean }): Promise<ResourceUse | undefined> {
    if (this.#state(record) !== 'running') return undefined;
    const pids = [...this.#groups(record, this.#recentLook(record)).values()].flat();
    let cpuSeconds = 0;
    let memoryBytes = 0;
    for (const pid of pids) {
      const use = processUse(pid);
      cpuSeconds += use?.cpuSeconds ?? 0;
      memoryBytes += use?.memoryBytes ?? 0;
    }
    const home = this.#home(record.id);
    return {
      cpuSeconds,
      memoryBytes,
      ...(disk ? { diskBytes: await directorySize(home) } : {}),
      limits: { cpus: os.availableParallelism(), memoryBytes: os.totalmem(), diskBytes: await filesystemSize(home) },
    };
  }

  /** Ends its processes, then moves its files out of the way; removing them happens in the background and never fails the delete. */
  async remove(record: SandboxRecord): Promise<void> {
    this.#seen.delete(record.id);
    await Promise.all([...this.#groups(record).keys()].map((group) => endGroup(group, this.options.stopGraceMs)));
    await this.#endUserProcesses(record.id);
    await this.#removal.remove(this.#home(record.id));
    await this.#removal.remove(this.#logFile(record.id));
  }

  /**
   * Isolated, a sandbox's uid is its own: whatever still runs as it escaped its groups (a fork
   * that started a session of its own and dropped the marker) and goes now.
   */
  async #endUserProcesses(id: string): Promise<void> {
    if (!this.options.users) return;
    let user: ProcessUser;
    try {
      user = await this.options.users.of(this.#home(id));
    } catch {
      return; // no home (removed already): no uid to look for
    }
    for (const stat of processesOfUser(user.uid)) {
      try {
        process.kill(stat.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  sweep(): Promise<void> {
    return this.#removal.sweep();
  }

  startThrowaway(command: ThrowawayCommand): Promise<ThrowawayProcess> {
    return this.#throwaways.start(command);
  }

  endThrowawayLeftovers(): Promise<number> {
    return this.#throwaways.endLeftovers();
  }

  close(): void {
    this.#removal.close();
  }

  logs(record: SandboxRecord, tail: number): Promise<string[]> {
    return tailLines(this.#logFile(record.id), tail);
  }

  async agentServerUrl(record: SandboxRecord): Promise<string> {
    return this.#agentServerUrl(record);
  }

  #agentServerUrl(record: SandboxRecord): string {
    return `http://${SANDBOX_PUBLISHED_HOST}:${record.port}`;
  }

  async workerUrls(record: SandboxRecord): Promise<WorkerUrl[]> {
    return this.#workerUrls(record);
  }

  /** Its apps' ports are the same on this machine (forwarded, or its own there). */
  #workerUrls(record: SandboxRecord): WorkerUrl[] {
    return storedWorkerPorts(record).map((port) => ({ url: `http://${SANDBOX_PUBLISHED_HOST}:${port}`, port }));
  }

  async exec(record: SandboxRecord, command: string[], { cwd, env, timeoutMs, signal }: ExecOptions): Promise<ExecResult> {
    const directory = inside(this.#home(record.id), cwd);
    if (!directory) throw new Invalid(['cwd'], msg`${cwd} is outside the sandbox`);
    const { namespaces } = this.options;
    // A sandbox started before namespaces were on runs its commands where it runs.
    if (namespaces && record.pid !== null && inNamespacesOfItsOwn(record.pid)) {
      const entered = commandInSandbox(namespaces, record.pid, this.#mounts(record.id, directory), command);
      command = [entered.file, ...entered.args];
    }
    const result = await runInGroup(command, {
      user: await this.#userOf(record.id),
      cwd: directory,
      env: { ...this.#baseEnv(record.id), ...env, [SANDBOX_MARKER]: record.id },
      timeoutMs,
      signal,
    });
    return { exitCode: result.exitCode, output: result.output, timedOut: result.timedOut };
  }
}
