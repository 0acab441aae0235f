import { randomUUID } from 'node:crypto';

/*
 * Builds a past conversation's events as its agent server would have sent them (the agent SDK's
 * shapes, as `server/agent-server` writes them), each a little later than the one before.
 */

export const text = (value: string) => [{ type: 'text' as const, text: value, cache_prompt: false }];

export class Recorder {
  readonly frames: object[] = [];
  #at: number;
  #responses = 0;

  constructor(start: Date) {
    this.#at = start.getTime();
  }

  #event(kind: string, source: string, fields: object, afterSeconds: number) {
    this.#at += Math.round(afterSeconds * (0.6 + Math.random() * 0.8) * 1000);
    this.frames.push({ kind, id: randomUUID(), timestamp: new Date(this.#at).toISOString(), source, ...fields });
  }

  message(source: 'user' | 'agent', body: string, afterSeconds: number) {
    const role = source === 'user' ? 'user' : 'assistant';
    this.#event(
      'MessageEvent',
      source,
      {
        llm_message: { role, content: text(body), tool_calls: null, tool_call_id: null, name: null, reasoning_content: null },
        llm_response_id: source === 'agent' ? `resp_${++this.#responses}` : null,
        activated_skills: [],
        extended_content: [],
        sender: null,
      },
      afterSeconds,
    );
  }

  /** An action and what came of it. */
  tool(name: string, action: Record<string, unknown>, observation: Record<string, unknown>, seconds: number) {
    const callId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const { kind: _kind, ...args } = action;
    this.#event(
      'ActionEvent',
      'agent',
      {
        thought: [],
        reasoning_content: null,
        action,
        tool_name: name,
        tool_call_id: callId,
        tool_call: { id: callId, name, arguments: JSON.stringify(args), origin: 'completion' },
        llm_response_id: `resp_${++this.#responses}`,
        security_risk: 'LOW',
      },
      8,
    );
    const actionId = (this.frames.at(-1) as { id: string }).id;
    this.#event('ObservationEvent', 'environment', { tool_name: name, tool_call_id: callId, observation, action_id: actionId }, seconds);
  }

  terminal(command: string, output: string, seconds: number, exitCode = 0) {
    this.tool(
      'terminal',
      { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
      { kind: 'TerminalObservation', content: text(output), is_error: false, command, exit_code: exitCode, timeout: false },
      seconds,
    );
  }

  /** The file editor showing `path`, its lines numbered. */
  view(path: string, content: string) {
    const numbered = content
      .trimEnd()
      .split('\n')
      .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
      .join('\n');
    this.tool(
      'file_editor',
      {
        kind: 'FileEditorAction',
        command: 'view',
        path,
        file_text: null,
        old_str: null,
        new_str: null,
        insert_line: null,
        view_range: null,
      },
      { kind: 'FileEditorObservation', content: text(numbered), is_error: false, command: 'view', path },
      1,
    );
  }

  /** The file editor making the new file `path` (its observation carries the text, for the diff). */
  create(path: string, content: string) {
    this.tool(
      'file_editor',
      {
        kind: 'FileEditorAction',
        command: 'create',
        path,
        file_text: content,
        old_str: null,
        new_str: null,
        insert_line: null,
        view_range: null,
      },
      {
        kind: 'FileEditorObservation',
        content: text(`File created successfully at: ${path}`),
        is_error: false,
        command: 'create',
        path,
        prev_exist: false,
        old_content: null,
        new_content: content,
      },
      1,
    );
  }

  /** The file editor changing `path` from `before` to `after` (its observation carries both, for the diff). */
  edit(path: string, before: string, after: string) {
    this.tool(
      'file_editor',
      {
        kind: 'FileEditorAction',
        command: 'str_replace',
        path,
        file_text: null,
        old_str: '…',
        new_str: '…',
        insert_line: null,
        view_range: null,
      },
      {
        kind: 'FileEditorObservation',
        content: text(`The file ${path} has been edited.`),
        is_error: false,
        command: 'str_replace',
        path,
        prev_exist: true,
        old_content: before,
        new_content: after,
      },
      1,
    );
  }

  /** A call of tool `tool` of MCP server `server`, and its result. */
  mcp(server: string, tool: string, args: object, output: string) {
    this.tool(
      `${server}_${tool}`,
      { kind: 'MCPToolAction', data: args },
      { kind: 'MCPToolObservation', content: text(output), is_error: false, tool_name: `${server}_${tool}` },
      3,
    );
  }

  /** The condenser summarising every event so far but the first two. */
  condensation(summary: string) {
    const forgotten = this.frames.slice(2).map((frame) => (frame as { id: string }).id);
    this.#event(
      'Condensation',
      'environment',
      { forgotten_event_ids: forgotten, summary, summary_offset: 2, llm_response_id: `resp_${++this.#responses}` },
      5,
    );
  }

  /** A command whose sandbox was lost while it ran: its action, never observed. */
  lostCommand(command: string) {
    const callId = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    this.#event(
      'ActionEvent',
      'agent',
      {
        thought: [],
        reasoning_content: null,
        action: { kind: 'TerminalAction', command, is_input: false, timeout: null, reset: false },
        tool_name: 'terminal',
        tool_call_id: callId,
        tool_call: { id: callId, name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' },
        llm_response_id: `resp_${++this.#responses}`,
        security_risk: 'LOW',
      },
      8,
    );
    return callId;
  }

  /** What going on in a new sandbox writes: the open action ended, and what did not carry over. */
  continued(callId: string, repository: string, branch: string | null) {
    this.#event(
      'AgentErrorEvent',
      'agent',
      {
        tool_name: 'terminal',
        tool_call_id: callId,
        error: 'Its sandbox was lost before this action ended: it did not run in the new one.',
      },
      3600,
    );
    this.#event(
      'ContinuedInNewSandboxEvent',
      'environment',
      {
        previous_sandbox_id: randomUUID().replaceAll('-', ''),
        repository,
        branch,
        detail: `The repository ${repository} was cloned again${branch ? ` at ${branch}` : ''}: what the old workspace held and was not pushed (changes not committed, commits not pushed, other files) did not carry over.`,
      },
      1,
    );
  }

  error(code: string, detail: string) {
    this.#event('ConversationErrorEvent', 'agent', { code, detail }, 20);
  }
}
