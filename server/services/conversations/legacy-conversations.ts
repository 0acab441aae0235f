import type { AppConversation, ExecutionStatus } from '../../../src/contract/conversations';
import type { LegacyConversation } from './legacy-conversation-schemas';
import type { SandboxStatus } from '../../../src/contract/sandboxes';

/** OpenHands' V1 shim: a conversation's status is its sandbox's. */
const STATUS_OF_SANDBOX: Record<SandboxStatus, LegacyConversation['status']> = {
  RUNNING: 'RUNNING',
  STARTING: 'STARTING',
  PAUSED: 'STOPPED',
  ERROR: 'ERROR',
  MISSING: 'ARCHIVED',
};

/**
 * While the sandbox runs: ready unless the agent failed or is stuck. OpenHands also says ERROR
 * for no status (its agent server did not respond); ours has none yet just after a start, when
 * the runtime is up all the same.
 */
const runtimeStatus = (execution: ExecutionStatus | null) =>
  execution === 'error' || execution === 'stuck' ? 'STATUS$ERROR' : 'STATUS$READY';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The id's bytes in base62, as OpenHands titles a conversation that has none (pybase62 `encodebytes`). */
function base62(hexId: string): string {
  // Leading zero bytes are "0" and a digit for how many, since the number alone drops them.
  const zeros = /^(?:00)*/.exec(hexId)![0].length / 2;
  let value = BigInt(`0x${hexId}`);
  let digits = '';
  while (value > 0n) {
    digits = BASE62[Number(value % 62n)] + digits;
    value /= 62n;
  }
  return (zeros > 0 ? `0${BASE62[zeros]}` : '') + digits;
}

/** A conversation as OpenHands' legacy `/api/conversations` routes return it (`_to_conversation_info`). */
export function toLegacyConversation(conversation: AppConversation): LegacyConversation {
  const status = STATUS_OF_SANDBOX[conversation.sandbox_status];
  return {
    conversation_id: conversation.id,
    title: conversation.title || `Conversation ${base62(conversation.id)}`,
    last_updated_at: conversation.updated_at,
    status,
    runtime_status: status === 'RUNNING' ? runtimeStatus(conversation.execution_status) : null,
    selected_repository: conversation.selected_repository,
    selected_branch: conversation.selected_branch,
    git_provider: conversation.git_provider,
    trigger: conversation.trigger,
    num_connections: 0,
    url: conversation.conversation_url,
    session_api_key: conversation.session_api_key,
    created_at: conversation.created_at,
    pr_number: conversation.pr_number,
    conversation_version: 'V1',
    sub_conversation_ids: conversation.sub_conversation_ids,
  };
}
