import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { type ExecutionStatus, imageUrlsOf } from '../../../contract/conversations';
import {
  type ActionEvent,
  agentToolSchema,
  type AgentEvent,
  type KnownEvent,
  knownEventSchema,
  type MessageEvent,
  type ObservationEvent,
  wasCut,
} from '../../../contract/events';

/*
 * A conversation's events as a person reads them: messages, each action with what came of it,
 * errors, pauses. Built from the stored events in order; partial text that is still streaming
 * comes last.
 */

/** An event as it arrived, with its known shape when it has one (parsed once, on arrival). */
export interface ReceivedEvent {
  event: AgentEvent;
  known: KnownEvent | null;
}

export function receive(event: AgentEvent): ReceivedEvent {
  const known = knownEventSchema.safeParse(event);
  return { event, known: known.success ? known.data : null };
}

export type ActionStatus = 'waiting' | 'running' | 'pending' | 'done' | 'failed' | 'interrupted' | 'rejected' | 'error';

/** A shell's exit code for a command ended by an interrupt (128 + SIGINT), as Stop ends one. */
const INTERRUPTED_EXIT_CODE = 130;

export type ActionOutcome =
  | { kind: 'observation'; output: string; exitCode: number | null; isError: boolean; edit: FileEdit | null }
  | { kind: 'rejected'; reason: string }
  | { kind: 'error'; error: string };

/** What a file edit changed: the file's text before (`''` when it was created) and after. */
export interface FileEdit {
  path: string;
  original: string;
  modified: string;
}

/** The file editor's commands that change a file (`view` does not). */
const EDITING_COMMANDS = new Set(['create', 'str_replace', 'insert', 'undo_edit']);

function fileEdit({ observation }: ObservationEvent): FileEdit | null {
  const { command, path, old_content: before, new_content: after } = observation;
  if (observation.is_error || !command || !EDITING_COMMANDS.has(command) || !path || typeof after !== 'string') return null;
  // A text cut to store its event is not the file: a diff of it would show changes never made.
  if (wasCut(after) || (before && wasCut(before))) return null;
  return { path, original: before ?? '', modified: after };
}

export type TimelineItem =
  | { type: 'message'; key: string; role: 'user' | 'agent'; text: string; images: string[]; timestamp: string }
  | { type: 'streaming'; key: string; text: string }
  | {
      type: 'action';
      key: string;
      action: ActionEvent;
      status: ActionStatus;
      outcome: ActionOutcome | null;
      /** For an MCP tool, its server's name, when the system prompt's tool list says it. */
      server: string | null;
      /** A running command's output so far (transient frames of our agent server). */
      liveOutput?: string;
    }
  | { type: 'finish'; key: string; text: string; timestamp: string }
  | { type: 'observation'; key: string; toolName: string; outcome: ActionOutcome }
  /** `title` is a code of no known meaning as it came, or what a known one means. */
  | { type: 'error'; key: string; code: string | null; title: MessageDescriptor | string; detail: string; timestamp: string }
  | { type: 'paused'; key: string; bySandbox: boolean; timestamp: string }
  | { type: 'system-prompt'; key: string; text: string; tools: AgentTool[] }
  /** SDK `Condensation`: older events summarised for the LLM (they stay on the timeline). */
  | { type: 'condensation'; key: string; summary: string | null; forgotten: number; timestamp: string }
  /** Ours: it went on in a new sandbox after its own was lost; `detail` says what did not carry over. */
  | { type: 'continued'; key: string; detail: string; timestamp: string }
  | { type: 'other'; key: string; kind: string; timestamp: string };

/** A tool the agent had, and the MCP server it came from (our agent server says; others do not). */
export interface AgentTool {
  name: string;
  server: string | null;
}

/** The tools of a `SystemPromptEvent`: OpenAI function tools, ours with `mcp_server` for an MCP server's. */
function toolsOf(tools: readonly unknown[]): AgentTool[] {
  return tools.flatMap((tool) => {
    const parsed = agentToolSchema.safeParse(tool);
    return parsed.success ? [{ name: parsed.data.function.name, server: parsed.data.mcp_server ?? null }] : [];
  });
}

