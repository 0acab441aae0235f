import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ConfirmationResponse, AppSendMessage } from '../../../src/contract/events';
import type { ExecutionStatus } from '../../../src/contract/conversations';
import type { SandboxInfo } from '../../../src/contract/sandboxes';
import { Conflict, NotFound, Unavailable, verbatim } from '../../domain-errors';
import type { Logger } from '../../logger';
import { SESSION_KEY_HEADER } from '../../session-key';
import type { ConversationRecord } from '../../store/conversations-store';
import type { DataAccess } from '../../authz/data-access';
import type { Action } from '../../authz/policy';
import { type AgentStartRequests, CONVERSATION_CREATE_TIMEOUT_MS } from './agent-start-request';
import { normaliseId } from '../ids';
import type { SandboxService } from '../sandboxes/sandbox-service';
import type { Owner } from '../instances/instance-registry';
import { asSystem, type Caller, type Subject } from '../../authz/caller';
import { type AuditRecorder, NO_AUDIT } from '../audit/audit-recorder';
import { changesOf } from '../audit/audit-diff';

/** A sandbox's agent server: where it listens and the key it takes. */
export interface AgentEndpoint {
  url: string;
  key: string;
}

/** A conversation the caller was allowed an action on (`AgentConversations.allowed`), and the way to its agent server. */
export interface AllowedConversation {
  record: ConversationRecord;
  /** The other instance that runs its sandbox; `undefined` when this one does. */
  elsewhere(): Promise<(Owner & { reachable: true }) | undefined>;
  /** Its sandbox's running agent server; Conflict (saying what to do) otherwise. */
  endpoint(): Promise<AgentEndpoint>;
}

const AGENT_TIMEOUT_MS = 15_000;
/** A deleted conversation's agent is paused in passing: the delete does not wait long for it. */
const PAUSE_ON_DELETE_TIMEOUT_MS = 2_000;

/** The agent server of a sandbox that is RUNNING; `undefined` otherwise. */
export function agentEndpoint(sandbox: SandboxInfo | null | undefined): AgentEndpoint | undefined {
  const url = sandbox?.status === 'RUNNING' ? sandbox.exposed_urls?.find((u) => u.name === 'AGENT_SERVER')?.url : undefined;
  return url && sandbox?.session_api_key ? { url, key: sandbox.session_api_key } : undefined;
}

/** What a refusal of an agent server says, in its own words when it has some. */
async function agentDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    if (typeof detail === 'string' && detail) return detail;
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${response.status}`;
}

/** An agent server's refusal as our response; its refusal of the sandbox's key is never a 401 of ours. */
export async function refusal(response: Response, failed: (detail: string) => MessageDescriptor): Promise<Conflict | Unavailable> {
  const detail = await agentDetail(response);
  if (response.status === 409 || response.status === 400) return new Conflict(verbatim(detail));
  if (response.status === 401 || response.status === 403) {
    return new Unavailable(msg`The sandbox's agent server refused the sandbox's key (HTTP ${response.status}); restart the sandbox`);
  }
  return new Unavailable(failed(detail));
}

/** Why a sandbox that is not RUNNING cannot take a conversation's action, and what to do. */
function notRunning(conversationId: string, sandbox: SandboxInfo | null): Conflict {
  if (!sandbox) return new Conflict(msg`Conversation ${conversationId}'s sandbox no longer exists; start a new conversation`);
  const sandboxId = sandbox.id;
  const reason = sandbox.status_detail;
  switch (sandbox.status) {
    case 'PAUSED':
      return new Conflict(
        msg`Conversation ${conversationId}'s sandbox ${sandboxId} is paused; resume its sandbox first (POST /api/v1/sandboxes/${sandboxId}/resume)`,
      );
    case 'STARTING':
      return new Conflict(msg`Conversation ${conversationId}'s sandbox ${sandboxId} is still starting; try again once it is RUNNING`);
    case 'ERROR':
      return new Conflict(
        reason
          ? msg`Conversation ${conversationId}'s sandbox ${sandboxId} is in error (${reason}); start a new conversation`
          : msg`Conversation ${conversationId}'s sandbox ${sandboxId} is in error; start a new conversation`,
      );
    default:
      return new Conflict(msg`Conversation ${conversationId}'s sandbox ${sandboxId} no longer exists; start a new conversation`);
  }
}

