import * as z from 'zod/mini';
import { conversationIdSchema, executionStatusSchema, metricsSchema, sendMessageRequestSchema } from './conversations';
import { integer } from './rules';
import { pageQuerySchema, repeatedQueryParam } from './sandboxes';

/*
 * Conversation events, as the agent SDK (v1.3.0) shapes them: every event has `kind` (its class
 * name), `id` (a dashed UUID), `timestamp` and `source`; the rest depends on the kind. The app
 * server stores whatever an agent server sends (other servers' kinds included), so the envelope
 * is loose; the kinds our agent server writes and the console draws are spelled out below.
 *
 * Timestamps: ours are UTC with `Z`; the SDK writes naive local times, read as UTC
 * (`eventTime`).
 */

export const EVENT_SOURCES = ['agent', 'user', 'environment'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

/** Any event: the envelope every kind has, other fields kept as they are. */
export const eventSchema = z.looseObject({
  kind: z.string().check(z.minLength(1), z.maxLength(200)),
  id: z.string().check(z.minLength(1), z.maxLength(100)),
  timestamp: z.string().check(z.minLength(1), z.maxLength(64)),
  source: z.enum(EVENT_SOURCES),
});
export type AgentEvent = z.output<typeof eventSchema>;

/** What a text of an event ends with when the server cut it to store the event (see event-size.ts). */
export const cutNote = (length: number) => `\n… [cut by Agent Console: ${length} characters in all]`;
/** Whether the server cut `text` to store its event: it is not all there. */
export const wasCut = (text: string) => /\n… \[cut by Agent Console: \d+ characters in all\]$/.test(text);

/** An event's time in milliseconds: a naive timestamp (no zone, as the SDK writes) is UTC. */
export function eventTime(timestamp: string): number {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(timestamp) ? timestamp : `${timestamp}Z`;
  return Date.parse(zoned);
}

/**
 * An event time in UTC as ISO 8601 writes it with microseconds (`2026-12-01T10:00:00.123456Z`),
 * as the agent servers stamp events: kept to the microsecond, events of one millisecond sort in
 * the order they happened. `undefined` for a time that cannot be read.
 */
export function utcEventTime(timestamp: string): string | undefined {
  const ms = eventTime(timestamp);
  if (Number.isNaN(ms)) return undefined;
  // A zone moves hours and minutes only: the fraction's digits past the millisecond stay as written.
  const micros = /T[\d:]+\.\d{3}(\d{1,3})/.exec(timestamp)?.[1] ?? '';
  return `${new Date(ms).toISOString().slice(0, -1)}${micros.padEnd(3, '0')}Z`;
}

export const textContentSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  cache_prompt: z._default(z.boolean(), false),
});
export type TextContent = z.output<typeof textContentSchema>;

const imageContentSchema = z.object({
  type: z.literal('image'),
  image_urls: z.array(z.string()),
  cache_prompt: z._default(z.boolean(), false),
});

const toolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** JSON text, as the LLM wrote it. */
  arguments: z.string(),
  origin: z._default(z.enum(['completion', 'responses']), 'completion'),
});

/** SDK `Message` (the fields we use; the SDK's other fields have defaults). */
export const llmMessageSchema = z.looseObject({
  role: z.enum(['user', 'system', 'assistant', 'tool']),
  content: z._default(z.array(z.union([textContentSchema, imageContentSchema])), []),
  tool_calls: z._default(z.nullable(z.array(toolCallSchema)), null),
  tool_call_id: z._default(z.nullable(z.string()), null),
  name: z._default(z.nullable(z.string()), null),
  reasoning_content: z._default(z.nullable(z.string()), null),
});

const base = {
  id: z.string(),
  timestamp: z.string(),
};

export const messageEventSchema = z.looseObject({
  ...base,
  kind: z.literal('MessageEvent'),
  source: z.enum(EVENT_SOURCES),
  llm_message: llmMessageSchema,
  llm_response_id: z._default(z.nullable(z.string()), null),
  activated_skills: z._default(z.array(z.string()), []),
  extended_content: z._default(z.array(textContentSchema), []),
  sender: z._default(z.nullable(z.string()), null),
});
export type MessageEvent = z.output<typeof messageEventSchema>;

/* The tools our agent has, with the SDK's names and shapes. */

