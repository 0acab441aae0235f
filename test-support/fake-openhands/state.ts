import { randomBytes, randomUUID } from 'node:crypto';

/*
 * What a fake OpenHands holds, in memory, with the helpers a test seeds it through. Shapes are
 * the pinned OpenHands' (openhands-api.md §7, openhands-conversations.md §2): hex conversation
 * ids, dashed event ids, naive local event times, no fields of ours (`archived`, `skills`, …).
 */

export const DEFAULT_SPEC_ID = 'ghcr.io/openhands/agent-server:5f62cee-python';
export const OTHER_SPEC_ID = 'ghcr.io/openhands/agent-server:5f62cee-python-nodejs';

export type SandboxStatus = 'STARTING' | 'RUNNING' | 'PAUSED' | 'ERROR' | 'MISSING';

export interface FakeSandbox {
  id: string;
  created_by_user_id: null;
  sandbox_spec_id: string;
  status: SandboxStatus;
  session_api_key: string | null;
  exposed_urls: { name: string; url: string; port: number }[] | null;
  created_at: string;
}

export interface FakeConversation {
  id: string;
  created_by_user_id: null;
  sandbox_id: string;
  selected_repository: string | null;
  selected_branch: string | null;
  git_provider: string | null;
  title: string | null;
  trigger: string | null;
  pr_number: number[];
  llm_model: string | null;
  metrics: null;
  parent_conversation_id: null;
  sub_conversation_ids: string[];
  created_at: string;
  updated_at: string;
}

export interface FakeEvent {
  kind: string;
  id: string;
  timestamp: string;
  source: 'agent' | 'user' | 'environment';
  [field: string]: unknown;
}

export interface FakeSecret {
  name: string;
  value: string;
  description: string;
}

export interface FakeOpenHandsState {
  /** The stored settings, secrets in clear; `null` until the first POST (GET returns 404 then). */
  settings: Record<string, unknown> | null;
  secrets: FakeSecret[];
  sandboxes: FakeSandbox[];
  conversations: FakeConversation[];
  events: Map<string, FakeEvent[]>;
}

export const emptyState = (): FakeOpenHandsState => ({ settings: null, secrets: [], sandboxes: [], conversations: [], events: new Map() });

let clock = Date.parse('2026-11-26T09:00:00Z');
/** Times move on a second per record, so order never depends on the machine's speed. */
const nextTime = () => new Date((clock += 1000));
const utc = () => nextTime().toISOString();
/** Event times as the SDK writes them: naive local time with microseconds, no zone. */
const naive = () => nextTime().toISOString().replace('Z', '000');

export function addSandbox(state: FakeOpenHandsState, { status = 'RUNNING', specId = DEFAULT_SPEC_ID } = {}): FakeSandbox {
  const running = status === 'RUNNING';
  const sandbox: FakeSandbox = {
    id: `oh-agent-server-${randomBytes(11).toString('base64url')}`,
    created_by_user_id: null,
    sandbox_spec_id: specId,
    status: status as SandboxStatus,
    session_api_key: running ? randomBytes(16).toString('hex') : null,
    exposed_urls: running ? [{ name: 'AGENT_SERVER', url: 'http://127.0.0.1:1', port: 1 }] : null,
    created_at: utc(),
  };
  state.sandboxes.push(sandbox);
  return sandbox;
}

const text = (value: string) => [{ cache_prompt: false, type: 'text', text: value }];

/** A conversation in a running sandbox, with a user's message and the agent's reply as its events. */
export function addConversation(state: FakeOpenHandsState, title: string, exchange: [string, string] = ['Hello', 'Hi there']) {
  const sandbox = addSandbox(state);
  const at = utc();
  const conversation: FakeConversation = {
    id: randomUUID().replaceAll('-', ''),
    created_by_user_id: null,
    sandbox_id: sandbox.id,
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    title,
    trigger: 'gui',
    pr_number: [],
    llm_model: 'anthropic/claude-sonnet-4-5-20250929',
    metrics: null,
    parent_conversation_id: null,
    sub_conversation_ids: [],
    created_at: at,
    updated_at: at,
  };
  state.conversations.push(conversation);
  state.events.set(conversation.id, []);
  addMessage(state, conversation.id, 'user', exchange[0]);
  addMessage(state, conversation.id, 'agent', exchange[1]);
  return conversation;
}

/** A `MessageEvent` as the agent server sends it to the app server's webhook. */
export function addMessage(state: FakeOpenHandsState, conversationId: string, source: 'user' | 'agent', value: string): FakeEvent {
  const event: FakeEvent = {
    kind: 'MessageEvent',
    id: randomUUID(),
    timestamp: naive(),
    source,
    llm_message: { role: source === 'user' ? 'user' : 'assistant', content: text(value) },
    llm_response_id: source === 'agent' ? randomUUID() : null,
    activated_skills: [],
    extended_content: [],
    sender: null,
  };
  state.events.get(conversationId)?.push(event);
  return event;
}

/** A terminal command the agent ran, as an `ActionEvent` with no observation yet. */
export function addCommand(state: FakeOpenHandsState, conversationId: string, command: string): FakeEvent {
  const callId = `toolu_${randomBytes(8).toString('hex')}`;
  const event: FakeEvent = {
    kind: 'ActionEvent',
    id: randomUUID(),
    // Part way into its second, so that its output can come later within that second.
    timestamp: naive().replace(/\.\d+$/, '.600000'),
    source: 'agent',
    thought: [],
    reasoning_content: null,
    thinking_blocks: [],
    action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
    llm_response_id: randomUUID(),
    security_risk: 'UNKNOWN',
  };
  state.events.get(conversationId)?.push(event);
  return event;
}

/** The output of `action`, written 0.3 s after it: in the same second, as a quick command's is. */
export function addCommandOutput(state: FakeOpenHandsState, conversationId: string, action: FakeEvent, output: string): FakeEvent {
  const event: FakeEvent = {
    kind: 'ObservationEvent',
    id: randomUUID(),
    timestamp: action.timestamp.replace(/\.\d+$/, '.900000'),
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: action.tool_call_id,
    observation: {
      kind: 'TerminalObservation',
      content: text(output),
      is_error: false,
      command: (action.action as { command: string }).command,
      exit_code: 0,
      timeout: false,
      metadata: {
        exit_code: 0,
        pid: -1,
        username: null,
        hostname: null,
        working_dir: '/workspace',
        py_interpreter_path: null,
        prefix: '',
        suffix: '',
      },
    },
    action_id: action.id,
  };
  state.events.get(conversationId)?.push(event);
  return event;
}
