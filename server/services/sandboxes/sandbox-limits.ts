import { msg, plural } from '@lingui/core/macro';
import type { SandboxCapacity } from '../../../src/contract/sandboxes';
import { isAdminRole } from '../../../src/contract/roles';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { Conflict } from '../../domain-errors';
import type { SandboxRuntime } from '../../sandboxes/runtime';
import type { SandboxRecord } from '../../store/sandboxes-store';
import type { SandboxInfos } from './sandbox-infos';
import type { SandboxOwners } from './sandbox-owners';
import type { SandboxWatch } from './sandbox-watch';

export interface SandboxLimits {
  /** How many may exist at once (MAX_SANDBOXES). */
  maxSandboxes: number;
  /** How many may run at once (MAX_RUNNING_SANDBOXES); starting one more pauses the oldest. */
  maxRunning: number;
  /** How long a started sandbox may take to respond before it is in ERROR. */
  startTimeoutMs: number;
  /** How long a deleted sandbox has to exit after SIGTERM before SIGKILL. */
  stopGraceMs: number;
}

/** One user's limits, set by an admin (null: only the server's own). */
export interface UserSandboxLimits {
  maxRunning: number | null;
  maxSandboxes: number | null;
}

export const NO_USER_LIMITS: UserSandboxLimits = { maxRunning: null, maxSandboxes: null };

/** "1 sandbox", "3 sandboxes". */

/** What the caps count: every user's sandboxes. */
const COUNT = asSystem('count sandboxes against the limits');

/**
 * The caps on sandboxes: the server's (MAX_SANDBOXES, MAX_RUNNING_SANDBOXES) and each user's own,
 * set by an admin. A start or resume that would go over one is refused; one within them makes room
 * by pausing its user's oldest running sandboxes. The caller holds the caps' lock around both.
 */
export class SandboxCaps {
  constructor(
    private readonly data: DataAccess,
    private readonly runtime: SandboxRuntime,
    private readonly owners: SandboxOwners,
    private readonly infos: SandboxInfos,
    private readonly watch: SandboxWatch,
    private readonly limits: SandboxLimits,
    private readonly userLimits: (userId: string) => Promise<UserSandboxLimits>,
  ) {}

  /** Refuses a new sandbox of `userId` when one more would exist than MAX_SANDBOXES, or run or exist than their limits. */
  async refuseToStart(userId: string): Promise<void> {
    if ((await this.data.as(COUNT).sandboxes.count()) >= this.limits.maxSandboxes) {
      throw new Conflict(msg`At most ${this.limits.maxSandboxes} sandboxes may exist at once (MAX_SANDBOXES); delete one to start another`);
    }
    await this.#refuseOverLimits(userId, undefined, true);
  }

  /** Refuses to resume sandbox `id` of `userId` when one more would run than the limits allow. */
  refuseToResume(userId: string, id: string): Promise<void> {
    return this.#refuseOverLimits(userId, id, false);
  }

  /**
   * Refuses to run one more sandbox of `userId` (besides `except`) when that would go over a limit:
   * their own (an admin's, for them), or MAX_RUNNING_SANDBOXES when other users' sandboxes alone
   * fill it (a start pauses only its own user's sandboxes to make room).
   */
  async #refuseOverLimits(userId: string, except: string | undefined, starting: boolean): Promise<void> {
    const running = await this.#running((await this.owners.own(COUNT)).filter((record) => record.id !== except));
    const others = running.filter((record) => record.created_by_user_id !== userId).length;
    if (others >= this.limits.maxRunning) {
      const { maxRunning } = this.limits;
      throw new Conflict(
        msg`All ${maxRunning} sandboxes that may run at once (MAX_RUNNING_SANDBOXES) are other users'; ask an admin to pause one`,
      );
    }
    const limits = await this.userLimits(userId);
    const own = running.length - others;
    if (limits.maxRunning !== null && own >= limits.maxRunning) {
      throw new Conflict(
        msg`You may run ${plural(limits.maxRunning, { one: '# sandbox', other: '# sandboxes' })} at once (a limit an admin set for you); pause one to run another`,
      );
    }
    if (starting && limits.maxSandboxes !== null) {
      const existing = (await this.data.as(COUNT).sandboxes.list()).filter((record) => record.created_by_user_id === userId).length;
      if (existing >= limits.maxSandboxes) {
        throw new Conflict(
          msg`You may have ${plural(limits.maxSandboxes, { one: '# sandbox', other: '# sandboxes' })} (a limit an admin set for you); delete one to start another`,
        );
      }
    }
  }

  /**
   * Pauses the oldest running sandboxes of `userId` until fewer than MAX_RUNNING_SANDBOXES run
   * besides `except`, as OpenHands does; returns which ones it paused.
   */
  async makeRoom(except: string, userId: string): Promise<string[]> {
    const room = asSystem('make room for a sandbox', userId);
    const others = (await this.owners.own(room)).filter((record) => record.id !== except);
    const running = (await this.#running(others)).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const over = Math.max(0, running.length - this.limits.maxRunning + 1);
    const paused: string[] = [];
    const sandboxes = this.data.as(room).sandboxes;
    for (const record of running.filter((r) => sandboxes.may('pause', r)).slice(0, over)) {
      if (await this.runtime.pause(record)) {
        this.watch.forget(record.id);
        paused.push(record.id);
      }
    }
    return paused;
  }

  /** Those that run (not paused, not gone): what the running cap counts, whatever their health. */
  async #running(records: SandboxRecord[]): Promise<SandboxRecord[]> {
    const states = await Promise.all(records.map((record) => this.runtime.state(record)));
    return records.filter((_, index) => states[index] === 'running');
  }

  /** See SandboxService.capacity. */
  async capacity(caller: Caller): Promise<SandboxCapacity> {
    const all = await this.owners.own(COUNT);
    const member = !isAdminRole(caller.role);
    const records = member ? all.filter((record) => record.created_by_user_id === caller.userId) : all;
    const limits = member ? await this.userLimits(caller.userId) : NO_USER_LIMITS;
    const lower = (own: number | null, server: number) => (own === null ? server : Math.min(own, server));
    return {
      running: (await this.#running(records)).length,
      max_running: lower(limits.maxRunning, this.limits.maxRunning),
      sandboxes: records.length,
      max_sandboxes: lower(limits.maxSandboxes, this.limits.maxSandboxes),
      runtime: this.runtime.name,
      isolation: this.runtime.isolation,
      scope: member ? 'user' : 'server',
    };
  }

  /** See SandboxService.runningByUser. */
  async runningByUser(userIds: string[]): Promise<Map<string, number>> {
    const wanted = new Set(userIds);
    const records = (await this.data.as(COUNT).sandboxes.list()).filter((record) => wanted.has(record.created_by_user_id));
    const infos = await Promise.all(records.map((record) => this.infos.of(record, COUNT)));
    const counts = new Map<string, number>();
    for (const [index, info] of infos.entries()) {
      if (info.status !== 'RUNNING' && info.status !== 'STARTING') continue;
      const user = records[index]!.created_by_user_id;
      counts.set(user, (counts.get(user) ?? 0) + 1);
    }
    return counts;
  }
}