export const terminalActionSchema = z.looseObject({
  kind: z.literal('TerminalAction'),
  command: z.string(),
  is_input: z._default(z.boolean(), false),
  /** Seconds; `null`: the terminal's default. */
  timeout: z._default(z.nullable(z.number()), null),
  reset: z._default(z.boolean(), false),
});

export const FILE_EDITOR_COMMANDS = ['view', 'create', 'str_replace', 'insert', 'undo_edit'] as const;

export const fileEditorActionSchema = z.looseObject({
  kind: z.literal('FileEditorAction'),
  command: z.enum(FILE_EDITOR_COMMANDS),
  path: z.string(),
  file_text: z._default(z.nullable(z.string()), null),
  old_str: z._default(z.nullable(z.string()), null),
  new_str: z._default(z.nullable(z.string()), null),
  insert_line: z._default(z.nullable(integer()), null),
  view_range: z._default(z.nullable(z.array(integer())), null),
});

export const finishActionSchema = z.looseObject({ kind: z.literal('FinishAction'), message: z.string() });

/** An action's own fields; other agent servers' kinds are kept as they are. */
export const actionSchema = z.looseObject({ kind: z.string() });

export const actionEventSchema = z.looseObject({
  ...base,
  kind: z.literal('ActionEvent'),
  source: z.literal('agent'),
  thought: z._default(z.array(textContentSchema), []),
  reasoning_content: z._default(z.nullable(z.string()), null),
  action: z.nullable(actionSchema),
  tool_name: z.string(),
  tool_call_id: z.string(),
  tool_call: toolCallSchema,
  llm_response_id: z.string(),
  security_risk: z._default(z.string(), 'UNKNOWN'),
});
export type ActionEvent = z.output<typeof actionEventSchema>;

/**
 * An observation's own fields. `TerminalObservation` adds `command`, `exit_code` (`-1` when it
 * timed out) and `timeout`; `FileEditorObservation` adds `command`, `path`, `prev_exist`,
 * `old_content`, `new_content`; `FinishObservation` nothing.
 */
export const observationSchema = z.looseObject({
  kind: z.string(),
  content: z._default(z.array(z.union([textContentSchema, imageContentSchema])), []),
  is_error: z._default(z.boolean(), false),
  command: z.optional(z.nullable(z.string())),
  exit_code: z.optional(z.nullable(integer())),
  timeout: z.optional(z.boolean()),
  path: z.optional(z.nullable(z.string())),
  old_content: z.optional(z.nullable(z.string())),
  new_content: z.optional(z.nullable(z.string())),
});

export const observationEventSchema = z.looseObject({
  ...base,
  kind: z.literal('ObservationEvent'),
  source: z.literal('environment'),
  tool_name: z.string(),
  tool_call_id: z.string(),
  observation: observationSchema,
  action_id: z.string(),
});
export type ObservationEvent = z.output<typeof observationEventSchema>;

export const userRejectObservationSchema = z.looseObject({
  ...base,
  kind: z.literal('UserRejectObservation'),
  /** The SDK's is `environment` (an observation's); ours wrote `user` before, and stored events keep it. */
  source: z.enum(['environment', 'user']),
  tool_name: z.string(),
  tool_call_id: z.string(),
  rejection_reason: z._default(z.string(), 'User rejected the action'),
  action_id: z.string(),
});

export const agentErrorEventSchema = z.looseObject({
  ...base,
  kind: z.literal('AgentErrorEvent'),
  source: z.literal('agent'),
  tool_name: z.string(),
  tool_call_id: z.string(),
  error: z.string(),
});

/**
 * SDK `ConversationErrorEvent`: the conversation could not go on. Our codes: `LLM_AUTH` (the
 * LLM rejected the key), `LLM_UNAVAILABLE` (rate limit or server errors, after retries),
 * `LLM_CONTEXT` (the conversation outgrew the model's context), `LLM_ERROR` (any other LLM
 * failure), `NO_MODEL`, `MAX_ITERATIONS`, `BUDGET_EXCEEDED`.
 */
export const conversationErrorEventSchema = z.looseObject({
  ...base,
  kind: z.literal('ConversationErrorEvent'),
  source: z.enum(EVENT_SOURCES),
  code: z.string(),
  detail: z.string(),
});

