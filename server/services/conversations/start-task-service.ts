import { msg } from '@lingui/core/macro';
import { randomUUID } from 'node:crypto';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf } from '../audit/audit-diff';
import {
  type StartRequest,
  type StartTask,
  startRequestSchema,
  type TaskFilter,
  type TaskSearchQuery,
} from '../../../src/contract/conversations';
import { isProvider } from '../../../src/contract/secrets';
import { type Clock, systemClock } from '../../clock';
import { Conflict, NotFound } from '../../domain-errors';
import type { Logger } from '../../logger';
import type { ConversationRecord } from '../../store/conversations-store';
import { normaliseId } from '../ids';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { SecretsService } from '../secrets/secrets-service';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { type CancelReason, type Running, type StartStepOptions, StartSteps } from './start-steps';
import { StartTasks, toTask } from './start-tasks';

export interface StartTaskOptions extends StartStepOptions {
  /** Stamps tasks and conversations; the system's clock when absent. */
  clock?: Clock;
  /** The server instance that runs the starts asked of it (see `server_instances`). */
  instanceId: string;
  /** Holds starts to the users' monthly budgets, and counts them (the usage page). */
  usage?: StartUsage;
}

/** What a start has to do with usage: refused over a user's budget, counted once begun. */
export interface StartUsage {
  refuseOverBudget(userId: string): Promise<void>;
  recordStart(userId: string, conversationId: string): Promise<void>;
}

/** What a cancelled start had got as far as. */
export interface Cancelled {
  taskId: string;
  sandboxId: string | null;
  sandboxCreated: boolean;
}

/**
 * Starts conversations: returns a task in WORKING at once, then goes on in the background,
 * saving each step (sandbox, repository, setup script, git hooks, skills, the agent server's
 * conversation; StartSteps) so clients can follow (StartTasks), until READY or ERROR with a
 * detail a person can act on. A start into a sandbox another instance runs is that instance's.
 */
export class StartTaskService {
  readonly #running = new Map<string, Running>();
  /** Conversations whose going on in a new sandbox is being asked for, until their start runs. */
  readonly #continuing = new Set<string>();
  readonly #tasks: StartTasks;
  readonly #steps: StartSteps;
  readonly #usage: StartUsage | undefined;