const texts = (content: readonly { type: string; text?: string }[]) =>
  content
    .flatMap((part) => (part.type === 'text' && part.text ? [part.text] : []))
    .join('\n')
    .trim();

export const messageText = (event: MessageEvent) => texts(event.llm_message.content);

function observationOutcome(event: ObservationEvent): ActionOutcome {
  const { observation } = event;
  const exitCode = typeof observation.exit_code === 'number' ? observation.exit_code : null;
  return {
    kind: 'observation',
    output: texts(observation.content),
    exitCode,
    isError: observation.is_error || (exitCode !== null && exitCode !== 0),
    edit: fileEdit(event),
  };
}

function statusOf(outcome: ActionOutcome | null, execution: ExecutionStatus | null): ActionStatus {
  if (outcome?.kind === 'observation') {
    if (outcome.exitCode === INTERRUPTED_EXIT_CODE) return 'interrupted';
    return outcome.isError ? 'failed' : 'done';
  }
  if (outcome) return outcome.kind;
  if (execution === 'waiting_for_confirmation') return 'waiting';
  return execution === 'running' ? 'running' : 'pending';
}

/** What each `ConversationErrorEvent` code means to a person (the codes are in src/contract/events.ts). */
export const ERROR_TITLES: Record<string, MessageDescriptor> = {
  LLM_AUTH: msg`The LLM rejected the key`,
  LLM_UNAVAILABLE: msg`The LLM is not responding`,
  LLM_CONTEXT: msg`The conversation outgrew the model's context`,
  LLM_ERROR: msg`The LLM call failed`,
  NO_MODEL: msg`No LLM model is set`,
  MAX_ITERATIONS: msg`Stopped at the iteration limit`,
  BUDGET_EXCEEDED: msg`Stopped: the budget is spent`,
  MCP_UNAVAILABLE: msg`An MCP server is not available`,
};

/** Observations, rejections and tool errors, by the action each responds to. */
function outcomesByAction(events: readonly ReceivedEvent[]) {
  const byActionId = new Map<string, ActionOutcome>();
  const byToolCall = new Map<string, ActionOutcome>();
  for (const { known } of events) {
    if (known?.kind === 'ObservationEvent') byActionId.set(known.action_id, observationOutcome(known));
    if (known?.kind === 'UserRejectObservation') byActionId.set(known.action_id, { kind: 'rejected', reason: known.rejection_reason });
    if (known?.kind === 'AgentErrorEvent' && known.tool_call_id) byToolCall.set(known.tool_call_id, { kind: 'error', error: known.error });
  }
  return { byActionId, byToolCall };
}

