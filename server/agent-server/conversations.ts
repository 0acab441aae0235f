import { randomUUID } from 'node:crypto';
import type { AgentConversationInfo, AgentStartConversation } from '../../src/contract/agent-server';
import type { SendMessageRequest } from '../../src/contract/conversations';

interface Conversation {
  info: AgentConversationInfo;
  /** In memory only: never written to a file or a log. */
  llmApiKey: string | null;
  messages: SendMessageRequest[];
}

const now = () => new Date().toISOString();

/**
 * The conversations this agent server holds. They live in its memory: after a restart of the
 * sandbox the app server creates them again (with the LLM key, which is never stored here).
 */
export class Conversations {
  readonly #byId = new Map<string, Conversation>();

  /** Creates a conversation, or answers the existing one for a repeated id (a retried start). */
  start(request: AgentStartConversation): AgentConversationInfo {
    const id = request.conversation_id ?? randomUUID().replaceAll('-', '');
    const existing = this.#byId.get(id);
    if (existing) return existing.info;
    const at = now();
    const info: AgentConversationInfo = {
      id,
      title: null,
      // The agent loop comes with the Agent issue; until then a conversation waits for it, idle.
      execution_status: 'idle',
      agent: { llm: { model: request.agent.llm.model, base_url: request.agent.llm.base_url } },
      workspace: request.workspace,
      confirmation_policy: request.confirmation_policy,
      max_iterations: request.max_iterations,
      metrics: null,
      created_at: at,
      updated_at: at,
    };
    this.#byId.set(id, {
      info,
      llmApiKey: request.agent.llm.api_key,
      messages: request.initial_message ? [request.initial_message] : [],
    });
    return info;
  }

  get(id: string): AgentConversationInfo | undefined {
    return this.#byId.get(id)?.info;
  }

  all(): AgentConversationInfo[] {
    return [...this.#byId.values()].map((conversation) => conversation.info);
  }
}
