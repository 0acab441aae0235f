import type { AgentStartConversation, AgentStartConversationInput } from '../../src/contract/agent-server';
import type { SendMessageRequest } from '../../src/contract/conversations';
import type { SecretsService } from './secrets-service';
import type { SettingsService } from './settings-service';

export interface AgentConversationSpec {
  conversationId: string;
  /** The workspace's absolute path in the sandbox. */
  workingDir: string;
  /** The start request's model; the user's Settings name it otherwise. */
  llmModel: string | null;
  /** Only when it is first created: a re-creation after a sandbox restart sends none. */
  initialMessage: SendMessageRequest | null;
}

/**
 * What the app server POSTs to a sandbox's agent server to create (or re-create) a
 * conversation: the user's LLM, key and limits from Settings, read at that moment.
 */
export async function agentStartRequest(
  settings: SettingsService,
  _secrets: SecretsService,
  spec: AgentConversationSpec,
): Promise<AgentStartConversationInput & Pick<AgentStartConversation, 'agent'>> {
  const stored = await settings.readWithSecrets();
  const model = spec.llmModel ?? stored?.llm_model ?? null;
  return {
    conversation_id: spec.conversationId,
    agent: { llm: { model, base_url: stored?.llm_base_url ?? null, api_key: stored?.llm_api_key ?? null, price: null } },
    workspace: { working_dir: spec.workingDir },
    confirmation_policy: { kind: stored?.confirmation_mode ? 'AlwaysConfirm' : 'NeverConfirm' },
    initial_message: spec.initialMessage,
    max_iterations: stored?.max_iterations ?? 500,
  };
}
