import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MAX_PAGE_SIZE,
  type SandboxCapacity,
  type SandboxIsolation,
  type SandboxInfo,
  type SandboxSearchQuery,
  type SandboxSpec,
} from '../../../src/contract/sandboxes';
import { OWNER_VARIABLE, SANDBOX_RESUMED_PATH } from '../../agent-server/contract';
import { type Clock, systemClock } from '../../clock';
import { memoised } from '../json-texts';
import { Conflict, Invalid, NotFound, Unavailable } from '../../domain-errors';
import type { Logger } from '../../logger';
import { HealthMonitor } from '../../sandboxes/health-monitor';
import type { ExecResult, OutsideChange, RuntimeState, SandboxRuntime } from '../../sandboxes/runtime';
import type { SpecCatalog } from '../../sandboxes/spec-catalog';
import { sandboxStatus } from '../../sandboxes/status';
import type { SecretBox } from '../../secret-box';
import { SESSION_KEY_HEADER, sessionKeyCheck } from '../../session-key';
import type { SandboxRecord } from '../../store/sandboxes-store';
import type { InstanceRegistry, Owner } from '../instances/instance-registry';
import { Locks } from './locks';
import type { OwnerClient } from '../instances/owner-client';
import { paginate } from '../paging';
import { asSystem, type Caller, isSystem, type Subject } from '../../authz/caller';
import { isAdminRole } from '../../../src/contract/roles';
import type { DataAccess } from '../../authz/data-access';
import type { SandboxRecords } from '../../authz/sandboxes';
import type { WorkerUrl } from '../../sandboxes/worker-ports';

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

const NO_USER_LIMITS: UserSandboxLimits = { maxRunning: null, maxSandboxes: null };

/** "1 sandbox", "3 sandboxes". */
const sandboxCount = (count: number) => `${count} ${count === 1 ? 'sandbox' : 'sandboxes'}`;

export interface ExecRequest {
  /** Relative to the sandbox's home; the spec's working directory when absent. */
  cwd?: string;
  /** Added to the spec's environment. */
  env?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How long a start waits to catch a command that fails at once. */
const EARLY_EXIT_MS = 300;
/** How long a start's response waits for the end of a sandbox found gone to be recorded. */
const EXIT_RECORD_MS = 5000;
/** How long a resumed agent server has to take the news. */
const RESUMED_NOTICE_MS = 3000;

const sandboxId = () => randomBytes(16).toString('hex');
const sessionKey = () => randomBytes(32).toString('base64url');

/** Starts and resumes take this too: the running cap is about all sandboxes at once. */
const CAP = '*cap*';

function refuseTooMany(ids: string[], what: string): void {
  if (ids.length > MAX_PAGE_SIZE) throw new Invalid(['id'], `Cannot request more than ${MAX_PAGE_SIZE} ${what} at once, got ${ids.length}`);
}

/** This instance among others on one database: sandboxes of another are asked of it over HTTP. */
export interface Instances {
  registry: InstanceRegistry;
  client: OwnerClient;
}

/** What the runtime sees of a sandbox: its state, and where its agent server and apps are reached. */
interface Look {
  state: RuntimeState;
  url: string | undefined;
  workerUrls: WorkerUrl[];
}

/** Its apps' entries among its exposed URLs (WORKER_1, WORKER_2), each with its port inside the sandbox. */
const exposedWorkers = (urls: WorkerUrl[]) => urls.map(({ url, port }, index) => ({ name: `WORKER_${index + 1}`, url, port }));

/** The server's own looks at its sandboxes: their health, how they ended, what changed outside it. */
const WATCH = asSystem('watch sandboxes');
/** What the caps count: every user's sandboxes. */
const COUNT = asSystem('count sandboxes against the limits');
const CONVERSATIONS_SANDBOXES = asSystem('show the sandboxes of conversations');

/** Each info's copy without its key, made once (so its JSON text is written once too, see `memoised`). */
const keylessCopies = new WeakMap<SandboxInfo, SandboxInfo>();

/** A sandbox's info for one who may see it but not use it: no key to its agent server. */
function keyless(info: SandboxInfo): SandboxInfo {
  if (info.session_api_key === null) return info;
  let copy = keylessCopies.get(info);
  if (!copy) keylessCopies.set(info, (copy = memoised({ ...info, session_api_key: null })));
  return copy;
}

/**
 * Sandboxes: the registry (in the database, so they outlive a server restart and are found
 * again), the caps, and a health check of each one's agent server that runs in the background.
 * What needs the machine (processes, containers) is the runtime's. Each read and action goes
 * through the data-access layer as whoever it is for; the key to a sandbox's agent server is in
 * its info only for those who may use it (its owner, and the server's own tasks).
 */
export class SandboxService {
  readonly #monitor: HealthMonitor;
  /** Session keys opened, by their sealed text: every search returns each running sandbox's key. */
  readonly #openedKeys = new Map<string, string>();
  readonly #locks = new Locks();
  /**
   * The last info of each record (a cached read's, the same object until the registry changes),
   * returned again while its status is the same: its text is then written once (see `memoised`).
   */
  readonly #lastInfo = new WeakMap<SandboxRecord, SandboxInfo>();
  /** The starts and resumes under way, until their sandbox first responds (see whenStarted). */
  readonly #startWatches = new Map<string, Promise<boolean>>();