/**
 * Each action: its path at the agent server (under /api/conversations/{id}), our route for it
 * (under /v1/app-conversations/{id}/), and what the policy calls it.
 */
const ACTIONS = {
  message: { agentPath: '/events', route: 'send-message', authz: 'message' },
  pause: { agentPath: '/pause', route: 'pause', authz: 'pause' },
  run: { agentPath: '/run', route: 'run', authz: 'run' },
  confirm: { agentPath: '/events/respond_to_confirmation', route: 'confirm', authz: 'approve' },
} as const satisfies Record<string, { agentPath: string; route: string; authz: Action<'conversation'> }>;

/** Where an agent had stopped: a message that runs it, or a run, continues the conversation (an idle one has not begun). */
const STOPPED: ReadonlySet<ExecutionStatus | undefined> = new Set(['paused', 'finished', 'error', 'stuck']);
/** Where a run changes nothing. */
const GOING: ReadonlySet<ExecutionStatus | undefined> = new Set(['running', 'waiting_for_confirmation']);

/** Reaching the agent server of a conversation once the caller was allowed the action: its address and key. */
const REACH_AGENT = asSystem('reach the agent server of a conversation');

/**
 * What the app server asks of a conversation's agent server: its actions (message, pause, run,
 * confirm), forwarded, and creating it again when the agent server no longer knows it (its
 * sandbox restarted). An agent server's refusal of its key never becomes a 401 of our API (the
 * console would sign its user out): it is Unavailable.
 */
export class AgentConversations {
  constructor(
    private readonly data: DataAccess,
    private readonly sandboxes: SandboxService,
    private readonly startRequests: AgentStartRequests,
    private readonly log: Logger,
    /** A conversation's live execution status as this instance follows it (no database read). */
    private readonly executionStatus: (conversationId: string) => ExecutionStatus | undefined = () => undefined,
    private readonly audit: AuditRecorder = NO_AUDIT,
  ) {}

  /**
   * Conversation `id` once the caller was allowed `action` on it (NotFound, or Forbidden saying
   * why, otherwise), with the way to its agent server: the only way to that server's key.
   */
  async allowed(caller: Caller, id: string, action: Action<'conversation'>): Promise<AllowedConversation> {
    const hex = normaliseId(id);
    if (!hex) throw new NotFound(msg`Conversation ${id} not found`);
    const record = await this.data.as(caller).conversations.authorize(action, hex);
    return {
      record,
      elsewhere: () => this.sandboxes.ownerElsewhere(REACH_AGENT, record.sandbox_id),
      endpoint: async () => {
        const [sandbox] = await this.sandboxes.getMany(REACH_AGENT, [record.sandbox_id]);
        const endpoint = agentEndpoint(sandbox);
        if (!endpoint) throw notRunning(record.id, sandbox ?? null);
        return endpoint;
      },
    };
  }

  async #post(endpoint: AgentEndpoint, path: string, body: unknown, timeoutMs = AGENT_TIMEOUT_MS): Promise<Response> {
    try {
      return await fetch(`${endpoint.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SESSION_KEY_HEADER]: endpoint.key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new Unavailable(msg`The sandbox's agent server did not respond: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * POSTs an action about conversation `id`; one the agent server does not know is created again,
   * once. With `withSettings`, the conversation's create body goes first (the agent server takes
   * it again for a conversation it knows), so the agent runs with the user's Settings as they are
   * now: its errors (no model, a rejected key, a budget spent) tell the user to fix them there.
   */
  async #act(caller: Caller, id: string, action: keyof typeof ACTIONS, body: unknown, withSettings = false): Promise<void> {
    const { agentPath, route, authz } = ACTIONS[action];
    const conversation = await this.allowed(caller, id, authz);
    const { record } = conversation;
    // Its sandbox runs on another instance: that one talks to its agent server (this one may not reach it).
    const instance = await conversation.elsewhere();
    if (instance) {
      await this.sandboxes.forward(caller, instance, 'POST', `/v1/app-conversations/${record.id}/${route}`, body);
      return;
    }
    const endpoint = await conversation.endpoint();
    const status = this.executionStatus(record.id);
    const continues = action === 'run' ? !GOING.has(status) : action === 'message' && (body as AppSendMessage).run && STOPPED.has(status);
    // A conversation from before its workspace was recorded cannot be sent again: it keeps what it has.
    if (withSettings && record.working_dir) await this.#create(caller, record, record.working_dir, endpoint);
    const path = `/api/conversations/${record.id}${agentPath}`;
    let response = await this.#post(endpoint, path, body);
    // One its agent server lost (its sandbox restarted) is made again for its owner; there is nothing to pause in it.
    if (response.status === 404 && action !== 'pause') {
      await response.body?.cancel();
      await this.recreate(record, endpoint);
      response = await this.#post(endpoint, path, body);
    }
    if (!response.ok) throw await refusal(response, (detail) => msg`The sandbox's agent server could not do it: ${detail}`);
    await response.body?.cancel();
    if (continues)
      await this.audit.record(caller, {
        action: 'resume',
        resourceType: 'conversation',
        resourceId: record.id,
        resourceTarget: record.title,
        reason: action === 'run' ? 'Its agent told to continue' : 'A message to its stopped agent',
        diff: changesOf({ execution_status: status ?? null }, { execution_status: 'running' }),
      });
  }