/** Bookkeeping a person need not see: a request to summarise, state updates a server stored. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- the SDK's event kinds
const HIDDEN_KINDS = new Set(['CondensationRequest', 'ConversationStateUpdateEvent']);

export function buildTimeline(events: readonly ReceivedEvent[], execution: ExecutionStatus | null): TimelineItem[] {
  const { byActionId, byToolCall } = outcomesByAction(events);
  const actionIds = new Set<string>();
  const toolCallIds = new Set<string>();
  const items: TimelineItem[] = [];
  const servers = new Map<string, string>();
  for (const { event, known } of events) {
    const key = event.id;
    if (HIDDEN_KINDS.has(event.kind)) continue;
    if (!known) {
      items.push({ type: 'other', key, kind: event.kind, timestamp: event.timestamp });
      continue;
    }
    switch (known.kind) {
      case 'MessageEvent': {
        const text = messageText(known);
        const images = imageUrlsOf(known.llm_message.content);
        if (text || images.length > 0)
          items.push({
            type: 'message',
            key,
            role: known.llm_message.role === 'user' ? 'user' : 'agent',
            text,
            images,
            timestamp: known.timestamp,
          });
        break;
      }
      case 'ActionEvent': {
        actionIds.add(known.id);
        toolCallIds.add(known.tool_call_id);
        const outcome = byActionId.get(known.id) ?? byToolCall.get(known.tool_call_id) ?? null;
        const message = known.action?.kind === 'FinishAction' ? known.action.message : undefined;
        if (typeof message === 'string') items.push({ type: 'finish', key, text: message, timestamp: known.timestamp });
        else
          items.push({
            type: 'action',
            key,
            action: known,
            status: statusOf(outcome, execution),
            outcome,
            server: known.action?.kind === 'MCPToolAction' ? (servers.get(known.tool_name) ?? null) : null,
          });
        break;
      }
      case 'ObservationEvent':
        if (!actionIds.has(known.action_id))
          items.push({ type: 'observation', key, toolName: known.tool_name, outcome: observationOutcome(known) });
        break;
      case 'UserRejectObservation':
        if (!actionIds.has(known.action_id))
          items.push({
            type: 'observation',
            key,
            toolName: known.tool_name,
            outcome: { kind: 'rejected', reason: known.rejection_reason },
          });
        break;
      case 'AgentErrorEvent': {
        const { tool_name: tool } = known;
        if (!toolCallIds.has(known.tool_call_id))
          items.push({
            type: 'error',
            key,
            code: null,
            title: msg`The agent hit an error (${tool})`,
            detail: known.error,
            timestamp: known.timestamp,
          });
        break;
      }
      case 'ConversationErrorEvent':
        items.push({
          type: 'error',
          key,
          code: known.code,
          title: ERROR_TITLES[known.code] ?? known.code,
          detail: known.detail,
          timestamp: known.timestamp,
        });
        break;
      case 'PauseEvent':
        items.push({ type: 'paused', key, bySandbox: known.reason === 'sandbox_paused', timestamp: known.timestamp });
        break;
      case 'Condensation':
        items.push({
          type: 'condensation',
          key,
          summary: known.summary,
          forgotten: known.forgotten_event_ids.length,
          timestamp: known.timestamp,
        });
        break;
      case 'ContinuedInNewSandboxEvent':
        items.push({ type: 'continued', key, detail: known.detail, timestamp: known.timestamp });
        break;
      case 'SystemPromptEvent': {
        const tools = toolsOf(known.tools);
        for (const tool of tools) if (tool.server) servers.set(tool.name, tool.server);
        items.push({ type: 'system-prompt', key, text: known.system_prompt.text, tools });
        break;
      }
    }
  }
  return items;
}

/** The actions waiting for the user's approval (the agent server confirms or rejects them together). */
export const waitingActions = (items: readonly TimelineItem[]) =>
  items.filter((item): item is Extract<TimelineItem, { type: 'action' }> => item.type === 'action' && item.status === 'waiting');

/** What the file editor's command does to the file at `path`. */
const FILE_EDITS: Record<string, (path: string) => MessageDescriptor> = {
  view: (path) => msg`View ${path}`,
  create: (path) => msg`Create ${path}`,
  str_replace: (path) => msg`Edit ${path}`,
  insert: (path) => msg`Insert into ${path}`,
  undo_edit: (path) => msg`Undo the last edit of ${path}`,
};

export interface ActionSummary {
  tool: 'terminal' | 'file' | 'mcp' | 'other';
  /** The command, or what is done to which file, or the tool and its arguments. */
  text: string;
}

/** One line that says what an action does, in the words of `translate`; an MCP tool's with its server (`server`) when known. */
export function summarizeAction(
  { action, tool_name, tool_call }: ActionEvent,
  translate: (message: MessageDescriptor) => string,
  server: string | null = null,
): ActionSummary {
  const fields = (action ?? {}) as Record<string, unknown>;
  if (action?.kind === 'MCPToolAction') {
    return { tool: 'mcp', text: `${server ? `${server} › ` : ''}${tool_name} ${JSON.stringify(fields.data ?? {})}` };
  }
  if (action?.kind === 'TerminalAction' && typeof fields.command === 'string') return { tool: 'terminal', text: fields.command };
  if (action?.kind === 'FileEditorAction' && typeof fields.path === 'string') {
    const { command } = fields;
    const path = fields.path;
    const edit = typeof command === 'string' ? FILE_EDITS[command] : FILE_EDITS.str_replace;
    // A command of no known meaning is named as it came.
    return { tool: 'file', text: edit ? translate(edit(path)) : `${String(command)} ${path}` };
  }
  return { tool: 'other', text: `${tool_name} ${tool_call.arguments}`.trim() };
}