  constructor(
    private readonly data: DataAccess,
    private readonly box: SecretBox,
    private readonly runtime: SandboxRuntime,
    private readonly specs: SpecCatalog,
    private readonly limits: SandboxLimits,
    private readonly log: Logger,
    /** Stamps `created_at`; the start timeout always counts in real time. */
    private readonly clock: Clock = systemClock,
    private readonly instances?: Instances,
    private readonly userLimits: (userId: string) => Promise<UserSandboxLimits> = async () => NO_USER_LIMITS,
  ) {
    this.#monitor = new HealthMonitor(async () => {
      const seen = await Promise.all((await this.#own(WATCH)).map(async (record) => ({ id: record.id, ...(await this.#look(record)) })));
      return seen.flatMap(({ id, state, url }) => (state === 'running' && url ? [{ id, url }] : []));
    }, log);
  }

  /**
   * Whether this instance's runtime runs it (with one instance: all of them). Among several, only
   * what it owns: a sandbox copied from SQLite is its data dir's instance's (copy-to-postgres).
   */
  #mine(record: SandboxRecord): boolean {
    return !this.instances || record.owner_instance === this.instances.registry.id;
  }

  /** The sandboxes this instance's runtime runs that `subject` may see: what it watches, recovers and counts against its caps. */
  async #own(subject: Subject): Promise<SandboxRecord[]> {
    return (await this.data.as(subject).sandboxes.list()).filter((record) => this.#mine(record));
  }

  /** This instance's sandboxes that a conversation's start made, with that conversation's id. */
  async madeForConversations(subject: Subject): Promise<{ id: string; conversationId: string }[]> {
    return (await this.#own(subject)).flatMap((record) =>
      record.conversation_id ? [{ id: record.id, conversationId: record.conversation_id }] : [],
    );
  }

