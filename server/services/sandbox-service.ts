import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxInfo, SandboxSearchQuery, SandboxSpec } from '../../src/contract/sandboxes';
import { HealthMonitor } from '../sandboxes/health-monitor';
import { liveProcess } from '../sandboxes/proc';
import { freePort, launch, signalGroup, stopGroup, tailLines } from '../sandboxes/process-runtime';
import { sandboxStatus } from '../sandboxes/status';
import type { SecretBox } from '../secret-box';
import type { SandboxesStore, SandboxRecord } from '../store/sandboxes-store';
import { decodePageId, encodePageId } from './paging';

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

/** The environment a sandbox gets from the server: enough to run, none of the server's secrets. */
const INHERITED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR'];

const sandboxId = () => randomBytes(16).toString('hex');
const sessionKey = () => randomBytes(32).toString('base64url');

/**
 * Sandboxes as real process groups: started from a spec in their own directory, paused with
 * SIGSTOP, resumed with SIGCONT, deleted with SIGTERM then SIGKILL. Their status is read from the
 * process itself each time and from a health check that runs in the background. The registry is
 * in the database, so sandboxes outlive a server restart and are found again.
 */
export class SandboxService {
  readonly #monitor: HealthMonitor;
  /** Lifecycle changes one at a time, so limits and the running cap hold under concurrent calls. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: SandboxesStore,
    private readonly box: SecretBox,
    private readonly specs: SandboxSpec[],
    private readonly dataDir: string,
    private readonly limits: SandboxLimits,
  ) {
    this.#monitor = new HealthMonitor(async () =>
      (await this.store.list())
        .filter((record) => {
          const proc = liveProcess(record.pid, record.process_start);
          return proc !== undefined && proc.state !== 'T';
        })
        .map(({ id, port }) => ({ id, port })),
    );
  }

  /** Starts watching the health of the sandboxes in the registry (those of earlier runs too). */
  startMonitoring(): void {
    this.#monitor.start();
  }

  /** Stops watching; the sandboxes themselves keep running. */
  close(): void {
    this.#monitor.stop();
  }