export const pauseEventSchema = z.looseObject({
  ...base,
  kind: z.literal('PauseEvent'),
  source: z.literal('user'),
  /** Ours: `sandbox_paused` when the sandbox was paused under a run (absent when a person paused it). */
  reason: z.optional(z.string()),
});

/** A tool the agent was given: an OpenAI function tool; ours add `mcp_server` to an MCP server's. */
export const agentToolSchema = z.looseObject({
  function: z.looseObject({ name: z.string() }),
  mcp_server: z.optional(z.string()),
});

export const systemPromptEventSchema = z.looseObject({
  ...base,
  kind: z.literal('SystemPromptEvent'),
  source: z.literal('agent'),
  system_prompt: textContentSchema,
  /** Read one by one (`agentToolSchema`): another server's may be shaped otherwise. */
  tools: z._default(z.array(z.unknown()), []),
});

/** SDK `Condensation`: the events it forgets are given to the LLM as `summary` from then on (they stay stored). */
export const condensationSchema = z.looseObject({
  ...base,
  kind: z.literal('Condensation'),
  forgotten_event_ids: z._default(z.array(z.string()), []),
  summary: z._default(z.nullable(z.string()), null),
  summary_offset: z._default(z.nullable(integer()), null),
});
export type Condensation = z.output<typeof condensationSchema>;

/**
 * SDK `ConversationStateUpdateEvent`: sent on the event WebSocket, never stored with the events.
 * `key` is `full_state` (value: the conversation's info, as `GET /api/conversations/{id}`
 * returns it), `execution_status` (value: the status) or `metrics` (ours; value: the metrics).
 */
export const stateUpdateEventSchema = z.looseObject({
  ...base,
  kind: z.literal('ConversationStateUpdateEvent'),
  source: z.literal('environment'),
  key: z.string(),
  value: z.unknown(),
});
export type StateUpdateEvent = z.output<typeof stateUpdateEventSchema>;

/**
 * Ours: the conversation went on in a new sandbox after its own was lost. The workspace was made
 * again (the repository cloned at its branch); `detail` says what did not carry over.
 */
export const CONTINUED_IN_NEW_SANDBOX = 'ContinuedInNewSandboxEvent';
export const continuedInNewSandboxSchema = z.looseObject({
  ...base,
  kind: z.literal(CONTINUED_IN_NEW_SANDBOX),
  previous_sandbox_id: z.string(),
  repository: z.nullable(z.string()),
  branch: z.nullable(z.string()),
  detail: z.string(),
});
export type ContinuedInNewSandbox = z.output<typeof continuedInNewSandboxSchema>;

/** The events our agent server stores, by kind (for drawing them; storage takes any `eventSchema`). */
export const knownEventSchema = z.discriminatedUnion('kind', [
  messageEventSchema,
  actionEventSchema,
  observationEventSchema,
  userRejectObservationSchema,
  agentErrorEventSchema,
  conversationErrorEventSchema,
  pauseEventSchema,
  systemPromptEventSchema,
  condensationSchema,
  continuedInNewSandboxSchema,
]);
export type KnownEvent = z.output<typeof knownEventSchema>;

/**
 * Partial text of an LLM reply while it streams (ours): sent on the event WebSocket and the
 * app server's event stream, never stored. The `MessageEvent` with the same `llm_response_id`
 * replaces it.
 */
export const streamingDeltaSchema = z.object({
  kind: z.literal('StreamingDelta'),
  conversation_id: z.string(),
  llm_response_id: z.string(),
  /** The text so far is the concatenation of every delta with this response id. */
  delta: z.string(),
});
export type StreamingDelta = z.output<typeof streamingDeltaSchema>;

/**
 * Output of a terminal command while it runs (ours; the SDK's agent server sends none): sent on
 * the event WebSocket and the app server's event stream, never stored. The action's
 * `ObservationEvent` holds the whole output and replaces it.
 */
export const terminalOutputSchema = z.object({
  kind: z.literal('TerminalOutput'),
  conversation_id: z.string(),
  /** The `ActionEvent` whose command writes it. */
  action_id: z.string(),
  /** The output so far is the concatenation of every piece with this action id. */
  output: z.string(),
  /** The output so far whole (to a listener that starts while the command runs): it replaces the pieces before. */
  whole: z.optional(z.boolean()),
});
export type TerminalOutput = z.output<typeof terminalOutputSchema>;

