import type { AgentEvent } from '../contract/events';

/*
 * Events as our agent server writes them, one of each kind the console draws, for unit tests.
 */

let clock = Date.parse('2026-11-26T10:00:00Z');
const envelope = (kind: string, id: string, source: AgentEvent['source']) => {
  clock += 1000;
  return { kind, id, source, timestamp: new Date(clock).toISOString() };
};
const text = (value: string) => [{ type: 'text', text: value, cache_prompt: false }];

export const userMessage = (id: string, value: string): AgentEvent => ({
  ...envelope('MessageEvent', id, 'user'),
  llm_message: { role: 'user', content: text(value) },
});

export const agentMessage = (id: string, value: string, responseId = `r-${id}`): AgentEvent => ({
  ...envelope('MessageEvent', id, 'agent'),
  llm_message: { role: 'assistant', content: text(value) },
  llm_response_id: responseId,
});

const toolCall = (id: string, name: string, args: unknown) => ({
  id: `call-${id}`,
  name,
  arguments: JSON.stringify(args),
  origin: 'completion',
});

export const terminalAction = (id: string, command: string, thought = ''): AgentEvent => ({
  ...envelope('ActionEvent', id, 'agent'),
  thought: thought ? text(thought) : [],
  action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
  tool_name: 'terminal',
  tool_call_id: `call-${id}`,
  tool_call: toolCall(id, 'terminal', { command }),
  llm_response_id: `r-${id}`,
});

export const fileEditAction = (id: string, command: string, path: string): AgentEvent => ({
  ...envelope('ActionEvent', id, 'agent'),
  action: { kind: 'FileEditorAction', command, path },
  tool_name: 'file_editor',
  tool_call_id: `call-${id}`,
  tool_call: toolCall(id, 'file_editor', { command, path }),
  llm_response_id: `r-${id}`,
});

export const finishAction = (id: string, message: string): AgentEvent => ({
  ...envelope('ActionEvent', id, 'agent'),
  action: { kind: 'FinishAction', message },
  tool_name: 'finish',
  tool_call_id: `call-${id}`,
  tool_call: toolCall(id, 'finish', { message }),
  llm_response_id: `r-${id}`,
});

export const terminalObservation = (id: string, actionId: string, output: string, exitCode: number): AgentEvent => ({
  ...envelope('ObservationEvent', id, 'environment'),
  tool_name: 'terminal',
  tool_call_id: `call-${actionId}`,
  observation: { kind: 'TerminalObservation', content: text(output), is_error: false, command: 'ls', exit_code: exitCode, timeout: false },
  action_id: actionId,
});

export const fileObservation = (id: string, actionId: string, output: string): AgentEvent => ({
  ...envelope('ObservationEvent', id, 'environment'),
  tool_name: 'file_editor',
  tool_call_id: `call-${actionId}`,
  observation: { kind: 'FileEditorObservation', content: text(output), is_error: false, path: '/workspace/x' },
  action_id: actionId,
});

/** An edit's observation as the SDK writes it: the file's text before (`null` for a new file) and after. */
export const fileEditObservation = (
  id: string,
  actionId: string,
  command: string,
  path: string,
  before: string | null,
  after: string,
): AgentEvent => ({
  ...envelope('ObservationEvent', id, 'environment'),
  tool_name: 'file_editor',
  tool_call_id: `call-${actionId}`,
  observation: {
    kind: 'FileEditorObservation',
    content: text(`The file ${path} has been edited.`),
    is_error: false,
    command,
    path,
    prev_exist: before !== null,
    old_content: before,
    new_content: after,
  },
  action_id: actionId,
});

/** As the SDK writes it (`source: environment`); `source` `user` as our agent server wrote it before. */
export const rejection = (id: string, actionId: string, reason: string, source: AgentEvent['source'] = 'environment'): AgentEvent => ({
  ...envelope('UserRejectObservation', id, source),
  tool_name: 'terminal',
  tool_call_id: `call-${actionId}`,
  rejection_reason: reason,
  action_id: actionId,
});

export const agentError = (id: string, toolCallId: string, error: string): AgentEvent => ({
  ...envelope('AgentErrorEvent', id, 'agent'),
  tool_name: 'terminal',
  tool_call_id: toolCallId,
  error,
});

export const conversationError = (id: string, code: string, detail: string): AgentEvent => ({
  ...envelope('ConversationErrorEvent', id, 'environment'),
  code,
  detail,
});

export const pause = (id: string, reason?: 'sandbox_paused'): AgentEvent => ({
  ...envelope('PauseEvent', id, 'user'),
  ...(reason ? { reason } : {}),
});

const functionTool = (name: string) => ({ type: 'function', function: { name, description: '', parameters: { type: 'object' } } });

/** The system prompt with the built-in tools, and `mcpTools` by their server (as our agent server lists them). */
export const systemPrompt = (id: string, mcpTools: Record<string, string> = {}): AgentEvent => ({
  ...envelope('SystemPromptEvent', id, 'agent'),
  system_prompt: { type: 'text', text: 'You are a helpful agent.', cache_prompt: false },
  tools: [
    ...['terminal', 'file_editor', 'finish'].map(functionTool),
    ...Object.entries(mcpTools).map(([name, server]) => ({ ...functionTool(name), mcp_server: server })),
  ],
});

export const mcpAction = (id: string, tool: string, data: object): AgentEvent => ({
  ...envelope('ActionEvent', id, 'agent'),
  thought: [],
  action: { kind: 'MCPToolAction', data },
  tool_name: tool,
  tool_call_id: `call-${id}`,
  tool_call: toolCall(id, tool, data),
  llm_response_id: `r-${id}`,
});

export const mcpObservation = (id: string, actionId: string, tool: string, output: string): AgentEvent => ({
  ...envelope('ObservationEvent', id, 'environment'),
  tool_name: tool,
  tool_call_id: `call-${actionId}`,
  observation: {
    kind: 'MCPToolObservation',
    content: [...text(`[Tool '${tool}' executed.]`), ...text(output)],
    is_error: false,
    tool_name: tool,
  },
  action_id: actionId,
});

/** SDK `Condensation`: `forgotten` events summarised for the LLM. */
export const condensation = (id: string, forgotten: string[], summary: string): AgentEvent => ({
  ...envelope('Condensation', id, 'environment'),
  forgotten_event_ids: forgotten,
  summary,
  summary_offset: 4,
  llm_response_id: `r-${id}`,
});
