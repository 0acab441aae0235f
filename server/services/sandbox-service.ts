import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxInfo, SandboxSearchQuery, SandboxSpec } from '../../src/contract/sandboxes';
import { HealthMonitor } from '../sandboxes/health-monitor';
import { isStopped, liveProcess, SANDBOX_MARKER, sandboxProcesses } from '../sandboxes/proc';
import { describeExit, type Exit, freePort, launch, setGroupStopped, stopGroup, tailLines } from '../sandboxes/process-runtime';
import { sandboxStatus } from '../sandboxes/status';
import type { SecretBox } from '../secret-box';
import type { SandboxesStore, SandboxRecord } from '../store/sandboxes-store';
import { paginate } from './paging';

export class SandboxSpecNotFoundError extends Error {
  constructor(readonly specId: string) {
    super(`Sandbox spec ${specId} not found`);
  }
}

export class SandboxLimitError extends Error {}

export interface SandboxLimits {
  /** How many may exist at once (MAX_SANDBOXES). */
  maxSandboxes: number;
  /** How many may run at once (MAX_RUNNING_SANDBOXES); starting one more pauses the oldest. */
  maxRunning: number;
  /** How long a started sandbox may take to answer before it is in ERROR. */
  startTimeoutMs: number;
  /** How long a deleted sandbox has to exit after SIGTERM before SIGKILL. */
  stopGraceMs: number;
}

/** How long a start waits to catch a command that fails at once. */
const EARLY_EXIT_MS = 300;

/** What a sandbox gets of the server's environment: enough to run, none of the server's secrets. */
const INHERITED_ENV = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

const sandboxId = () => randomBytes(16).toString('hex');
const sessionKey = () => randomBytes(32).toString('base64url');
const logFile = (directory: string) => path.join(directory, 'sandbox.log');

/** Runs one operation at a time per key. */
class Locks {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, operation: () => Promise<T>): Promise<T> {
    const next = (this.#tails.get(key) ?? Promise.resolve()).then(operation, operation);
    const tail = next.catch(() => undefined);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return next;
  }
}

/** Starts and resumes take this too: the running cap is about all sandboxes at once. */
const CAP = '*cap*';

/**
 * Sandboxes as real process groups: started from a spec in their own directory, paused with
 * SIGSTOP, resumed with SIGCONT, deleted with SIGTERM then SIGKILL. Their status is read from the
 * process itself each time and from a health check that runs in the background. The registry is
 * in the database, so sandboxes outlive a server restart and are found again. Sandboxes run as
 * the server's own user: they hold the agent's work, they are not a security boundary.
 */
export class SandboxService {
  readonly #monitor: HealthMonitor;
  readonly #locks = new Locks();

  constructor(
    private readonly store: SandboxesStore,
    private readonly box: SecretBox,
    private readonly specs: SandboxSpec[],
    private readonly dataDir: string,
    private readonly limits: SandboxLimits,
  ) {
    this.#monitor = new HealthMonitor(async () =>
      (await this.store.list()).filter((record) => this.#runs(record)).map(({ id, port }) => ({ id, port })),
    );
  }

  /**
   * Finds the sandboxes of earlier runs again and starts watching their health; resolves after
   * the first round of checks, so the first answers already have the right status.
   */
  async startMonitoring(): Promise<void> {
    for (const record of await this.store.list()) {
      if (record.pid === null && !record.exit_detail) await this.#recover(record);
    }
    await this.#monitor.start();
  }

  /** Stops watching; the sandboxes themselves keep running. */
  close(): void {
    this.#monitor.stop();
  }