  #serially<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(operation, operation);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #directory(id: string): string {
    return path.join(this.dataDir, 'sandboxes', id);
  }

  #info(record: SandboxRecord): SandboxInfo {
    const { status, detail } = sandboxStatus({
      process: liveProcess(record.pid, record.process_start),
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

  listSpecs(): SandboxSpec[] {
    return this.specs;
  }

  async search(query: SandboxSearchQuery): Promise<{ items: SandboxInfo[]; next_page_id: string | null }> {
    const all = (await this.store.list())
      .map((record) => this.#info(record))
      .filter(
        (info) =>
          (!query.status__eq || info.status === query.status__eq) &&
          (!query.sandbox_spec_id__eq || info.sandbox_spec_id === query.sandbox_spec_id__eq),
      );
    const offset = decodePageId(query.page_id);
    const items = all.slice(offset, offset + query.limit);
    return { items, next_page_id: offset + query.limit < all.length ? encodePageId(offset + query.limit) : null };
  }

  async get(id: string): Promise<SandboxInfo | undefined> {
    const record = await this.store.get(id);
    return record && this.#info(record);
  }

  async getMany(ids: string[]): Promise<(SandboxInfo | null)[]> {
    const byId = new Map((await this.store.list()).map((record) => [record.id, record]));
    return ids.map((id) => {
      const record = byId.get(id);
      return record ? this.#info(record) : null;
    });
  }

  /**
   * Pauses the oldest running sandboxes until fewer than MAX_RUNNING_SANDBOXES run (besides
   * `except`), as OpenHands does; answers which ones it paused.
   */
  async #makeRoom(except?: string): Promise<string[]> {
    const running = (await this.store.list())
      .filter((record) => record.id !== except && ['RUNNING', 'STARTING'].includes(this.#info(record).status))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
    const paused: string[] = [];
    for (const record of running.slice(0, Math.max(0, running.length - this.limits.maxRunning + 1))) {
      if (signalGroup(record.pid, record.process_start, 'SIGSTOP')) paused.push(record.id);
    }
    return paused;
  }

  /** Starts a sandbox from `specId` (the default spec when absent). */
  start(specId: string | undefined): Promise<{ sandbox: SandboxInfo; pausedIds: string[] }> {
    return this.#serially(async () => {
      const spec = specId === undefined ? this.specs[0] : this.specs.find((s) => s.id === specId);
      if (!spec?.command) throw new SandboxSpecNotFoundError(specId ?? '(default)');
      if ((await this.store.count()) >= this.limits.maxSandboxes) {
        throw new SandboxLimitError(
          `At most ${this.limits.maxSandboxes} sandboxes may exist at once (MAX_SANDBOXES); delete one to start another`,
        );
      }
      const pausedIds = await this.#makeRoom();

      const id = sandboxId();
      const directory = this.#directory(id);
      const cwd = path.join(directory, spec.working_dir);
      fs.mkdirSync(cwd, { recursive: true, mode: 0o700 });
      const key = sessionKey();
      const port = await freePort();
      const now = new Date().toISOString();
      // In the registry before the process exists, so no process is ever started unrecorded.
      await this.store.insert({
        id,
        spec_id: spec.id,
        command: JSON.stringify(spec.command),
        port,
        session_key: this.box.seal(key),
        pid: null,
        process_start: null,
        created_at: now,
        started_at: now,
        exit_detail: null,
      });

      const env: Record<string, string> = {};
      for (const name of INHERITED_ENV) if (process.env[name]) env[name] = process.env[name]!;
      Object.assign(env, spec.initial_env, { SESSION_API_KEY: key, PORT: String(port) });
      let exited: string | undefined;
      const launched = await launch({ command: spec.command, cwd, env, logFile: path.join(directory, 'sandbox.log') }, (detail) => {
        exited = detail;
        // Recorded only when it ended on its own: a deleted sandbox is gone from the registry.
        void this.store.update(id, { exit_detail: `The process ${detail}` }).catch(() => undefined);
      });
      if (!launched.ok) {
        await this.store.update(id, { exit_detail: `Could not start: ${launched.error}` });
      } else {
        await this.store.update(id, { pid: launched.pid, process_start: launched.startTime });
        // A command that fails at once should say so in this answer, not in the next one.
        for (const deadline = Date.now() + EARLY_EXIT_MS; !exited && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 25));
        if (exited) {
          await stopGroup(launched.pid, launched.startTime, 0); // whatever it left behind
          const tail = tailLines(path.join(directory, 'sandbox.log'), 3).filter((line) => !line.startsWith('[agent-console]'));
          await this.store.update(id, {
            exit_detail: `The process ${exited} right after starting${tail.length ? `: ${tail.join(' ')}` : ''}`,
          });
        }
      }
      return { sandbox: (await this.get(id))!, pausedIds };
    });
  }

  /** SIGSTOP for the whole group; `false` for an unknown id. Pausing a paused sandbox is fine. */
  pause(id: string): Promise<boolean> {
    return this.#serially(async () => {
      const record = await this.store.get(id);
      if (!record) return false;
      signalGroup(record.pid, record.process_start, 'SIGSTOP');
      this.#monitor.forget(id);
      return true;
    });
  }

  /** SIGCONT for the whole group, after making room; `undefined` for an unknown id. */
  resume(id: string): Promise<{ pausedIds: string[] } | undefined> {
    return this.#serially(async () => {
      const record = await this.store.get(id);
      if (!record) return undefined;
      const proc = liveProcess(record.pid, record.process_start);
      if (!proc || proc.state !== 'T') return { pausedIds: [] }; // running already, or gone: nothing to resume
      const pausedIds = await this.#makeRoom(id);
      this.#monitor.forget(id);
      await this.store.update(id, { started_at: new Date().toISOString() });
      signalGroup(record.pid, record.process_start, 'SIGCONT');
      return { pausedIds };
    });
  }

  /** Stops the processes, removes the directory and the record; `false` for an unknown id. */
  delete(id: string): Promise<boolean> {
    return this.#serially(async () => {
      const record = await this.store.get(id);
      if (!record) return false;
      await stopGroup(record.pid, record.process_start, this.limits.stopGraceMs);
      fs.rmSync(this.#directory(id), { recursive: true, force: true });
      await this.store.delete(id);
      this.#monitor.forget(id);
      return true;
    });
  }

  /** The last `tail` lines of the sandbox's stdout and stderr; `undefined` for an unknown id. */
  async logs(id: string, tail: number): Promise<string[] | undefined> {
    const record = await this.store.get(id);
    return record ? tailLines(path.join(this.#directory(id), 'sandbox.log'), tail) : undefined;
  }
}