  sendMessage(caller: Caller, id: string, message: AppSendMessage): Promise<void> {
    return this.#act(caller, id, 'message', message, true);
  }

  pause(caller: Caller, id: string): Promise<void> {
    return this.#act(caller, id, 'pause', {});
  }

  run(caller: Caller, id: string): Promise<void> {
    return this.#act(caller, id, 'run', {}, true);
  }

  confirm(caller: Caller, id: string, response: ConfirmationResponse): Promise<void> {
    return this.#act(caller, id, 'confirm', response);
  }

  /**
   * Pauses the agent of a conversation being deleted (`conversation`, allowed `delete`) while its
   * sandbox may stay: best effort and briefly, the delete goes on whatever the agent server responds.
   */
  async pauseForDelete(caller: Caller, conversation: AllowedConversation): Promise<void> {
    const { record } = conversation;
    try {
      // Another instance runs its sandbox: its addresses are on that host, so that instance pauses it
      // (unreachable, it is not paused: the refusal is logged below).
      const instance = await conversation.elsewhere();
      if (instance) {
        await this.sandboxes.forward(caller, instance, 'POST', `/v1/app-conversations/${record.id}/pause`, {});
        return;
      }
      const endpoint = await conversation.endpoint().catch(() => undefined);
      if (!endpoint) return;
      const response = await this.#post(endpoint, `/api/conversations/${record.id}/pause`, {}, PAUSE_ON_DELETE_TIMEOUT_MS);
      await response.body?.cancel();
    } catch (error) {
      this.log.debug({ conversation: record.id, err: error }, 'could not pause the agent of a deleted conversation');
    }
  }

  /** POSTs the conversation's create body, from its owner's Settings as they are now (read as `owner`) and no initial message. */
  async #create(owner: Subject, record: ConversationRecord, workingDir: string, endpoint: AgentEndpoint): Promise<void> {
    const body = await this.startRequests.build({
      conversationId: record.id,
      owner,
      workingDir,
      llmModel: record.llm_model,
      initialMessage: null,
    });
    const response = await this.#post(endpoint, '/api/conversations', body, CONVERSATION_CREATE_TIMEOUT_MS);
    if (!response.ok)
      throw await refusal(response, (detail) => msg`The sandbox's agent server refused conversation ${record.id}'s settings: ${detail}`);
    await response.body?.cancel();
  }

  /**
   * Creates conversation `record` again in its agent server, which lost it (its sandbox
   * restarted), with the user's LLM settings as they are now and no initial message; its events
   * stored here stay.
   */
  async recreate(record: ConversationRecord, endpoint: AgentEndpoint): Promise<void> {
    if (!record.working_dir) throw new Unavailable(msg`Conversation ${record.id} cannot be created again: its workspace was not recorded`);
    const owner = asSystem('create a conversation again in its restarted agent server', record.user_id);
    await this.#create(owner, record, record.working_dir, endpoint);
    this.log.info({ conversation: record.id, sandbox: record.sandbox_id }, 'created a conversation again in its restarted agent server');
  }
}