/** The transient frames of text that grows (a reply, a command's output), and the field that holds each piece. */
export type LiveText = StreamingDelta | TerminalOutput;
export const liveTextField = (frame: LiveText) => (frame.kind === 'StreamingDelta' ? 'delta' : 'output');

/** A state update as the app server's stream relays it (ours): what changed of the conversation. */
export const conversationStateSchema = z.object({
  kind: z.literal('ConversationState'),
  conversation_id: z.string(),
  execution_status: z.nullable(executionStatusSchema),
  metrics: z.nullable(metricsSchema),
});
export type ConversationState = z.output<typeof conversationStateSchema>;

export const eventPageSchema = z.object({ items: z.array(eventSchema), next_page_id: z._default(z.nullable(z.string()), null) });
export type EventPage = z.output<typeof eventPageSchema>;

export const EVENT_SORT_ORDERS = ['TIMESTAMP', 'TIMESTAMP_DESC'] as const;

/** `POST .../events/respond_to_confirmation` on the agent server; `/confirm` on the app server. */
export const confirmationResponseSchema = z.object({
  accept: z.boolean(),
  reason: z._default(z.string().check(z.maxLength(2000)), 'User rejected the action.'),
});
export type ConfirmationResponse = z.output<typeof confirmationResponseSchema>;
/** What a client sends: `reason` may be left out. */
export type Confirmation = z.input<typeof confirmationResponseSchema>;

export { DEMO_MODEL } from './demo-model';

/*
 * The app server's event routes (`/api/v1/events`), as OpenHands has them, and our live stream
 * (`/api/v1/app-conversations/{id}/events/stream`).
 */

/** Bare SDK event class names (OpenHands' `EventKind`), and ours: what `kind__eq` takes. */
export const EVENT_KINDS = [
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'SystemPromptEvent',
  'PauseEvent',
  'Condensation',
  'CondensationRequest',
  'CondensationSummaryEvent',
  'ConversationStateUpdateEvent',
  'ConversationErrorEvent',
  'TokenEvent',
  'LLMCompletionLogEvent',
  // Ours: it went on in a new sandbox.
  CONTINUED_IN_NEW_SANDBOX,
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A date-time in a query, as an event time is stored (`utcEventTime`); one without a zone is UTC, as event times are. */
export const eventTimeQuery = z.pipe(
  z.string().check(z.refine((value) => utcEventTime(value) !== undefined, { error: 'Input should be a valid datetime' })),
  z.transform((value: string) => utcEventTime(value)!),
);

/** The filters `/events/search` and `/events/count` share. Times without a zone are UTC, as event times are. */
export const eventFilterSchema = z.object({
  conversation_id__eq: z.optional(conversationIdSchema),
  kind__eq: z.optional(z.enum(EVENT_KINDS)),
  timestamp__gte: z.optional(eventTimeQuery),
  timestamp__lt: z.optional(eventTimeQuery),
});
export type EventFilter = z.output<typeof eventFilterSchema>;

export const eventSearchQuerySchema = z.extend(pageQuerySchema, {
  ...eventFilterSchema.shape,
  sort_order: z._default(z.enum(EVENT_SORT_ORDERS), 'TIMESTAMP'),
});
export type EventSearchQuery = z.output<typeof eventSearchQuerySchema>;

/** `/events/count` takes a `sort_order` too (OpenHands ignores it). */
export const eventCountQuerySchema = z.extend(eventFilterSchema, { sort_order: z.optional(z.enum(EVENT_SORT_ORDERS)) });

/** `GET /api/v1/events?id=a&id=b`. */
export const eventIdsQuerySchema = z.object({ id: repeatedQueryParam });

/** `POST /api/v1/app-conversations/{id}/send-message` (ours): the agent runs unless `run` is false. */
export const appSendMessageSchema = z.extend(sendMessageRequestSchema, { run: z._default(z.boolean(), true) });
export type AppSendMessage = z.output<typeof appSendMessageSchema>;

export const successSchema = z.object({ success: z.boolean() });

/** `POST /api/v1/webhooks/{sandbox_id}/events/{conversation_id}`. */
export const webhookEventsParamsSchema = z.object({ sandbox_id: z.string(), conversation_id: z.string() });