  /**
   * A sandbox whose process was started but not recorded (the server stopped in between): found
   * by the marker in its environment, or given up as failed.
   */
  async #recover(record: SandboxRecord): Promise<void> {
    const leader = sandboxProcesses(record.id).find((p) => p.pid === p.pgrp);
    if (leader) await this.store.update(record.id, { pid: leader.pid, process_start: leader.startTime });
    else await this.store.update(record.id, { exit_detail: 'Its process was not recorded before the server stopped, and is gone' });
  }

  #directory(id: string): string {
    return path.join(this.dataDir, 'sandboxes', id);
  }

  /** Whether its process is alive and not stopped: what the running cap counts, whatever its health. */
  #runs(record: SandboxRecord): boolean {
    const proc = liveProcess(record.pid, record.process_start);
    return proc !== undefined && proc.state !== 'T';
  }

  #info(record: SandboxRecord): SandboxInfo {
    const { status, detail } = sandboxStatus({
      process: liveProcess(record.pid, record.process_start),
      recorded: record.pid !== null,
      healthy: this.#monitor.healthy(record.id),
      exitDetail: record.exit_detail,
      sinceStart: Date.now() - Date.parse(record.started_at),
      startTimeoutMs: this.limits.startTimeoutMs,
    });
    const running = status === 'RUNNING';
    return {
      id: record.id,
      created_by_user_id: null,
      sandbox_spec_id: record.spec_id,
      status,
      session_api_key: running ? this.box.open(record.session_key) : null,
      exposed_urls: running ? [{ name: 'AGENT_SERVER', url: `http://127.0.0.1:${record.port}`, port: record.port }] : null,
      created_at: record.created_at,
      status_detail: detail,
    };
  }

  searchSpecs(pageId: string | undefined, limit: number) {
    return paginate(this.specs, pageId, limit);
  }

  getSpecs(ids: string[]): (SandboxSpec | null)[] {
    return ids.map((id) => this.specs.find((spec) => spec.id === id) ?? null);
  }

  async search(query: SandboxSearchQuery) {
    const matching = (await this.store.list())
      .map((record) => this.#info(record))
      .filter(
        (info) =>
          (!query.status__eq || info.status === query.status__eq) &&
          (!query.sandbox_spec_id__eq || info.sandbox_spec_id === query.sandbox_spec_id__eq),
      );
    return paginate(matching, query.page_id, query.limit);
  }

  async getMany(ids: string[]): Promise<(SandboxInfo | null)[]> {
    const byId = new Map((await this.store.list()).map((record) => [record.id, record]));
    return ids.map((id) => {
      const record = byId.get(id);
      return record ? this.#info(record) : null;
    });
  }

  async get(id: string): Promise<SandboxInfo | undefined> {
    const record = await this.store.get(id);
    return record && this.#info(record);
  }

  /**
   * Pauses the oldest running sandboxes until fewer than MAX_RUNNING_SANDBOXES run besides
   * `except`, as OpenHands does; answers which ones it paused.
   */
  async #makeRoom(except: string): Promise<string[]> {
    const running = (await this.store.list())
      .filter((record) => record.id !== except && this.#runs(record))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    const paused: string[] = [];
    for (const record of running.slice(0, Math.max(0, running.length - this.limits.maxRunning + 1))) {
      if (await setGroupStopped(record.pid, record.process_start, true)) {
        this.#monitor.forget(record.id);
        paused.push(record.id);
      }
    }
    return paused;
  }

  /**
   * What becomes of a sandbox whose leader process ended: the rest of its group goes too, and an
   * unclean end is recorded as its error, with the last lines it wrote.
   */
  async #exited(id: string, pid: number, startTime: string, exit: Exit): Promise<void> {
    await stopGroup(pid, startTime, 0, id).catch(() => undefined);
    if (exit.code === 0) return;
    const tail = tailLines(logFile(this.#directory(id)), 4).filter((line) => !line.startsWith('[agent-console]'));
    // Recorded only when it ended on its own: a deleted sandbox is gone from the registry.
    await this.store
      .update(id, { exit_detail: `The process ${describeExit(exit)}${tail.length ? `: ${tail.join(' ')}` : ''}` })
      .catch(() => undefined);
  }

  /** Starts a sandbox from `specId` (the default spec when absent). */
  start(specId: string | undefined): Promise<{ sandbox: SandboxInfo; pausedIds: string[] }> {
    return this.#locks.run(CAP, async () => {
      const spec = specId === undefined ? this.specs[0] : this.specs.find((s) => s.id === specId);
      if (!spec?.command) throw new SandboxSpecNotFoundError(specId ?? '(default)');
      if ((await this.store.count()) >= this.limits.maxSandboxes) {
        throw new SandboxLimitError(
          `At most ${this.limits.maxSandboxes} sandboxes may exist at once (MAX_SANDBOXES); delete one to start another`,
        );
      }

      const id = sandboxId();
      const directory = this.#directory(id);
      const cwd = path.join(directory, spec.working_dir);
      fs.mkdirSync(cwd, { recursive: true, mode: 0o700 });
      const key = sessionKey();
      const now = new Date().toISOString();
      // In the registry before the process exists, so no process is ever started unrecorded;
      // the marker in its environment finds it should the pid not get recorded.
      await this.store.insert({
        id,
        spec_id: spec.id,
        port: await freePort(),
        session_key: this.box.seal(key),
        pid: null,
        process_start: null,
        created_at: now,
        started_at: now,
        exit_detail: null,
      });
      const record = (await this.store.get(id))!;

      const env: Record<string, string> = { HOME: directory };
      for (const name of INHERITED_ENV) if (process.env[name]) env[name] = process.env[name]!;
      Object.assign(env, spec.initial_env, { SESSION_API_KEY: key, PORT: String(record.port), [SANDBOX_MARKER]: id });

      // What the exit handler needs and learns; it may fire before the pid is recorded.
      const watch: { started?: { pid: number; startTime: string }; earlyExit?: Exit; exited?: Promise<void> } = {};
      const onExit = (exit: Exit) => {
        if (watch.started) watch.exited = this.#exited(id, watch.started.pid, watch.started.startTime, exit);
        else watch.earlyExit = exit;
      };
      const launched = await launch({ command: spec.command, cwd, env, logFile: logFile(directory) }, onExit).catch((error: unknown) => ({
        ok: false as const,
        error: error instanceof Error ? error.message : String(error),
      }));
      if (!launched.ok) {
        await this.store.update(id, { exit_detail: `Could not start: ${launched.error}` });
        return { sandbox: (await this.get(id))!, pausedIds: [] };
      }
      watch.started = { pid: launched.pid, startTime: launched.startTime };
      try {
        await this.store.update(id, { pid: launched.pid, process_start: launched.startTime });
      } catch (error) {
        await stopGroup(launched.pid, launched.startTime, 0, id); // never a process that is not in the registry
        throw error;
      }
      if (watch.earlyExit) watch.exited = this.#exited(id, launched.pid, launched.startTime, watch.earlyExit);

      // A command that fails at once should say so in this answer, not in the next one.
      for (const deadline = Date.now() + EARLY_EXIT_MS; !watch.exited && Date.now() < deadline;)
        await new Promise((r) => setTimeout(r, 25));
      await watch.exited;
      // Room is made only for a sandbox that really started.
      const pausedIds = watch.exited ? [] : await this.#makeRoom(id);
      return { sandbox: (await this.get(id))!, pausedIds };
    });
  }

  /** SIGSTOP for the whole group; `false` for an unknown id. Pausing a paused sandbox is fine. */
  pause(id: string): Promise<boolean> {
    return this.#locks.run(id, async () => {
      const record = await this.store.get(id);
      if (!record) return false;
      await setGroupStopped(record.pid, record.process_start, true);
      this.#monitor.forget(id);
      return true;
    });
  }

  /** SIGCONT for the whole group, after making room; `undefined` for an unknown id. */
  resume(id: string): Promise<{ pausedIds: string[] } | undefined> {
    return this.#locks.run(id, () =>
      this.#locks.run(CAP, async () => {
        const record = await this.store.get(id);
        if (!record) return undefined;
        const proc = liveProcess(record.pid, record.process_start);
        if (!proc || !isStopped(proc)) return { pausedIds: [] }; // running already, or gone: nothing to resume
        const pausedIds = await this.#makeRoom(id);
        this.#monitor.forget(id);
        await this.store.update(id, { started_at: new Date().toISOString() });
        await setGroupStopped(record.pid, record.process_start, false);
        return { pausedIds };
      }),
    );
  }

  /** Stops the processes, removes the directory and the record; `false` for an unknown id. */
  delete(id: string): Promise<boolean> {
    return this.#locks.run(id, async () => {
      const record = await this.store.get(id);
      if (!record) return false;
      await stopGroup(record.pid, record.process_start, this.limits.stopGraceMs, id);
      // A process whose pid never got recorded is found by its marker.
      for (const leader of sandboxProcesses(id).filter((p) => p.pid === p.pgrp))
        await stopGroup(leader.pid, leader.startTime, this.limits.stopGraceMs, id);
      fs.rmSync(this.#directory(id), { recursive: true, force: true });
      await this.store.delete(id);
      this.#monitor.forget(id);
      return true;
    });
  }

  /** The last `tail` lines of the sandbox's stdout and stderr; `undefined` for an unknown id. */
  async logs(id: string, tail: number): Promise<string[] | undefined> {
    const record = await this.store.get(id);
    return record ? tailLines(logFile(this.#directory(id)), tail) : undefined;
  }
}
