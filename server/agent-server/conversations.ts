import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { AgentConversationInfo, AgentStartConversation } from './contract';
import { Conversation, type Credentials } from './conversation';
import { ConversationFiles } from './conversation-files';
import { newEvent } from './event-factory';
import { configureGitIdentity } from './git-identity';
import { systemPrompt } from './system-prompt';

/**
 * The conversations this agent server holds. Their events and info are on disk (under `root`);
 * the LLM key and secret values only in memory: after a restart the app server POSTs the
 * start request again, which restores the conversation with its history.
 */
export class Conversations {
  readonly #byId = new Map<string, Conversation>();
  /** Starts of new conversations still under way, by id. */
  readonly #creating = new Map<string, Promise<Conversation>>();

  constructor(
    private readonly root: string,
    private readonly sessionKey: string,
  ) {}

  /** `text` with every conversation's secret values replaced: for a log line no conversation owns. */
  mask(text: string): string {
    let masked = text;
    for (const conversation of this.#byId.values()) masked = conversation.mask(masked);
    return masked;
  }

  /**
   * Creates a conversation; for a known id (a re-sent start, after a restart of either server)
   * it takes the request's LLM, secrets and limits and keeps its history (a run going on goes on).
   * The app server may send the same start twice at once: the second waits for the first's
   * conversation instead of making another.
   */
  async start(request: AgentStartConversation): Promise<AgentConversationInfo> {
    const id = request.conversation_id ?? randomUUID().replaceAll('-', '');
    const credentials = { sessionKey: this.sessionKey };
    const creating = this.#creating.get(id);
    const known = this.#byId.get(id) ?? (creating ? await creating : undefined);
    if (known) {
      known.configure(request, credentials);
      return known.info;
    }
    const created = this.#create(id, request, credentials);
    this.#creating.set(id, created);
    try {
      return (await created).info;
    } finally {
      this.#creating.delete(id);
    }
  }

  async #create(id: string, request: AgentStartConversation, credentials: Pick<Credentials, 'sessionKey'>): Promise<Conversation> {
    const files = new ConversationFiles(this.root, id);
    if (files.exists()) {
      const { info, log } = files.restore();
      // A run does not survive a restart: it waits, paused, for Continue.
      const status = info.execution_status === 'running' ? 'paused' : info.execution_status;
      const conversation = new Conversation({ ...info, execution_status: status }, files, log, request, credentials);
      for (const failure of await conversation.connectMcpServers(request.agent.mcp_config)) conversation.reportMcpFailure(failure);
      this.#byId.set(id, conversation);
      return conversation;
    }
    const at = new Date().toISOString();
    const info: AgentConversationInfo = {
      id,
      title: null,
      execution_status: 'idle',
      agent: { llm: { model: request.agent.llm.model, base_url: request.agent.llm.base_url } },
      workspace: request.workspace,
      confirmation_policy: request.confirmation_policy,
      max_iterations: request.max_iterations,
      metrics: request.continued_from?.metrics ?? null,
      created_at: at,
      updated_at: at,
    };
    fs.mkdirSync(request.workspace.working_dir, { recursive: true });
    await configureGitIdentity(request.workspace.working_dir, request.environment);
    const conversation = new Conversation(info, files, files.create(), request, credentials);
    const failures = await conversation.connectMcpServers(request.agent.mcp_config);
    this.#byId.set(id, conversation);
    conversation.append(
      newEvent('SystemPromptEvent', 'agent', {
        system_prompt: { type: 'text', text: systemPrompt(request.workspace.working_dir, request.language), cache_prompt: false },
        tools: conversation.tools.listed,
        // Never after what the agent stamps next, whatever the server's clock says.
        ...(request.started_at !== undefined && Date.parse(request.started_at) < Date.now() && { timestamp: request.started_at }),
      }),
    );
    conversation.logLine(
      request.continued_from
        ? `goes on from sandbox ${request.continued_from.sandbox_id}`
        : `started with the model ${request.agent.llm.model ?? '(none)'}`,
    );
    if (request.continued_from) conversation.continueFrom(request.continued_from);
    for (const failure of failures) conversation.reportMcpFailure(failure);
    // As the SDK does, the first message runs the agent.
    if (request.initial_message) conversation.sendMessage({ ...request.initial_message, run: true });
    return conversation;
  }

  get(id: string): Conversation | undefined {
    return this.#byId.get(id);
  }

  all(): Conversation[] {
    return [...this.#byId.values()];
  }

  /** The sandbox was resumed after a pause: runs that were going on stop, paused. */
  sandboxResumed(): void {
    for (const conversation of this.#byId.values()) conversation.sandboxResumed();
  }
}
