import { setTimeout as sleep } from 'node:timers/promises';
import type { StartRequest, TaskStatus } from '../../../src/contract/conversations';
import { isProvider, type Provider, PROVIDER_NAMES } from '../../../src/contract/secrets';
import type { AgentStartConversation } from '../../agent-server/contract';
import type { Caller } from '../../authz/caller';
import type { DataAccess } from '../../authz/data-access';
import { DomainError, NotFound } from '../../domain-errors';
import { cloneSource, repositoryDirName } from '../../git-providers/clone';
import type { Logger } from '../../logger';
import { SESSION_KEY_HEADER } from '../../session-key';
import type { ConversationRecord } from '../../store/conversations-store';
import type { StartTaskRecord } from '../../store/start-tasks-store';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { SecretsService } from '../secrets/secrets-service';
import { type AgentStartRequests, CONVERSATION_CREATE_TIMEOUT_MS } from './agent-start-request';
import { continuedHistory } from './continued-history';
import { storedMetrics } from './stored-metrics';
import type { StartTasks } from './start-tasks';
import { StepFailed, WorkspaceSetup } from './workspace-setup';

export interface StartStepOptions {
  /** How long `.openhands/setup.sh` may run (SETUP_SCRIPT_TIMEOUT). */
  setupScriptTimeoutMs: number;
  /** A URL as the sandbox reaches it (a container, a namespaced process: the host's loopback by its name); as is when absent. */
  urlFromSandbox?: (url: string) => string;
  /** The agent server's create-conversation body (the user's LLM, limits, secrets). */
  startRequests: AgentStartRequests;
}

/** A start under way: how to cancel it, when it has stopped, and how far it got. */
export interface Running {
  taskId: string;
  controller: AbortController;
  done: Promise<void>;
  sandboxId: string | null;
  sandboxCreated: boolean;
}

class TaskCancelled extends Error {}

/** Why a start was cancelled: its conversation was deleted, or the server is stopping. */
export type CancelReason = 'deleted' | 'shutdown';

const CANCELLED: Record<CancelReason, string> = {
  deleted: 'Cancelled: the conversation was deleted',
  shutdown: 'Interrupted: the server stopped; start it again',
};

const TITLE_FROM_MESSAGE = 80;
/** How soon a sandbox still STARTING, with no start under way here to wait for, is looked at again. */
const STARTING_RECHECK_MS = 200;

/** The request's title, else the first line of its first message, else "Conversation <first 5 hex>". */
function titleFor(request: StartRequest, conversationId: string): string {
  if (request.title?.trim()) return request.title.trim();
  const text = request.initial_message?.content.find((part) => part.type === 'text');
  const firstLine = text?.type === 'text' ? text.text.trim().split('\n', 1)[0]?.trim() : undefined;
  if (firstLine) return firstLine.length > TITLE_FROM_MESSAGE ? `${firstLine.slice(0, TITLE_FROM_MESSAGE - 1)}…` : firstLine;
  return `Conversation ${conversationId.slice(0, 5)}`;
}

/**
 * The steps of one conversation start, each saved to its task as it begins: the sandbox (made,
 * resumed, or the request's), the repository, the setup script, git hooks, skills, the agent
 * server's conversation, then the conversation's row and READY; or ERROR with a detail a person
 * can act on, and the sandbox it made removed.
 */
export class StartSteps {
  constructor(
    private readonly data: DataAccess,
    private readonly sandboxes: SandboxService,
    private readonly secrets: SecretsService,
    private readonly tasks: StartTasks,
    private readonly options: StartStepOptions,
    private readonly log: Logger,
  ) {}

  /** Runs task `taskId`'s start to its end (going on with `continuation`'s history when given); never rejects. */
  async run(
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
      await this.tasks.save(caller, taskId, { status, ...changes });
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
        metrics: storedMetrics(continuation.metrics),
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
      const now = this.tasks.now();
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
        await this.tasks.save(caller, taskId, { status: 'READY', app_conversation_id: conversationId });
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
      await this.tasks.save(caller, taskId, { status: 'READY', app_conversation_id: conversationId });
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
    await this.tasks.save(caller, taskId, { status: 'ERROR', detail }).catch((saveError: unknown) => {
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
      startedAt: this.tasks.now(),
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
}