  /** The instance that runs `record`, reachable, or the refusal that says why it is not. */
  async #reachableOwner(record: SandboxRecord): Promise<Owner & { reachable: true }> {
    const owner = await this.instances!.registry.owner(record.owner_instance);
    if (!owner.reachable) throw new Unavailable(`Sandbox ${record.id} runs on another server instance. ${owner.detail}.`);
    return owner;
  }

  /**
   * Where per-sandbox work about sandbox `id` goes when another instance runs it (`forward` it
   * there); `undefined` when this instance does, or `subject` sees no sandbox with that id.
   */
  async ownerElsewhere(subject: Subject, id: string): Promise<(Owner & { reachable: true }) | undefined> {
    if (!this.instances) return undefined;
    const record = await this.data.as(subject).sandboxes.get(id);
    return record && !this.#mine(record) ? this.#reachableOwner(record) : undefined;
  }

  /**
   * Asks `owner`'s API (another instance) to do what was asked of this one, for `subject`: a
   * caller is named (that instance acts as them); the server's own tasks go with the session key alone.
   */
  forward<T>(
    subject: Subject,
    owner: Owner & { reachable: true },
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<T> {
    return this.instances!.client.call<T>(owner, method, path, body, isSystem(subject) ? undefined : subject);
  }

  /**
   * A sandbox of another instance, as that instance responds for it to `subject` (a caller is
   * named, so its key comes only to one who may use it); MISSING, with the reason, when it cannot.
   */
  async #foreignInfo(record: SandboxRecord, subject: Subject): Promise<SandboxInfo> {
    const owner = await this.instances!.registry.owner(record.owner_instance);
    let detail = owner.reachable ? '' : owner.detail;
    if (owner.reachable) {
      try {
        const [info] = await this.forward<(SandboxInfo | null)[]>(subject, owner, 'GET', `/v1/sandboxes?id=${record.id}`);
        if (info) return info;
        detail = `Its server instance ${owner.id} does not know it`;
      } catch (error) {
        detail = (error as Error).message;
      }
    }
    return {
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_spec_id: record.spec_id,
      status: 'MISSING',
      session_api_key: null,
      exposed_urls: null,
      created_at: record.created_at,
      status_detail: detail,
    };
  }

  /**
   * What the runtime sees of a sandbox and where its agent server listens, asked together (a
   * runtime handles the questions asked at once about all sandboxes with one look at them).
   */
  async #look(record: SandboxRecord): Promise<Look> {
    const [state, url, workerUrls] = await Promise.all([
      this.runtime.state(record),
      this.runtime.agentServerUrl(record),
      this.runtime.workerUrls(record),
    ]);
    return { state, url, workerUrls };
  }

  /**
   * Finds the sandboxes of earlier runs again (also how those that ended meanwhile ended), starts
   * removing what unregistered ones left, and starts watching their health; resolves after the
   * first round of checks, so the first responses already have the right status.
   */
  async startMonitoring(): Promise<void> {
    // First the lock on this instance's id: nothing of its sandboxes is touched for a live twin.
    await this.instances?.registry.start();
    await this.runtime.watchOutside?.((id, change) => void this.#changedOutside(id, change));
    const recovery = asSystem('recover sandboxes after a restart');
    for (const record of await this.#own(recovery)) {
      if (record.pid === null && !record.exit_detail) await this.#recover(record);
    }
    // What any instance registered is not a leftover (instances may share an engine).
    await this.runtime.sweep?.(new Set((await this.data.as(recovery).sandboxes.list()).map((record) => record.id)));
    const records = await this.#own(recovery);
    // Also those with an exit detail: they may have been started again since, and end again.
    for (const record of records) {
      if (record.process_start === null) continue;
      await this.runtime
        .watchAgain?.(record, (failure) => void this.#exited(record.id, failure))
        .catch((error: unknown) => {
          this.log.warn({ sandbox: record.id, err: error }, 'could not watch a sandbox found again');
        });
    }
    await this.#monitor.start();
  }

  /** Stops watching (and says so in the instance registry); the sandboxes themselves keep running. */
  async close(): Promise<void> {
    this.#monitor.stop();
    this.runtime.close?.();
    await this.instances?.registry.stop();
  }

  /** A sandbox that was started but not recorded (the server stopped in between): adopted, or given up as failed. */
  async #recover(record: SandboxRecord): Promise<void> {
    const handle = await this.runtime.adopt(record.id);
    const sandboxes = this.data.as(asSystem('recover sandboxes after a restart')).sandboxes;
    if (handle) {
      this.log.info({ sandbox: record.id }, 'adopted a sandbox whose start was not recorded');
      await sandboxes.update(record.id, handle);
    } else {
      await sandboxes.update(record.id, { exit_detail: 'Its process was not recorded before the server stopped, and is gone' });
    }
  }

  #sessionKey(sealed: string): string {
    let key = this.#openedKeys.get(sealed);
    if (key === undefined) {
      if (this.#openedKeys.size >= 1000) this.#openedKeys.clear(); // keys of sandboxes deleted long ago
      key = this.box.open(sealed);
      this.#openedKeys.set(sealed, key);
    }
    return key;
  }

  /**
   * When this instance is starting or resuming sandbox `id`: a promise of the moment it first
   * responds or its start gives up. `undefined` when none is under way here.
   */
  whenStarted(id: string): Promise<boolean> | undefined {
    return this.#startWatches.get(id);
  }

  /** Asks a sandbox that was just started or resumed until it responds (see HealthMonitor.watchStarting); whether it did. */
  #watchStarting(id: string): Promise<boolean> {
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
      return url ? await this.#monitor.watchStarting({ id, url }, this.limits.startTimeoutMs) : false;
    } catch {
      return false; // the health rounds find out instead
    }
  }

  /** Those that run (not paused, not gone): what the running cap counts, whatever their health. */
  async #running(records: SandboxRecord[]): Promise<SandboxRecord[]> {
    const states = await Promise.all(records.map((record) => this.runtime.state(record)));
    return records.filter((_, index) => states[index] === 'running');
  }

  async #info(record: SandboxRecord, subject: Subject): Promise<SandboxInfo> {
    if (!this.#mine(record)) return this.#foreignInfo(record, subject);
    return this.#infoNow(record) ?? this.#infoOf(record, await this.#look(record));
  }

  /** Its info as whoever `sandboxes` is bound to may have it: without its key for one who may see it but not use it. */
  #infoFor(sandboxes: SandboxRecords, record: SandboxRecord, info: SandboxInfo): SandboxInfo {
    return sandboxes.may('use', record) ? info : keyless(info);
  }

  /** Its info without waiting, when this instance runs it and the runtime sees it at once (see SandboxRuntime.lookNow). */
  #infoNow(record: SandboxRecord): SandboxInfo | undefined {
    return this.runtime.lookNow && this.#mine(record) ? this.#infoOf(record, this.runtime.lookNow(record)) : undefined;
  }

  #infoOf(record: SandboxRecord, { state, url, workerUrls }: Look): SandboxInfo {
    const { status, detail } = sandboxStatus({
      state,
      healthy: this.#monitor.healthy(record.id),
      exitDetail: record.exit_detail,
      startedAt: record.started_at,
      now: Date.now(),
      startTimeoutMs: this.limits.startTimeoutMs,
      image: record.image,
    });
    const running = status === 'RUNNING' && url !== undefined;
    const last = this.#lastInfo.get(record);
    if (last?.status === status && last.status_detail === detail && last.exposed_urls?.[0]?.url === (running ? url : undefined))
      return last;
    const info: SandboxInfo = memoised({
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_spec_id: record.spec_id,
      status,
      session_api_key: running ? this.#sessionKey(record.session_key) : null,
      exposed_urls: running ? [{ name: 'AGENT_SERVER', url, port: record.port }, ...exposedWorkers(workerUrls)] : null,
      created_at: record.created_at,
      status_detail: detail,
    });
    this.#lastInfo.set(record, info);
    return info;
  }

  /** Whether `given` is sandbox `id`'s session key (what its agent server shows when it pushes to a webhook). */
  async sessionKeyMatches(id: string, given: string | string[] | undefined): Promise<boolean> {
    const sandboxes = this.data.as(asSystem('receive events from a sandbox')).sandboxes;
    const record = await sandboxes.get(id);
    return record !== undefined && sandboxes.may('use', record) && sessionKeyCheck(this.#sessionKey(record.session_key))(given);
  }

  /** The spec a new sandbox would start from; `undefined` for an unknown id. */
  async spec(specId: string | undefined): Promise<SandboxSpec | undefined> {
    const specs = await this.specs.list();
    return specId === undefined ? specs[0] : specs.find((s) => s.id === specId);
  }

  async searchSpecs(pageId: string | undefined, limit: number) {
    return paginate(await this.specs.list(), pageId, limit);
  }

  async getSpecs(ids: string[]): Promise<(SandboxSpec | null)[]> {
    refuseTooMany(ids, 'sandbox specs');
    const specs = await this.specs.list();
    return ids.map((id) => specs.find((spec) => spec.id === id) ?? null);
  }

  /** Sandboxes of every instance (another's as it responds for them) that the subject may see. */
  search(subject: Subject, query: SandboxSearchQuery) {
    return this.#search(subject, query, this.data.as(subject).sandboxes.list());
  }

  /** Only those this instance runs that the subject may see: what it does the per-sandbox work of (collecting events). */
  async searchOwn(subject: Subject, query: SandboxSearchQuery) {
    return this.#search(subject, query, this.#own(subject));
  }

  async #search(subject: Subject, query: SandboxSearchQuery, listed: Promise<readonly SandboxRecord[]>) {
    const sandboxes = this.data.as(subject).sandboxes;
    const infos = (await listed).map((record) => {
      const info = this.#infoNow(record) ?? this.#info(record, subject);
      return info instanceof Promise
        ? info.then((known) => this.#infoFor(sandboxes, record, known))
        : this.#infoFor(sandboxes, record, info);
    });
    // Only a runtime that has to be asked (or another instance) is waited for.
    const known = infos.every((info) => !(info instanceof Promise)) ? (infos as SandboxInfo[]) : await Promise.all(infos);
    const matching = known.filter(
      (info) =>
        (!query.status__eq || info.status === query.status__eq) &&
        (!query.sandbox_spec_id__eq || info.sandbox_spec_id === query.sandbox_spec_id__eq) &&
        (!query.created_by_user_id__eq || info.created_by_user_id === query.created_by_user_id__eq),
    );
    return paginate(matching, query.page_id, query.limit);
  }

  /** What keeps its sandboxes apart from the server and each other. */
  get isolation(): SandboxIsolation {
    return this.runtime.isolation;
  }

  /** How many run and exist, against the caps (the console shows it, so a pause for the cap is no surprise). */
  /**
   * How many sandboxes run and exist against the limits: the server's for its owner and admins, a
   * member's own against theirs (an admin's limit for them, or the server's when lower).
   */
  async capacity(caller: Caller): Promise<SandboxCapacity> {
    const all = await this.#own(COUNT);
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
      isolation: this.isolation,
      scope: member ? 'user' : 'server',
    };
  }

  /** In request order, `null` for an id that is unknown or not the caller's to see. */
  async getMany(subject: Subject, ids: string[]): Promise<(SandboxInfo | null)[]> {
    refuseTooMany(ids, 'sandboxes');
    // Only those asked for: a page of conversations asks for its sandboxes, most of them long gone.
    const sandboxes = this.data.as(subject).sandboxes;
    const byId = new Map((await sandboxes.getMany([...new Set(ids)])).map((record) => [record.id, record]));
    return Promise.all(
      ids.map(async (id) => {
        const record = byId.get(id);
        return record ? this.#infoFor(sandboxes, record, await this.#info(record, subject)) : null;
      }),
    );
  }

  /**
   * The sandboxes conversations the caller may see are in, by id (those that exist): each one's
   * status whoever made it (a conversation may be in a sandbox another user started), its key only
   * for one who may use it.
   */
  async ofConversations(caller: Caller, conversations: { sandbox_id: string }[]): Promise<Map<string, SandboxInfo>> {
    const own = this.data.as(caller).sandboxes;
    const records = await this.data.as(CONVERSATIONS_SANDBOXES).sandboxes.getMany([...new Set(conversations.map((c) => c.sandbox_id))]);
    const infos = await Promise.all(
      records.map(async (record) => {
        const info = await this.#info(record, own.may('use', record) ? caller : CONVERSATIONS_SANDBOXES);
        return [record.id, this.#infoFor(own, record, info)] as const;
      }),
    );
    return new Map(infos);
  }

  async get(subject: Subject, id: string): Promise<SandboxInfo> {
    const sandboxes = this.data.as(subject).sandboxes;
    const record = await sandboxes.authorize('read', id);
    return this.#infoFor(sandboxes, record, await this.#info(record, subject));
  }

  /**
   * Refuses to run one more sandbox of `userId` (besides `except`) when that would go over a limit:
   * their own (an admin's, for them), or MAX_RUNNING_SANDBOXES when other users' sandboxes alone
   * fill it (a start pauses only its own user's sandboxes to make room).
   */
  async #refuseOverLimits(userId: string, except: string | undefined, starting: boolean): Promise<void> {
    const running = await this.#running((await this.#own(COUNT)).filter((record) => record.id !== except));
    const others = running.filter((record) => record.created_by_user_id !== userId).length;
    if (others >= this.limits.maxRunning) {
      throw new Conflict(
        `All ${this.limits.maxRunning} sandboxes that may run at once (MAX_RUNNING_SANDBOXES) are other users'; ask an admin to pause one`,
      );
    }
    const limits = await this.userLimits(userId);
    const own = running.length - others;
    if (limits.maxRunning !== null && own >= limits.maxRunning) {
      throw new Conflict(`You may run ${sandboxCount(limits.maxRunning)} at once (a limit an admin set for you); pause one to run another`);
    }
    if (starting && limits.maxSandboxes !== null) {
      const existing = (await this.data.as(COUNT).sandboxes.list()).filter((record) => record.created_by_user_id === userId).length;
      if (existing >= limits.maxSandboxes) {
        throw new Conflict(`You may have ${sandboxCount(limits.maxSandboxes)} (a limit an admin set for you); delete one to start another`);
      }
    }
  }

  /**
   * Pauses the oldest running sandboxes of `userId` until fewer than MAX_RUNNING_SANDBOXES run
   * besides `except`, as OpenHands does; returns which ones it paused.
   */
  async #makeRoom(except: string, userId: string): Promise<string[]> {
    const room = asSystem('make room for a sandbox', userId);
    const others = (await this.#own(room)).filter((record) => record.id !== except);
    const running = (await this.#running(others)).sort((a, b) => a.created_at.localeCompare(b.created_at));
    const over = Math.max(0, running.length - this.limits.maxRunning + 1);
    const paused: string[] = [];
    const sandboxes = this.data.as(room).sandboxes;
    for (const record of running.filter((r) => sandboxes.may('pause', r)).slice(0, over)) {
      if (await this.runtime.pause(record)) {
        this.#monitor.forget(record.id);
        paused.push(record.id);
      }
    }
    return paused;
  }

  /**
   * Records how a sandbox's main process ended: why, when it failed; no detail when it ended
   * cleanly or was stopped (an earlier failure is history then). In turn with what else is done
   * to the sandbox, so a later change is never overwritten by an earlier end.
   */
  #exited(id: string, failure: string | null): Promise<void> {
    if (failure !== null) this.log.info({ sandbox: id }, 'sandbox process ended with an error');
    // A deleted sandbox is gone from the registry, and this changes nothing.
    return this.#locks
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
    return this.#locks
      .run(id, async () => {
        const sandboxes = this.data.as(WATCH).sandboxes;
        const record = await sandboxes.get(id);
        if (!record) return;
        this.log.info({ sandbox: id, change }, 'a sandbox was resumed outside this server');
        this.#monitor.forget(id);
        if (change === 'started') await sandboxes.update(id, { started_at: new Date().toISOString(), exit_detail: null });
        await this.#notifyResumed(record);
      })
      .catch((error: unknown) => {
        this.log.error({ sandbox: id, err: error }, 'could not take in a sandbox resumed outside this server');
      });
  }

  /** Starts a sandbox from spec `specId` (the default one when absent); `forConversation`: the conversation whose start makes it. */
  start(
    caller: Caller,
    specId: string | undefined,
    { forConversation }: { forConversation?: string } = {},
  ): Promise<{ sandbox: SandboxInfo; pausedIds: string[] }> {
    return this.#locks.run(CAP, async () => {
      const spec = await this.spec(specId);
      if (!spec) throw new NotFound(`Sandbox spec ${specId ?? '(default)'} not found`);
      if ((await this.data.as(COUNT).sandboxes.count()) >= this.limits.maxSandboxes) {
        throw new Conflict(`At most ${this.limits.maxSandboxes} sandboxes may exist at once (MAX_SANDBOXES); delete one to start another`);
      }
      await this.#refuseOverLimits(caller.userId, undefined, true);

      const id = sandboxId();
      const key = sessionKey();
      const now = new Date().toISOString();
      const { port, workerPorts } = await this.runtime.prepare(id);
      // In the registry before anything runs, so nothing is ever started unrecorded; the
      // runtime finds a start whose handle did not get recorded (`adopt`).
      const sandboxes = this.data.as(caller).sandboxes;
      await sandboxes.insert({
        id,
        spec_id: spec.id,
        port,
        session_key: this.box.seal(key),
        pid: null,
        process_start: null,
        created_at: this.clock().toISOString(),
        started_at: now,
        exit_detail: null,
        image: spec.command === null ? (spec.image ?? null) : null,
        owner_instance: this.instances?.registry.id ?? null,
        conversation_id: forConversation ?? null,
        worker_ports: JSON.stringify(workerPorts),
        created_by_user_id: caller.userId,
      });

      let exited: Promise<void> | undefined;
      let noticeExit = () => {};
      const exitNoticed = new Promise<void>((resolve) => (noticeExit = resolve));
      const started = await this.runtime.start({
        id,
        command: spec.command,
        image: spec.image ?? null,
        workingDir: spec.working_dir,
        // Whose sandbox it is, for its agent server to say (`/server_info`); no secret.
        env: { ...spec.initial_env, [OWNER_VARIABLE]: caller.userId },
        sessionKey: key,
        port,
        workerPorts,
        onExit: (failure) => {
          exited = this.#exited(id, failure);
          noticeExit();
        },
      });
      if (!started.ok) {
        await sandboxes.update(id, { exit_detail: `Could not start: ${started.error}` });
        return { sandbox: await this.get(caller, id), pausedIds: [] };
      }
      try {
        await sandboxes.update(id, started.handle);
      } catch (error) {
        await this.runtime.remove({ ...(await sandboxes.authorize('delete', id)), ...started.handle }); // never a sandbox that is not in the registry
        throw error;
      }

      // A command that fails at once should say so in this response, not in the next one; one whose
      // agent server responds is not failing, and the response says RUNNING without waiting longer.
      const responded = this.#watchStarting(id);
      await Promise.race([exitNoticed, sleep(EARLY_EXIT_MS), responded.then((ok) => (ok ? undefined : sleep(EARLY_EXIT_MS)))]);
      await exited;
      let sandbox = await this.get(caller, id);
      // Gone, its end not yet noticed (a busy machine): the response waits for why it ended.
      if (sandbox?.status === 'MISSING' && !exited) {
        await Promise.race([exitNoticed, sleep(EXIT_RECORD_MS)]);
        await exited;
        sandbox = await this.get(caller, id);
      }
      // Room is made only for a sandbox that really started.
      const pausedIds = exited ? [] : await this.#makeRoom(id, caller.userId);
      return { sandbox, pausedIds };
    });
  }

  /** Pauses every process of it. Pausing a paused sandbox is fine. */
  pause(subject: Subject, id: string): Promise<void> {
    return this.#locks.run(id, async () => {
      const record = await this.data.as(subject).sandboxes.authorize('pause', id);
      if (!this.#mine(record)) {
        await this.forward(subject, await this.#reachableOwner(record), 'POST', `/v1/sandboxes/${id}/pause`);
        return;
      }
      await this.runtime.pause(record);
      this.#monitor.forget(id);
    });
  }

  /** Resumes it, after making room; returns which sandboxes were paused for it. */
  resume(caller: Caller, id: string): Promise<{ pausedIds: string[] }> {
    return this.#locks.run(id, () =>
      this.#locks.run(CAP, async () => {
        const sandboxes = this.data.as(caller).sandboxes;
        const record = await sandboxes.authorize('resume', id);
        if (!this.#mine(record)) {
          const response = await this.forward<{ paused_sandbox_ids?: string[] }>(
            caller,
            await this.#reachableOwner(record),
            'POST',
            `/v1/sandboxes/${id}/resume`,
          );
          return { pausedIds: response.paused_sandbox_ids ?? [] };
        }
        const state = await this.runtime.state(record);
        // As OpenHands' process sandboxes: one whose processes are gone is not found to resume
        // (a bare 404 on the wire; the console says what it means).
        if (state === 'missing') throw new NotFound(`Sandbox ${id} has no processes to resume`);
        if (state !== 'paused') return { pausedIds: [] }; // running already, or starting: nothing to resume
        await this.#refuseOverLimits(record.created_by_user_id, id, false);
        const pausedIds = await this.#makeRoom(id, record.created_by_user_id);
        this.#monitor.forget(id);
        // First, so how it stopped stays known when the engine refuses to start it again.
        await this.runtime.resume(record);
        // A stopped container starts again: how it stopped is history then.
        await sandboxes.update(id, { started_at: new Date().toISOString(), exit_detail: null });
        void this.#watchStarting(id);
        await this.#notifyResumed(record);
        return { pausedIds };
      }),
    );
  }

  /**
   * Notifies a resumed sandbox's agent server that it was paused, so a run it was doing stops, paused,
   * and says why: one path for every runtime (a frozen container gets no SIGCONT to notice it by).
   * Best effort: one that does not respond (a stopped container starting over) has no run to stop.
   */
  async #notifyResumed(record: SandboxRecord): Promise<void> {
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

  /** Ends its processes, removes what it stored and its record. */
  delete(subject: Subject, id: string): Promise<void> {
    return this.#locks.run(id, async () => {
      const sandboxes = this.data.as(subject).sandboxes;
      const record = await sandboxes.authorize('delete', id);
      if (!this.#mine(record)) {
        await this.forward(subject, await this.#reachableOwner(record), 'DELETE', `/v1/sandboxes/${id}`);
        return;
      }
      await this.runtime.remove(record);
      await sandboxes.delete(id);
      this.#monitor.forget(id);
    });
  }

  /** How many sandboxes of each of `userIds` run now (this instance's and others' alike). */
  async runningByUser(userIds: string[]): Promise<Map<string, number>> {
    const wanted = new Set(userIds);
    const records = (await this.data.as(COUNT).sandboxes.list()).filter((record) => wanted.has(record.created_by_user_id));
    const infos = await Promise.all(records.map((record) => this.#info(record, COUNT)));
    const counts = new Map<string, number>();
    for (const [index, info] of infos.entries()) {
      if (info.status !== 'RUNNING' && info.status !== 'STARTING') continue;
      const user = records[index]!.created_by_user_id;
      counts.set(user, (counts.get(user) ?? 0) + 1);
    }
    return counts;
  }

  /** Pauses every sandbox of a user that runs (they were disabled or deleted); one that cannot be paused is logged. */
  async pauseAllOf(userId: string): Promise<void> {
    const subject = asSystem('end a user’s access', userId);
    for (const record of await this.data.as(subject).sandboxes.list()) {
      await this.pause(subject, record.id).catch((error: unknown) => {
        if (!(error instanceof NotFound))
          this.log.error({ sandbox: record.id, err: error }, 'could not pause a sandbox of a user who lost access');
      });
    }
  }

  /** The last `tail` lines of the sandbox's output. */
  async logs(caller: Caller, id: string, tail: number): Promise<string[]> {
    const record = await this.data.as(caller).sandboxes.authorize('read', id);
    if (!this.#mine(record)) {
      const response = await this.forward<{ lines: string[] }>(
        caller,
        await this.#reachableOwner(record),
        'GET',
        `/v1/sandboxes/${id}/logs?tail=${tail}`,
      );
      return response.lines;
    }
    return this.runtime.logs(record, tail);
  }

  /** Runs `command` inside a running sandbox of the caller's, as its own processes run (cloning a repository, a setup script). */
  async exec(caller: Caller, id: string, command: string[], { cwd, env, timeoutMs, signal }: ExecRequest): Promise<ExecResult> {
    const record = await this.data.as(caller).sandboxes.authorize('use', id);
    // A start into another instance's sandbox runs on that instance (StartTaskService): not here.
    if (!this.#mine(record)) throw new Conflict(`Sandbox ${id} runs on another server instance (${record.owner_instance})`);
    const state = await this.runtime.state(record);
    if (state === 'paused') throw new Conflict(`Sandbox ${id} is paused; resume it first`);
    if (state !== 'running') throw new Conflict(`Sandbox ${id} is not running`);
    const spec = (await this.specs.list()).find((s) => s.id === record.spec_id);
    return this.runtime.exec(record, command, {
      cwd: cwd ?? spec?.working_dir ?? '',
      env: { ...spec?.initial_env, ...env },
      timeoutMs,
      signal,
    });
  }
}
