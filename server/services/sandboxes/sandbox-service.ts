import { msg } from '@lingui/core/macro';
import { randomBytes } from 'node:crypto';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  SandboxCapacity,
  SandboxIsolation,
  SandboxInfo,
  SandboxSearchQuery,
  SandboxSpec,
  SandboxStatus,
} from '../../../src/contract/sandboxes';
import { OWNER_VARIABLE } from '../../agent-server/contract';
import { type Clock, systemClock } from '../../clock';
import { Conflict, NotFound } from '../../domain-errors';
import type { Logger } from '../../logger';
import type { ExecResult, RuntimeState, SandboxRuntime } from '../../sandboxes/runtime';
import type { SandboxRecord } from '../../store/sandboxes-store';
import type { SpecCatalog } from '../../sandboxes/spec-catalog';
import type { BaseImageBuild } from '../../sandboxes/docker/image-on-base';
import { changesOf } from '../audit/audit-diff';
import type { SecretBox } from '../../secret-box';
import { Locks } from './locks';
import { asSystem, type Caller, type Subject } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { SandboxInfos } from './sandbox-infos';
import { NO_USER_LIMITS, SandboxCaps, type SandboxLimits, type UserSandboxLimits } from './sandbox-limits';
import { type Instances, type ReachableOwner, SandboxOwners } from './sandbox-owners';
import { SandboxReads } from './sandbox-reads';
import { SandboxWatch } from './sandbox-watch';

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

const sandboxId = () => randomBytes(16).toString('hex');
const sessionKey = () => randomBytes(32).toString('base64url');

/** Starts and resumes take this too: the running cap is about all sandboxes at once. */
const CAP = '*cap*';

/** Told when a sandbox of this instance starts or stops running (the sandbox meter). */
export interface SandboxStatusHooks {
  /** Starts looking at `own`'s sandboxes on its own too (once they are found again after a restart). */
  start(own: { ownStates: SandboxService['ownStates'] }): Promise<void>;
  stop(): void;
  running(sandbox: Pick<SandboxRecord, 'id' | 'created_by_user_id'>): Promise<void>;
  stopped(id: string): Promise<void>;
}
const IGNORED_STATUS: SandboxStatusHooks = { start: async () => {}, stop: () => {}, running: async () => {}, stopped: async () => {} };

/**
 * Sandboxes: the registry (in the database, so they outlive a server restart and are found
 * again), the caps (SandboxCaps), the instance that runs each one (SandboxOwners), a health check
 * of each one's agent server that runs in the background (SandboxWatch), and their infos and
 * reads (SandboxInfos, SandboxReads); the actions on a sandbox are here. What needs the machine
 * (processes, containers) is the runtime's. Each read and action goes through the data-access
 * layer as whoever it is for; the key to a sandbox's agent server is in its info only for those
 * who may use it (its owner, and the server's own tasks).
 */
export class SandboxService {
  readonly #locks = new Locks();
  readonly #owners: SandboxOwners;
  readonly #watch: SandboxWatch;
  readonly #infos: SandboxInfos;
  readonly #reads: SandboxReads;
  readonly #caps: SandboxCaps;
  #status: SandboxStatusHooks = IGNORED_STATUS;

