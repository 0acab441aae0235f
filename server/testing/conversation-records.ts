import type { ConversationRecord } from '../store/conversations-store';
import type { SandboxRecord } from '../store/sandboxes-store';
import type { StartTaskRecord } from '../store/start-tasks-store';

/**
 * A stored conversation as a start leaves it, for tests that write rows straight into the store:
 * `fields` sets what the test is about, the rest is empty.
 */
export function conversationRecord(fields: Pick<ConversationRecord, 'id'> & Partial<ConversationRecord>): ConversationRecord {
  const now = new Date().toISOString();
  return {
    user_id: 'default',
    sandbox_id: 'sandbox',
    sandbox_created: 0,
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    title: 'A conversation',
    trigger: null,
    pr_number: '[]',
    llm_model: null,
    metrics: null,
    parent_conversation_id: null,
    skills: '[]',
    archived: 0,
    created_at: now,
    updated_at: now,
    working_dir: null,
    ...fields,
  };
}

/** A stored start task just asked for, for tests that write rows straight into the store. */
export function startTaskRecord(fields: Pick<StartTaskRecord, 'id'> & Partial<StartTaskRecord>): StartTaskRecord {
  const now = new Date().toISOString();
  return {
    user_id: 'default',
    status: 'WORKING',
    detail: null,
    app_conversation_id: null,
    sandbox_id: null,
    agent_server_url: null,
    request: '{}',
    created_at: now,
    updated_at: now,
    owner_instance: null,
    ...fields,
  };
}

/** A registered sandbox with no process, for tests that write rows straight into the store. */
export function sandboxRecord(fields: Pick<SandboxRecord, 'id'> & Partial<SandboxRecord>): SandboxRecord {
  const now = new Date().toISOString();
  return {
    spec_id: 'agent-server',
    port: 40_123,
    session_key: 'sealed',
    pid: null,
    process_start: null,
    created_at: now,
    started_at: now,
    exit_detail: null,
    image: null,
    owner_instance: null,
    conversation_id: null,
    worker_ports: null,
    created_by_user_id: 'default',
    ...fields,
  };
}