  constructor(
    private readonly data: DataAccess,
    private readonly sandboxes: SandboxService,
    secrets: SecretsService,
    options: StartTaskOptions,
    private readonly log: Logger,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {
    this.#usage = options.usage;
    this.#tasks = new StartTasks(data, options.instanceId, options.clock ?? systemClock, log);
    this.#steps = new StartSteps(data, sandboxes, secrets, this.#tasks, options, log);
  }

  /** Tasks this instance left mid-way when it stopped end in ERROR: nothing goes on with them (another instance's go on). */
  markInterrupted(): Promise<number> {
    return this.#tasks.markInterrupted();
  }

  /** Global work: what instances that stopped or went quiet (`quietSince`) left mid-way ends in ERROR, saying why. */
  interruptTasksOfGoneInstances(quietSince: string): Promise<void> {
    return this.#tasks.interruptOfGoneInstances(quietSince);
  }

  /**
   * Validates and saves the task, starts its work in the background, and returns it in WORKING.
   * `onUpdate` receives every later state, up to READY or ERROR.
   */
  async start(caller: Caller, input: StartRequest, onUpdate?: (task: StartTask) => void): Promise<StartTask> {
    const request = await this.#withParent(caller, input);
    // Before any work, wherever it would run: a spent budget starts nothing.
    await this.#usage?.refuseOverBudget(caller.userId);
    // Never into a sandbox another user owns (it holds their secrets): refused before any work. One
    // the caller cannot see fails in its task, as one that does not exist does.
    const sandboxes = this.data.as(caller).sandboxes;
    const sandbox = request.sandbox_id ? await sandboxes.get(request.sandbox_id) : undefined;
    if (sandbox) await sandboxes.authorize('use', sandbox.id);
    // Into a sandbox another instance runs: that one runs the start (it can reach the sandbox).
    const owner = request.sandbox_id ? await this.sandboxes.ownerElsewhere(caller, request.sandbox_id) : undefined;
    if (owner) {
      const task = await this.sandboxes.forward<StartTask>(caller, owner, 'POST', '/v1/app-conversations', input);
      if (onUpdate) void this.#tasks.followElsewhere(caller, task, onUpdate);
      return task;
    }
    const conversationId = request.conversation_id ?? randomUUID().replaceAll('-', '');
    // Anyone's: ids are one table's keys.
    const taken = this.data.as(asSystem('check a new conversation id is free')).conversations;
    if (this.#running.has(conversationId) || (await taken.get(conversationId))) {
      throw new Conflict(msg`Conversation ${conversationId} already exists`);
    }
    const task = await this.#begin(caller, request, conversationId, undefined, onUpdate);
    await this.audit.record(caller, {
      action: 'create',
      resourceType: 'conversation',
      resourceId: conversationId,
      resourceTarget: request.title ?? null,
      diff: changesOf(
        {},
        {
          selected_repository: request.selected_repository ?? null,
          selected_branch: request.selected_branch ?? null,
          llm_model: request.llm_model ?? null,
          sandbox_id: request.sandbox_id ?? null,
        },
      ),
    });
    return task;
  }

  /**
   * Goes on with conversation `id`, whose sandbox is gone or failed, in a new sandbox: its
   * workspace made again as at its start (the repository cloned at its branch), its agent given
   * its stored history. Returns the task that does it, in WORKING; `onUpdate` gets each later
   * state as it is saved, up to READY or ERROR.
   */
  async continueInNewSandbox(caller: Caller, id: string, onUpdate?: (task: StartTask) => void): Promise<StartTask> {
    const hex = normaliseId(id);
    if (!hex) throw new NotFound(msg`Conversation ${id} not found`);
    // Held from the first look on: a second request meanwhile (a double click) starts no second sandbox.
    if (this.#running.has(hex) || this.#continuing.has(hex)) throw new Conflict(msg`Conversation ${hex} is starting already`);
    this.#continuing.add(hex);
    try {
      const record = await this.data.as(caller).conversations.authorize('continue', hex);
      await this.#usage?.refuseOverBudget(caller.userId);
      const sandbox = (await this.sandboxes.ofConversations(caller, [record])).get(record.sandbox_id);
      if (sandbox && sandbox.status !== 'ERROR' && sandbox.status !== 'MISSING') {
        const [conversationId, sandboxId] = [record.id, sandbox.id];
        throw new Conflict(
          sandbox.status === 'PAUSED'
            ? msg`Conversation ${conversationId}'s sandbox ${sandboxId} is paused: it goes on there once resumed`
            : sandbox.status === 'STARTING'
              ? msg`Conversation ${conversationId}'s sandbox ${sandboxId} is starting: it goes on there`
              : msg`Conversation ${conversationId}'s sandbox ${sandboxId} is running: it goes on there`,
        );
      }
      const request = startRequestSchema.parse({
        conversation_id: record.id,
        // From the spec of the sandbox it was in, while that is known (a failed one is).
        sandbox_spec_id: sandbox?.sandbox_spec_id ?? null,
        selected_repository: record.selected_repository,
        selected_branch: record.selected_branch,
        git_provider: record.git_provider && isProvider(record.git_provider) ? record.git_provider : null,
        llm_model: record.llm_model,
        title: record.title,
      });
      const task = await this.#begin(caller, request, record.id, record, onUpdate);
      await this.audit.record(caller, {
        action: 'resume',
        resourceType: 'conversation',
        resourceId: record.id,
        resourceTarget: record.title,
        reason: `In a new sandbox: its own (${record.sandbox_id}) was gone or failed`,
      });
      return task;
    } finally {
      this.#continuing.delete(hex);
    }
  }

  /** Saves the task of `request` and starts its work in the background (going on with `continuation`'s history when given). */
  async #begin(
    caller: Caller,
    request: StartRequest,
    conversationId: string,
    continuation: ConversationRecord | undefined,
    onUpdate?: (task: StartTask) => void,
  ): Promise<StartTask> {
    const record = await this.#tasks.create(caller, request);
    if (!continuation)
      await this.#usage?.recordStart(caller.userId, conversationId).catch((error: unknown) => {
        this.log.warn({ conversation: conversationId, err: error }, 'could not count a conversation start');
      });
    const running: Running = {
      taskId: record.id,
      controller: new AbortController(),
      done: Promise.resolve(),
      sandboxId: null,
      sandboxCreated: false,
    };
    this.#running.set(conversationId, running);
    if (onUpdate) {
      const stop = this.subscribe(record.id, (task) => {
        if (task.status === 'READY' || task.status === 'ERROR') stop();
        onUpdate(task);
      });
    }
    running.done = this.#steps
      .run(caller, record.id, request, conversationId, running, continuation)
      .finally(() => this.#running.delete(conversationId));
    return toTask(record);
  }

