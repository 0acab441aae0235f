import { SANDBOX_RESUMED_PATH } from '../../agent-server/contract';
import { asSystem } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import type { Logger } from '../../logger';
import { HealthMonitor } from '../../sandboxes/health-monitor';
import type { OutsideChange, SandboxRuntime } from '../../sandboxes/runtime';
import type { SecretBox } from '../../secret-box';
import { SESSION_KEY_HEADER } from '../../session-key';
import type { SandboxRecord } from '../../store/sandboxes-store';
import type { Locks } from './locks';
import { look } from './sandbox-infos';
import type { SandboxOwners } from './sandbox-owners';

/** How long a resumed agent server has to take the news. */
const RESUMED_NOTICE_MS = 3000;

/** The server's own looks at its sandboxes: their health, how they ended, what changed outside it. */
const WATCH = asSystem('watch sandboxes');
const RECOVERY = asSystem('recover sandboxes after a restart');

/**
 * What this instance learns of its sandboxes without being asked: those of earlier runs found
 * again, each one's health (a check of its agent server in the background), how its main process
 * ended, and a resume or start done outside the server.
 */
export class SandboxWatch {
  readonly #monitor: HealthMonitor;
  /** The starts and resumes under way, until their sandbox first responds (see whenStarted). */
  readonly #startWatches = new Map<string, Promise<boolean>>();

  constructor(
    private readonly data: DataAccess,
    private readonly box: SecretBox,
    private readonly runtime: SandboxRuntime,
    private readonly owners: SandboxOwners,
    /** Per sandbox, shared with the actions on it: an end or an outside change is recorded in turn with them. */
    private readonly locks: Locks,
    private readonly startTimeoutMs: number,
    private readonly log: Logger,
  ) {
    this.#monitor = new HealthMonitor(async () => {
      const seen = await Promise.all(
        (await owners.own(WATCH)).map(async (record) => ({ id: record.id, ...(await look(runtime, record)) })),
      );
      return seen.flatMap(({ id, state, url }) => (state === 'running' && url ? [{ id, url }] : []));
    }, log);
  }

  /** See SandboxService.startMonitoring. */
  async start(): Promise<void> {
    // First the lock on this instance's id: nothing of its sandboxes is touched for a live twin.
    await this.owners.join();
    await this.runtime.watchOutside?.((id, change) => void this.#changedOutside(id, change));
    for (const record of await this.owners.own(RECOVERY)) {
      if (record.pid === null && !record.exit_detail) await this.#recover(record);
    }
    // What any instance registered is not a leftover (instances may share an engine).
    await this.runtime.sweep?.(new Set((await this.data.as(RECOVERY).sandboxes.list()).map((record) => record.id)));
    const records = await this.owners.own(RECOVERY);
    // Also those with an exit detail: they may have been started again since, and end again.
    for (const record of records) {
      if (record.process_start === null) continue;
      await this.runtime
        .watchAgain?.(record, (failure) => void this.exited(record.id, failure))
        .catch((error: unknown) => {
          this.log.warn({ sandbox: record.id, err: error }, 'could not watch a sandbox found again');
        });
    }
    await this.#monitor.start();
  }

  /** See SandboxService.close. */
  async close(): Promise<void> {
    this.#monitor.stop();
    this.runtime.close?.();
    await this.owners.leave();
  }

  /** Whether its agent server responds (see HealthMonitor.healthy). */
  healthy(id: string): boolean | undefined {
    return this.#monitor.healthy(id);
  }

  /** Its health is checked afresh: it was paused, resumed or deleted. */
  forget(id: string): void {
    this.#monitor.forget(id);
  }

  /** A sandbox that was started but not recorded (the server stopped in between): adopted, or given up as failed. */
  async #recover(record: SandboxRecord): Promise<void> {
    const handle = await this.runtime.adopt(record.id);
    const sandboxes = this.data.as(RECOVERY).sandboxes;
    if (handle) {
      this.log.info({ sandbox: record.id }, 'adopted a sandbox whose start was not recorded');
      await sandboxes.update(record.id, handle);
    } else {
      await sandboxes.update(record.id, { exit_detail: 'Its process was not recorded before the server stopped, and is gone' });
    }
  }

  /** See SandboxService.whenStarted. */
  whenStarted(id: string): Promise<boolean> | undefined {
    return this.#startWatches.get(id);
  }

  /** Asks a sandbox that was just started or resumed until it responds (see HealthMonitor.watchStarting); whether it did. */
  watchStarting(id: string): Promise<boolean> {
    const watch = this.#askUntilResponds(id).finally(() => {
      if (this.#startWatches.get(id) === watch) this.#startWatches.delete(id);
    });
    this.#startWatches.set(id, watch);
    return watch;
  }

  async #askUntilResponds(id: string): Promise<boolean> {
    try {
      const record = await this.data.as(WATCH).sandboxes.get(id);
      const url = record && (await this.runtime.agentServerUrl(record));
      return url ? await this.#monitor.watchStarting({ id, url }, this.startTimeoutMs) : false;
    } catch {
      return false; // the health rounds find out instead
    }
  }

  /**
   * Records how a sandbox's main process ended: why, when it failed; no detail when it ended
   * cleanly or was stopped (an earlier failure is history then). In turn with what else is done
   * to the sandbox, so a later change is never overwritten by an earlier end.
   */
  exited(id: string, failure: string | null): Promise<void> {
    if (failure !== null) this.log.info({ sandbox: id }, 'sandbox process ended with an error');
    // A deleted sandbox is gone from the registry, and this changes nothing.
    return this.locks
      .run(id, () => this.data.as(WATCH).sandboxes.update(id, { exit_detail: failure }))
      .catch((error: unknown) => {
        this.log.error({ sandbox: id, err: error }, 'could not record how a sandbox ended');
      });
  }

  /**
   * A sandbox unpaused or started again outside this server (the docker CLI) goes on as after a
   * resume: its health is checked afresh, a start makes how it stopped history, and its agent
   * server is notified that it was paused.
   */
  #changedOutside(id: string, change: OutsideChange): Promise<void> {
    return this.locks
      .run(id, async () => {
        const sandboxes = this.data.as(WATCH).sandboxes;
        const record = await sandboxes.get(id);
        if (!record) return;
        this.log.info({ sandbox: id, change }, 'a sandbox was resumed outside this server');
        this.#monitor.forget(id);
        if (change === 'started') await sandboxes.update(id, { started_at: new Date().toISOString(), exit_detail: null });
        await this.notifyResumed(record);
      })
      .catch((error: unknown) => {
        this.log.error({ sandbox: id, err: error }, 'could not take in a sandbox resumed outside this server');
      });
  }

  /**
   * Notifies a resumed sandbox's agent server that it was paused, so a run it was doing stops, paused,
   * and says why: one path for every runtime (a frozen container gets no SIGCONT to notice it by).
   * Best effort: one that does not respond (a stopped container starting over) has no run to stop.
   */
  async notifyResumed(record: SandboxRecord): Promise<void> {
    try {
      const url = await this.runtime.agentServerUrl(record);
      if (!url) return; // it stopped again meanwhile: no run to stop
      const response = await fetch(`${url}${SANDBOX_RESUMED_PATH}`, {
        method: 'POST',
        headers: { [SESSION_KEY_HEADER]: this.box.open(record.session_key) },
        signal: AbortSignal.timeout(RESUMED_NOTICE_MS),
      });
      await response.body?.cancel();
    } catch (error) {
      this.log.debug({ sandbox: record.id, err: error }, 'a resumed sandbox did not take the news of its pause');
    }
  }
}
