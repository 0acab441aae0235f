import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type StartRequest,
  type StartTask,
  startRequestSchema,
  type TaskFilter,
  type TaskSearchQuery,
  type TaskStatus,
} from '../../../src/contract/conversations';
import { isProvider, type Provider, PROVIDER_NAMES } from '../../../src/contract/secrets';
import { type Clock, systemClock } from '../../clock';
import { Conflict, DomainError, NotFound } from '../../domain-errors';
import { cloneSource, repositoryDirName } from '../../git-providers/clone';
import type { Logger } from '../../logger';
import { SESSION_KEY_HEADER } from '../../session-key';
import type { ConversationRecord } from '../../store/conversations-store';
import type { AgentStartConversation } from '../../agent-server/contract';
import type { StartTaskRecord } from '../../store/start-tasks-store';
import { type AgentStartRequests, CONVERSATION_CREATE_TIMEOUT_MS } from './agent-start-request';
import { continuedHistory } from './continued-history';
import { normaliseId, refuseTooMany } from '../ids';
import { paginateOffset } from '../paging';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { SecretsService } from '../secrets/secrets-service';
import type { SettingsService } from '../settings/settings-service';
import { asSystem, type Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { StepFailed, WorkspaceSetup } from './workspace-setup';

export interface StartTaskOptions {
  /** How long `.openhands/setup.sh` may run (SETUP_SCRIPT_TIMEOUT). */
  setupScriptTimeoutMs: number;
  /** A URL as the sandbox reaches it (a container, a namespaced process: the host's loopback by its name); as is when absent. */
  urlFromSandbox?: (url: string) => string;
  /** The agent server's create-conversation body (the user's LLM, limits, secrets). */
  startRequests: AgentStartRequests;
  /** Stamps tasks and conversations; the system's clock when absent. */
  clock?: Clock;
  /** The server instance that runs the starts asked of it (see `server_instances`). */
  instanceId: string;
}

/** What a cancelled start had got as far as. */
export interface Cancelled {
  taskId: string;
  sandboxId: string | null;
  sandboxCreated: boolean;
}

interface Running {
  taskId: string;
  controller: AbortController;
  done: Promise<void>;
  sandboxId: string | null;
  sandboxCreated: boolean;
}

class TaskCancelled extends Error {}

/** Why a start was cancelled: its conversation was deleted, or the server is stopping. */
type CancelReason = 'deleted' | 'shutdown';

const CANCELLED: Record<CancelReason, string> = {
  deleted: 'Cancelled: the conversation was deleted',
  shutdown: 'Interrupted: the server stopped; start it again',
};

const TITLE_FROM_MESSAGE = 80;
/** How often a start another instance runs is read again, for a stream on this one. */
const FOLLOW_ELSEWHERE_MS = 500;
/** How soon a sandbox still STARTING, with no start under way here to wait for, is looked at again. */
const STARTING_RECHECK_MS = 200;

function toTask(record: StartTaskRecord): StartTask {
  return {
    id: record.id,
    created_by_user_id: record.user_id,
    status: record.status as TaskStatus,
    detail: record.detail,
    app_conversation_id: record.app_conversation_id,
    sandbox_id: record.sandbox_id,
    agent_server_url: record.agent_server_url,
    request: startRequestSchema.parse(JSON.parse(record.request)),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The request's title, else the first line of its first message, else "Conversation <first 5 hex>". */
function titleFor(request: StartRequest, conversationId: string): string {
  if (request.title?.trim()) return request.title.trim();
  const text = request.initial_message?.content.find((part) => part.type === 'text');
  const firstLine = text?.type === 'text' ? text.text.trim().split('\n', 1)[0]?.trim() : undefined;
  if (firstLine) return firstLine.length > TITLE_FROM_MESSAGE ? `${firstLine.slice(0, TITLE_FROM_MESSAGE - 1)}…` : firstLine;
  return `Conversation ${conversationId.slice(0, 5)}`;
}

/**
 * Starts conversations: returns a task in WORKING at once, then goes on in the background,
 * saving each step (sandbox, repository, setup script, git hooks, skills, the agent server's
 * conversation) so clients can follow, until READY or ERROR with a detail a person can act on.
 */
export class StartTaskService {
  readonly #running = new Map<string, Running>();
  /** Conversations whose going on in a new sandbox is being asked for, until their start runs. */
  readonly #continuing = new Set<string>();
  readonly #updates = new EventEmitter();
  readonly #now: () => string;

  constructor(
    private readonly data: DataAccess,
    private readonly sandboxes: SandboxService,
    private readonly secrets: SecretsService,
    private readonly settings: SettingsService,
    private readonly options: StartTaskOptions,
    private readonly log: Logger,
  ) {
    this.#updates.setMaxListeners(0);
    const clock = options.clock ?? systemClock;
    this.#now = () => clock().toISOString();
  }

  /** Tasks this instance left mid-way when it stopped end in ERROR: nothing goes on with them (another instance's go on). */
  async markInterrupted(): Promise<number> {
    const tasks = this.data.as(asSystem('recover sandboxes after a restart')).startTasks;
    const unfinished = await tasks.unfinished(this.options.instanceId);
    for (const task of unfinished) {
      await tasks.update(task.id, {
        status: 'ERROR',
        detail: 'Interrupted by a server restart; start it again',
        updated_at: this.#now(),
      });
    }
    return unfinished.length;
  }

  /** Global work: what instances that stopped or went quiet (`quietSince`) left mid-way ends in ERROR, saying why. */
  async interruptTasksOfGoneInstances(quietSince: string): Promise<void> {
    const detail = 'Interrupted: the server instance that ran it stopped or stopped responding; start it again';
    const count = await this.data
      .as(asSystem('end the starts of gone instances'))
      .startTasks.interruptOfGoneInstances(this.options.instanceId, quietSince, detail, this.#now());
    if (count > 0) this.log.warn({ tasks: count }, 'ended the conversation starts of server instances that are gone');
  }

  /**
   * Validates and saves the task, starts its work in the background, and returns it in WORKING.
   * `onUpdate` receives every later state, up to READY or ERROR.
   */
  async start(caller: Caller, input: StartRequest, onUpdate?: (task: StartTask) => void): Promise<StartTask> {
    const request = await this.#withParent(caller, input);
    // Never into a sandbox another user owns (it holds their secrets): refused before any work. One
    // the caller cannot see fails in its task, as one that does not exist does.
    const sandboxes = this.data.as(caller).sandboxes;
    const sandbox = request.sandbox_id ? await sandboxes.get(request.sandbox_id) : undefined;
    if (sandbox) await sandboxes.authorize('use', sandbox.id);
    // Into a sandbox another instance runs: that one runs the start (it can reach the sandbox).
    const owner = request.sandbox_id ? await this.sandboxes.ownerElsewhere(caller, request.sandbox_id) : undefined;
    if (owner) {
      const task = await this.sandboxes.forward<StartTask>(caller, owner, 'POST', '/v1/app-conversations', input);
      if (onUpdate) void this.#followElsewhere(caller, task, onUpdate);
      return task;
    }
    const conversationId = request.conversation_id ?? randomUUID().replaceAll('-', '');
    // Anyone's: ids are one table's keys.
    const taken = this.data.as(asSystem('check a new conversation id is free')).conversations;
    if (this.#running.has(conversationId) || (await taken.get(conversationId))) {
      throw new Conflict(`Conversation ${conversationId} already exists`);
    }
    return this.#begin(caller, request, conversationId, undefined, onUpdate);
  }

  /**
   * Goes on with conversation `id`, whose sandbox is gone or failed, in a new sandbox: its
   * workspace made again as at its start (the repository cloned at its branch), its agent given
   * its stored history. Returns the task that does it, in WORKING; `onUpdate` gets each later
   * state as it is saved, up to READY or ERROR.
   */
  async continueInNewSandbox(caller: Caller, id: string, onUpdate?: (task: StartTask) => void): Promise<StartTask> {
    const hex = normaliseId(id);
    if (!hex) throw new NotFound(`Conversation ${id} not found`);
    // Held from the first look on: a second request meanwhile (a double click) starts no second sandbox.
    if (this.#running.has(hex) || this.#continuing.has(hex)) throw new Conflict(`Conversation ${hex} is starting already`);
    this.#continuing.add(hex);
    try {
      const record = await this.data.as(caller).conversations.authorize('continue', hex);
      const sandbox = (await this.sandboxes.ofConversations(caller, [record])).get(record.sandbox_id);
      if (sandbox && sandbox.status !== 'ERROR' && sandbox.status !== 'MISSING') {
        throw new Conflict(
          `Conversation ${record.id}'s sandbox ${sandbox.id} is ${sandbox.status.toLowerCase()}: it goes on there${sandbox.status === 'PAUSED' ? ' once resumed' : ''}`,
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
      return await this.#begin(caller, request, record.id, record, onUpdate);
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
    const now = this.#now();
    const record: StartTaskRecord = {
      id: randomUUID().replaceAll('-', ''),
      user_id: caller.userId,
      status: 'WORKING',
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      request: JSON.stringify(request),
      created_at: now,
      updated_at: now,
      owner_instance: this.options.instanceId,
    };
    await this.data.as(caller).startTasks.insert(record);
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
    running.done = this.#run(caller, record.id, request, conversationId, running, continuation).finally(() =>
      this.#running.delete(conversationId),
    );
    return toTask(record);
  }

  /** Sends `onUpdate` each state another instance saves of its task, up to READY or ERROR, read from the database. */
  async #followElsewhere(caller: Caller, task: StartTask, onUpdate: (task: StartTask) => void): Promise<void> {
    let last = task;
    while (last.status !== 'READY' && last.status !== 'ERROR') {
      await sleep(FOLLOW_ELSEWHERE_MS);
      const record = await this.data
        .as(caller)
        .startTasks.get(task.id)
        .catch(() => undefined);
      if (!record) return;
      const now = toTask(record);
      if (now.status !== last.status || now.updated_at !== last.updated_at) onUpdate(now);
      last = now;
    }
  }

  /** A sub-conversation takes what its request leaves unset from its parent, which must exist. */
  async #withParent(caller: Caller, request: StartRequest): Promise<StartRequest> {
    if (!request.parent_conversation_id) return request;
    // Only its owner goes on from a conversation (a sub-conversation takes its repository and sandbox).
    const parent = await this.data
      .as(caller)
      .conversations.authorize('continue', request.parent_conversation_id)
      .catch((error: unknown) => {
        throw error instanceof NotFound ? new NotFound(`Parent conversation ${request.parent_conversation_id} not found`) : error;
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
    this.#updates.on('task', listener);
    return () => this.#updates.off('task', listener);
  }

  /** Calls `listener` with each saved state of task `taskId`; returns how to stop listening. */
  subscribe(taskId: string, listener: (task: StartTask) => void): () => void {
    return this.onUpdate((task) => {
      if (task.id === taskId) listener(task);
    });
  }

  async #save(caller: Caller, taskId: string, changes: Partial<Omit<StartTaskRecord, 'id' | 'user_id' | 'created_at'>>): Promise<void> {
    const tasks = this.data.as(caller).startTasks;
    if (!(await tasks.update(taskId, { ...changes, updated_at: this.#now() })))
      this.log.warn({ task: taskId, status: changes.status }, 'a conversation start was ended elsewhere; its progress is not saved');
    const record = await tasks.get(taskId);
    if (record) this.#updates.emit('task', toTask(record));
  }

  async #run(
    caller: Caller,
    taskId: string,
    request: StartRequest,
    conversationId: string,
    running: Running,
    continuation: ConversationRecord | undefined,
  ): Promise<void> {
    const { signal } = running.controller;
    const step = async (status: TaskStatus, changes: Partial<StartTaskRecord> = {}) => {
      if (signal.aborted) throw new TaskCancelled();
      await this.#save(caller, taskId, { status, ...changes });
    };
    try {
      // Known before any sandbox starts, so a start that cannot clone fails at once.
      const repository = request.selected_repository ? await this.#repository(caller, request) : undefined;
      const { sandboxId, created, pausedIds } = await this.#sandbox(caller, request, conversationId);
      running.sandboxId = sandboxId;
      running.sandboxCreated = created;
      await step('WAITING_FOR_SANDBOX', { sandbox_id: sandboxId, detail: await this.#pausedNotice(caller, pausedIds) });
      const sandbox = await this.#untilRunning(caller, sandboxId, signal);

      const env = Object.fromEntries((await this.secrets.readCustomSecrets(caller)).map(({ name, value }) => [name, value]));
      const directory = `workspaces/${conversationId}/${repository ? repositoryDirName(repository.name) : 'workspace'}`;
      const workspace = new WorkspaceSetup(
        (command, options) => this.sandboxes.exec(caller, sandboxId, command, { ...options, signal }),
        directory,
        env,
      );
      await step('PREPARING_REPOSITORY');
      await workspace.prepare(repository);
      await step('RUNNING_SETUP_SCRIPT');
      await workspace.runSetupScript(this.options.setupScriptTimeoutMs);
      await step('SETTING_UP_GIT_HOOKS');
      await workspace.installGitHooks();
      await step('SETTING_UP_SKILLS');
      const skills = await workspace.skills();
      const workingDir = await workspace.absolutePath();

      const agentUrl = sandbox.exposed_urls?.find((url) => url.name === 'AGENT_SERVER')?.url;
      if (!agentUrl || !sandbox.session_api_key) throw new StepFailed(`Sandbox ${sandboxId} runs no agent server`);
      await step('STARTING_CONVERSATION', { agent_server_url: agentUrl });
      const events = this.data.as(caller).events;
      const continuedFrom = continuation && {
        sandbox_id: continuation.sandbox_id,
        repository: continuation.selected_repository,
        branch: continuation.selected_branch,
        ...(await continuedHistory((afterSeq, limit) => events.after(conversationId, afterSeq, limit))),
      };
      const llmModel = await this.#startAgentConversation(
        caller,
        agentUrl,
        sandbox.session_api_key,
        conversationId,
        request,
        workingDir,
        signal,
        continuedFrom,
      );

      if (signal.aborted) throw new TaskCancelled();
      const now = this.#now();
      const conversations = this.data.as(caller).conversations;
      if (continuation) {
        await conversations.update(conversationId, {
          sandbox_id: sandboxId,
          sandbox_created: created ? 1 : 0,
          llm_model: llmModel,
          skills: JSON.stringify(skills),
          working_dir: workingDir,
          updated_at: now,
        });
        await this.#save(caller, taskId, { status: 'READY', app_conversation_id: conversationId });
        return;
      }
      await conversations.insert({
        id: conversationId,
        user_id: caller.userId,
        sandbox_id: sandboxId,
        sandbox_created: created ? 1 : 0,
        selected_repository: request.selected_repository,
        selected_branch: request.selected_branch,
        git_provider: repository?.provider ?? request.git_provider,
        title: titleFor(request, conversationId),
        trigger: request.trigger,
        pr_number: JSON.stringify(request.pr_number),
        llm_model: llmModel,
        metrics: null,
        parent_conversation_id: request.parent_conversation_id,
        skills: JSON.stringify(skills),
        archived: 0,
        created_at: now,
        updated_at: now,
        working_dir: workingDir,
      });
      await this.#save(caller, taskId, { status: 'READY', app_conversation_id: conversationId });
    } catch (error) {
      await this.#failed(caller, taskId, signal.aborted ? new TaskCancelled(CANCELLED[signal.reason as CancelReason]) : error);
      // A sandbox this start made holds nothing yet: it does not stay to count against the limits.
      if (running.sandboxId && running.sandboxCreated && !signal.aborted) await this.#removeSandbox(caller, taskId, running.sandboxId);
    }
  }

  async #removeSandbox(caller: Caller, taskId: string, sandboxId: string): Promise<void> {
    await this.sandboxes.delete(caller, sandboxId).catch((error: unknown) => {
      this.log.error({ task: taskId, sandbox: sandboxId, err: error }, 'could not delete the sandbox of a failed conversation start');
    });
  }

  /** Which sandboxes (and so which conversations) were paused for this one, in words; `null` for none. */
  async #pausedNotice(caller: Caller, pausedIds: string[]): Promise<string | null> {
    if (pausedIds.length === 0) return null;
    const conversations = await this.data.as(caller).conversations.bySandbox(pausedIds);
    const named = pausedIds.map((id) => {
      const of = conversations.filter((conversation) => conversation.sandbox_id === id);
      return of.length > 0 ? `${id} (${of.map(({ title }) => `"${title}"`).join(', ')})` : id;
    });
    return `Paused sandbox ${named.join(', ')} to stay within MAX_RUNNING_SANDBOXES`;
  }

  async #failed(caller: Caller, taskId: string, error: unknown): Promise<void> {
    let detail: string;
    if (error instanceof TaskCancelled || error instanceof StepFailed || error instanceof DomainError) detail = error.message;
    else {
      this.log.error({ task: taskId, err: error }, 'a conversation start failed unexpectedly');
      detail = 'The start failed unexpectedly; the server log has the details';
    }
    await this.#save(caller, taskId, { status: 'ERROR', detail }).catch((saveError: unknown) => {
      this.log.error({ task: taskId, err: saveError }, 'could not record how a conversation start ended');
    });
  }

  /** The request's sandbox (resumed when paused), or a new one from its spec, made for `conversationId`. */
  async #sandbox(
    caller: Caller,
    request: StartRequest,
    conversationId: string,
  ): Promise<{ sandboxId: string; created: boolean; pausedIds: string[] }> {
    if (!request.sandbox_id) {
      const { sandbox, pausedIds } = await this.sandboxes.start(caller, request.sandbox_spec_id ?? undefined, {
        forConversation: conversationId,
      });
      return { sandboxId: sandbox.id, created: true, pausedIds };
    }
    const id = request.sandbox_id;
    const sandbox = await this.sandboxes.get(caller, id).catch((error: unknown) => {
      throw error instanceof NotFound ? new StepFailed(`Sandbox ${id} does not exist (any more)`) : error;
    });
    if (sandbox.status === 'PAUSED')
      return { sandboxId: id, created: false, pausedIds: (await this.sandboxes.resume(caller, id)).pausedIds };
    return { sandboxId: id, created: false, pausedIds: [] };
  }

  async #untilRunning(caller: Caller, id: string, signal: AbortSignal) {
    for (;;) {
      if (signal.aborted) throw new TaskCancelled();
      const sandbox = await this.sandboxes.get(caller, id);
      if (sandbox.status === 'RUNNING') return sandbox;
      if (sandbox.status === 'ERROR' || sandbox.status === 'MISSING' || sandbox.status === 'PAUSED') {
        const why = sandbox.status_detail ? `: ${sandbox.status_detail}` : '';
        throw new StepFailed(`Sandbox ${id} is ${sandbox.status.toLowerCase()}${why}`);
      }
      // Its agent server's first response, when this instance is starting it; otherwise asked again in a moment.
      await (this.sandboxes.whenStarted(id) ?? sleep(STARTING_RECHECK_MS));
    }
  }

  /** Where and how to clone the request's repository, with the provider's stored token. */
  async #repository(caller: Caller, request: StartRequest) {
    const name = request.selected_repository!;
    const tokens = await this.secrets.readProviderTokens(caller);
    let provider: Provider | null = request.git_provider;
    if (!provider) {
      const connected = tokens.map((t) => t.provider).filter(isProvider);
      if (connected.length !== 1) {
        throw new StepFailed(
          `Choose a git provider for ${name}: ${connected.length === 0 ? 'none is connected' : `${connected.length} are connected`}`,
        );
      }
      provider = connected[0]!;
    }
    const stored = tokens.find((t) => t.provider === provider);
    if (provider === 'azure_devops' && name.split('/').length !== 3) {
      throw new StepFailed(`Azure DevOps repositories are named organization/project/repository, not ${name}`);
    }
    const source = cloneSource(provider, stored?.host ?? null, name, stored?.token ?? null, this.options.urlFromSandbox);
    if (!source) throw new StepFailed(`${PROVIDER_NAMES[provider]} needs a host: connect it on the Git & secrets page`);
    return { name, provider, source, branch: request.selected_branch };
  }

  /** Creates the conversation in the sandbox's agent server with the user's LLM settings; returns the model. */
  async #startAgentConversation(
    caller: Caller,
    agentUrl: string,
    sessionKey: string,
    conversationId: string,
    request: StartRequest,
    workingDir: string,
    signal: AbortSignal,
    continuedFrom?: AgentStartConversation['continued_from'],
  ): Promise<string | null> {
    const body = await this.options.startRequests.build({
      conversationId,
      owner: caller,
      workingDir,
      llmModel: request.llm_model,
      initialMessage: request.initial_message,
      continuedFrom,
    });
    let response: Response;
    try {
      response = await fetch(`${agentUrl}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_KEY_HEADER]: sessionKey },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(CONVERSATION_CREATE_TIMEOUT_MS)]),
      });
    } catch (error) {
      if (signal.aborted) throw new TaskCancelled();
      throw new StepFailed(`The sandbox's agent server did not respond: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new StepFailed(`The sandbox's agent server refused the conversation (HTTP ${response.status})`);
    return body.agent.llm.model;
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

  async getMany(caller: Caller, ids: string[]): Promise<(StartTask | null)[]> {
    refuseTooMany(ids, 'start tasks');
    const wanted = ids.map(normaliseId);
    const found = await this.data.as(caller).startTasks.getMany(wanted.filter((id): id is string => id !== undefined));
    const byId = new Map(found.map((record) => [record.id, toTask(record)]));
    return wanted.map((id) => (id === undefined ? null : (byId.get(id) ?? null)));
  }

  async search(caller: Caller, query: TaskSearchQuery) {
    return paginateOffset(query.page_id, query.limit, (offset, limit) =>
      this.data
        .as(caller)
        .startTasks.search(query, query.sort_order, offset, limit)
        .then(({ rows, more }) => ({ items: rows.map(toTask), more })),
    );
  }

  count(caller: Caller, filter: TaskFilter): Promise<number> {
    return this.data.as(caller).startTasks.count(filter);
  }
}