  /** A sub-conversation takes what its request leaves unset from its parent, which must exist. */
  async #withParent(caller: Caller, request: StartRequest): Promise<StartRequest> {
    if (!request.parent_conversation_id) return request;
    // Only its owner goes on from a conversation (a sub-conversation takes its repository and sandbox).
    const parent = await this.data
      .as(caller)
      .conversations.authorize('continue', request.parent_conversation_id)
      .catch((error: unknown) => {
        const parentId = String(request.parent_conversation_id);
        throw error instanceof NotFound ? new NotFound(msg`Parent conversation ${parentId} not found`) : error;
      });
    return {
      ...request,
      sandbox_id: request.sandbox_id ?? parent.sandbox_id,
      selected_repository: request.selected_repository ?? parent.selected_repository,
      selected_branch: request.selected_branch ?? parent.selected_branch,
      git_provider: request.git_provider ?? (parent.git_provider && isProvider(parent.git_provider) ? parent.git_provider : null),
      llm_model: request.llm_model ?? parent.llm_model,
    };
  }

  /** Calls `listener` with each saved state of every task this instance runs; returns how to stop listening. */
  onUpdate(listener: (task: StartTask) => void): () => void {
    return this.#tasks.onUpdate(listener);
  }

  /** Calls `listener` with each saved state of task `taskId`; returns how to stop listening. */
  subscribe(taskId: string, listener: (task: StartTask) => void): () => void {
    return this.#tasks.subscribe(taskId, listener);
  }

  /**
   * Cancels the start under way for conversation `conversationId`, if there is one, and waits
   * until it has stopped; returns how far it got.
   */
  async cancelFor(caller: Caller, conversationId: string): Promise<Cancelled | undefined> {
    const running = this.#running.get(conversationId);
    // Only the caller's own start (or any, for an admin): another's is not there for them.
    if (!running || !(await this.data.as(caller).startTasks.get(running.taskId))) return undefined;
    running.controller.abort('deleted' satisfies CancelReason);
    await running.done;
    return { taskId: running.taskId, sandboxId: running.sandboxId, sandboxCreated: running.sandboxCreated };
  }

  /** Stops every start under way (the server is stopping); they end in ERROR, and a restart says so. */
  async close(): Promise<void> {
    for (const running of this.#running.values()) running.controller.abort('shutdown' satisfies CancelReason);
    await Promise.allSettled([...this.#running.values()].map((running) => running.done));
  }

  getMany(caller: Caller, ids: string[]): Promise<(StartTask | null)[]> {
    return this.#tasks.getMany(caller, ids);
  }

  search(caller: Caller, query: TaskSearchQuery) {
    return this.#tasks.search(caller, query);
  }

  count(caller: Caller, filter: TaskFilter): Promise<number> {
    return this.#tasks.count(caller, filter);
  }
}