  constructor(
    private readonly data: DataAccess,
    private readonly box: SecretBox,
    private readonly runtime: SandboxRuntime,
    private readonly specs: SpecCatalog,
    limits: SandboxLimits,
    private readonly log: Logger,
    /** Stamps `created_at`; the start timeout always counts in real time. */
    private readonly clock: Clock = systemClock,
    instances?: Instances,
    userLimits: (userId: string) => Promise<UserSandboxLimits> = async () => NO_USER_LIMITS,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {
    this.#owners = new SandboxOwners(data, instances);
    this.#watch = new SandboxWatch(data, box, runtime, this.#owners, this.#locks, limits.startTimeoutMs, log);
    this.#infos = new SandboxInfos(box, runtime, this.#owners, this.#watch, limits.startTimeoutMs);
    this.#reads = new SandboxReads(data, specs, this.#owners, this.#infos);
    this.#caps = new SandboxCaps(data, runtime, this.#owners, this.#infos, this.#watch, limits, userLimits);
  }

  /** This instance's sandboxes that a conversation's start made, with that conversation's id. */
  madeForConversations(subject: Subject): Promise<{ id: string; conversationId: string }[]> {
    return this.#reads.madeForConversations(subject);
  }

  /**
   * Where per-sandbox work about sandbox `id` goes when another instance runs it (`forward` it
   * there); `undefined` when this instance does, or `subject` sees no sandbox with that id.
   */
  ownerElsewhere(subject: Subject, id: string): Promise<ReachableOwner | undefined> {
    return this.#owners.elsewhere(subject, id);
  }

  /**
   * Asks `owner`'s API (another instance) to do what was asked of this one, for `subject`: a
   * caller is named (that instance acts as them); the server's own tasks go with the session key alone.
   */
  forward<T>(subject: Subject, owner: ReachableOwner, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.#owners.forward<T>(subject, owner, method, path, body);
  }

  /**
   * Finds the sandboxes of earlier runs again (also how those that ended meanwhile ended), starts
   * removing what unregistered ones left, and starts watching their health; resolves after the
   * first round of checks, so the first responses already have the right status.
   */
  async startMonitoring(): Promise<void> {
    await this.#watch.start();
    await this.#status.start(this);
  }

  /** Tells `hooks` when one of this instance's sandboxes starts or stops running (the sandbox meter). */
  reportStatusTo(hooks: SandboxStatusHooks): void {
    this.#status = hooks;
  }

  /** This instance's sandboxes, each with what the runtime sees of it now (for the sandbox meter). */
  async ownStates(): Promise<{ record: SandboxRecord; state: RuntimeState }[]> {
    const records = await this.#owners.own(asSystem('meter sandbox running time'));
    return Promise.all(records.map(async (record) => ({ record, state: await this.runtime.state(record) })));
  }

  /** Stops watching (and says so in the instance registry); the sandboxes themselves keep running. */
  close(): Promise<void> {
    this.#status.stop();
    return this.#watch.close();
  }

  /**
   * When this instance is starting or resuming sandbox `id`: a promise of the moment it first
   * responds or its start gives up. `undefined` when none is under way here.
   */
  whenStarted(id: string): Promise<boolean> | undefined {
    return this.#watch.whenStarted(id);
  }

  get(subject: Subject, id: string): Promise<SandboxInfo> {
    return this.#reads.get(subject, id);
  }

  /** Whether `given` is sandbox `id`'s session key (what its agent server shows when it pushes to a webhook). */
  sessionKeyMatches(id: string, given: string | string[] | undefined): Promise<boolean> {
    return this.#reads.sessionKeyMatches(id, given);
  }

  /** The spec a new sandbox would start from; `undefined` for an unknown id. */
  spec(specId: string | undefined): Promise<SandboxSpec | undefined> {
    return this.#reads.spec(specId);
  }

  searchSpecs(pageId: string | undefined, limit: number) {
    return this.#reads.searchSpecs(pageId, limit);
  }

  getSpecs(ids: string[]): Promise<(SandboxSpec | null)[]> {
    return this.#reads.getSpecs(ids);
  }

  /** Sandboxes of every instance (another's as it responds for them) that the subject may see. */
  search(subject: Subject, query: SandboxSearchQuery) {
    return this.#reads.search(subject, query);
  }

  /** Only those this instance runs that the subject may see: what it does the per-sandbox work of (collecting events). */
  searchOwn(subject: Subject, query: SandboxSearchQuery) {
    return this.#reads.searchOwn(subject, query);
  }

  /** How many of the sandboxes this instance runs are in each status; summed over instances, each sandbox counts once. */
  ownByStatus(subject: Subject): Promise<Map<SandboxStatus, number>> {
    return this.#reads.ownByStatus(subject);
  }

  /** What keeps its sandboxes apart from the server and each other. */
  get isolation(): SandboxIsolation {
    return this.runtime.isolation;
  }

  /**
   * How many sandboxes run and exist against the limits: the server's for its owner and admins, a
   * member's own against theirs (an admin's limit for them, or the server's when lower).
   */
  capacity(caller: Caller): Promise<SandboxCapacity> {
    return this.#caps.capacity(caller);
  }

  /** In request order, `null` for an id that is unknown or not the caller's to see. */
  getMany(subject: Subject, ids: string[]): Promise<(SandboxInfo | null)[]> {
    return this.#reads.getMany(subject, ids);
  }

  /**
   * The sandboxes conversations the caller may see are in, by id (those that exist): each one's
   * status whoever made it (a conversation may be in a sandbox another user started), its key only
   * for one who may use it.
   */
  ofConversations(caller: Caller, conversations: { sandbox_id: string }[]): Promise<Map<string, SandboxInfo>> {
    return this.#reads.ofConversations(caller, conversations);
  }

  /** Starts a sandbox from spec `specId` (the default one when absent); `forConversation`: the conversation whose start makes it. */
  async start(
    caller: Caller,
    specId: string | undefined,
    { forConversation }: { forConversation?: string } = {},
  ): Promise<{ sandbox: SandboxInfo; pausedIds: string[] }> {
    const listed = await this.spec(specId);
    if (!listed) throw new NotFound(msg`Sandbox spec ${specId ?? '(default)'} not found`);
    // Before the cap's lock: making a spec ready may build an image, which other starts need not wait for.
    const { spec, problem } = (await this.specs.ready?.(listed, (build) => this.#recordBuild(caller, listed.id, build))) ?? {
      spec: listed,
    };
    return this.#locks.run(CAP, async () => {
      await this.#caps.refuseToStart(caller.userId);

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
        owner_instance: this.#owners.id,
        conversation_id: forConversation ?? null,
        worker_ports: JSON.stringify(workerPorts),
        created_by_user_id: caller.userId,
      });

      // Recorded as a start that failed, as a missing image is: the sandbox says why.
      if (problem !== undefined) {
        await sandboxes.update(id, { exit_detail: `Could not start: ${problem}` });
        return { sandbox: await this.get(caller, id), pausedIds: [] };
      }

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
          void this.#status.stopped(id);
          exited = this.#watch.exited(id, failure);
          noticeExit();
        },
      });
      if (!started.ok) {
        await sandboxes.update(id, { exit_detail: `Could not start: ${started.error}` });
        return { sandbox: await this.get(caller, id), pausedIds: [] };
      }
      try {
        await sandboxes.update(id, started.handle);
        await this.#status.running({ id, created_by_user_id: caller.userId });
      } catch (error) {
        await this.runtime.remove({ ...(await sandboxes.authorize('delete', id)), ...started.handle }); // never a sandbox that is not in the registry
        throw error;
      }

      // A command that fails at once should say so in this response, not in the next one; one whose
      // agent server responds is not failing, and the response says RUNNING without waiting longer.
      const responded = this.#watch.watchStarting(id);
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
      const pausedIds = exited ? [] : await this.#caps.makeRoom(id, caller.userId);
      await this.audit.record(caller, {
        action: 'start',
        resourceType: 'sandbox',
        resourceId: id,
        resourceTarget: spec.id,
        result: exited ? 'failed' : 'done',
        reason: exited ? (sandbox?.status ?? null) : null,
      });
      await this.#recordMadeRoom(caller.userId, pausedIds, id);
      return { sandbox, pausedIds };
    });
  }

  /** Pauses every process of it. Pausing a paused sandbox is fine. */
  pause(subject: Subject, id: string): Promise<void> {
    return this.#locks.run(id, async () => {
      const record = await this.data.as(subject).sandboxes.authorize('pause', id);
      if (!this.#owners.mine(record)) {
        await this.#owners.forwardTo(subject, record, 'POST', `/v1/sandboxes/${id}/pause`);
        return;
      }
      await this.runtime.pause(record);
      await this.#status.stopped(id);
      this.#watch.forget(id);
      await this.audit.record(subject, { action: 'pause', resourceType: 'sandbox', resourceId: id });
    });
  }

  /** Records the image a start of spec `specId` built on Settings' base image, or why that failed. */
  async #recordBuild(caller: Caller, specId: string, build: BaseImageBuild): Promise<void> {
    await this.audit.record(caller, {
      action: 'create',
      resourceType: 'sandbox_spec',
      resourceId: specId,
      resourceTarget: build.base,
      result: build.failure === undefined ? 'done' : 'failed',
      reason: build.failure ?? null,
      diff: changesOf({}, { base_image: build.base, image: build.image }),
    });
  }

  /** Records the sandboxes the server paused for sandbox `forId`, whose user `userId` is. */
  async #recordMadeRoom(userId: string, pausedIds: string[], forId: string): Promise<void> {
    for (const paused of pausedIds)
      await this.audit.record(asSystem('make room for a sandbox', userId), {
        action: 'pause',
        resourceType: 'sandbox',
        resourceId: paused,
        reason: `Paused to make room for sandbox ${forId} (MAX_RUNNING_SANDBOXES or the user's limit)`,
      });
  }

  /** Resumes it, after making room; returns which sandboxes were paused for it. */
  resume(caller: Caller, id: string): Promise<{ pausedIds: string[] }> {
    return this.#locks.run(id, () =>
      this.#locks.run(CAP, async () => {
        const sandboxes = this.data.as(caller).sandboxes;
        const record = await sandboxes.authorize('resume', id);
        if (!this.#owners.mine(record)) {
          const response = await this.#owners.forwardTo<{ paused_sandbox_ids?: string[] }>(
            caller,
            record,
            'POST',
            `/v1/sandboxes/${id}/resume`,
          );
          return { pausedIds: response.paused_sandbox_ids ?? [] };
        }
        const state = await this.runtime.state(record);
        // As OpenHands' process sandboxes: one whose processes are gone is not found to resume
        // (a bare 404 on the wire; the console says what it means).
        if (state === 'missing') throw new NotFound(msg`Sandbox ${id} has no processes to resume`);
        if (state !== 'paused') return { pausedIds: [] }; // running already, or starting: nothing to resume
        await this.#caps.refuseToResume(record.created_by_user_id, id);
        const pausedIds = await this.#caps.makeRoom(id, record.created_by_user_id);
        this.#watch.forget(id);
        // First, so how it stopped stays known when the engine refuses to start it again.
        await this.runtime.resume(record);
        // A stopped container starts again: how it stopped is history then.
        await sandboxes.update(id, { started_at: new Date().toISOString(), exit_detail: null });
        await this.#status.running(record);
        void this.#watch.watchStarting(id);
        await this.#watch.notifyResumed(record);
        await this.audit.record(caller, { action: 'resume', resourceType: 'sandbox', resourceId: id });
        await this.#recordMadeRoom(record.created_by_user_id, pausedIds, id);
        return { pausedIds };
      }),
    );
  }

  /** Ends its processes, removes what it stored and its record. */
  delete(subject: Subject, id: string): Promise<void> {
    return this.#locks.run(id, async () => {
      const sandboxes = this.data.as(subject).sandboxes;
      const record = await sandboxes.authorize('delete', id);
      if (!this.#owners.mine(record)) {
        await this.#owners.forwardTo(subject, record, 'DELETE', `/v1/sandboxes/${id}`);
        return;
      }
      await this.runtime.remove(record);
      await this.#status.stopped(id);
      await sandboxes.delete(id);
      this.#watch.forget(id);
      await this.audit.record(subject, { action: 'delete', resourceType: 'sandbox', resourceId: id });
    });
  }

  /** How many sandboxes of each of `userIds` run now (this instance's and others' alike). */
  runningByUser(userIds: string[]): Promise<Map<string, number>> {
    return this.#caps.runningByUser(userIds);
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
    if (!this.#owners.mine(record)) {
      const response = await this.#owners.forwardTo<{ lines: string[] }>(caller, record, 'GET', `/v1/sandboxes/${id}/logs?tail=${tail}`);
      return response.lines;
    }
    return this.runtime.logs(record, tail);
  }

  /** Runs `command` inside a running sandbox of the caller's, as its own processes run (cloning a repository, a setup script). */
  async exec(caller: Caller, id: string, command: string[], { cwd, env, timeoutMs, signal }: ExecRequest): Promise<ExecResult> {
    const record = await this.data.as(caller).sandboxes.authorize('use', id);
    // A start into another instance's sandbox runs on that instance (StartTaskService): not here.
    const instance = String(record.owner_instance);
    if (!this.#owners.mine(record)) throw new Conflict(msg`Sandbox ${id} runs on another server instance (${instance})`);
    const state = await this.runtime.state(record);
    if (state === 'paused') throw new Conflict(msg`Sandbox ${id} is paused; resume it first`);
    if (state !== 'running') throw new Conflict(msg`Sandbox ${id} is not running`);
    const spec = (await this.specs.list()).find((s) => s.id === record.spec_id);
    return this.runtime.exec(record, command, {
      cwd: cwd ?? spec?.working_dir ?? '',
      env: { ...spec?.initial_env, ...env },
      timeoutMs,
      signal,
    });
  }
}
