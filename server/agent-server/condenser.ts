import { type AgentEvent, type Condensation, CONTINUED_IN_NEW_SANDBOX, condensationSchema } from '../../src/contract/events';
import type { CondenserSettings } from './contract';
import { newEvent } from './event-factory';
import { eventText, TOOL_RESULT_KINDS } from './history';
import type { Model } from './model';

/*
 * OpenHands' LLM-summarising condenser (the SDK's LLMSummarizingCondenser and View): once the
 * history the LLM is given holds more than `max_size` events, or the LLM said its context is
 * full (a CondensationRequest), the events after the first `keep_first` up to the newest half are
 * forgotten and summarised by the LLM in a `Condensation` event; the LLM is given the summary in
 * their place from then on. Every event stays stored and shown.
 */

/** Kinds the LLM is given (the SDK's LLMConvertibleEvent, and ours saying it goes on in a new sandbox); pauses, errors and condensations are not. */
const FOR_THE_LLM = new Set([
  'SystemPromptEvent',
  'MessageEvent',
  'ActionEvent',
  'ObservationEvent',
  'UserRejectObservation',
  'AgentErrorEvent',
  'CondensationSummaryEvent',
  CONTINUED_IN_NEW_SANDBOX,
]);

/** What the LLM is given of a history (SDK `View`). */
export interface View {
  events: AgentEvent[];
  /** The LLM said its context is full since the last condensation. */
  unhandledRequest: boolean;
  /** The summary of the latest condensation, as it stands in `events`. */
  summary: string | null;
}

/** The events of one LLM response go or stay together: a call never loses its reply. */
function withWholeResponses(events: readonly AgentEvent[], forgotten: Set<string>): Set<string> {
  const byResponse = new Map<string, string[]>();
  for (const event of events) {
    if (event.kind !== 'ActionEvent') continue;
    const response = String(event.llm_response_id);
    byResponse.set(response, [...(byResponse.get(response) ?? []), event.id]);
  }
  const all = new Set(forgotten);
  for (const ids of byResponse.values()) if (ids.some((id) => forgotten.has(id))) for (const id of ids) all.add(id);
  return all;
}

/** Actions without their result and results without their action are left out (the API wants pairs). */
function pairedOnly(events: AgentEvent[]): AgentEvent[] {
  const calls = new Set(events.filter((event) => event.kind === 'ActionEvent').map((event) => event.tool_call_id));
  const results = new Set(events.filter((event) => TOOL_RESULT_KINDS.has(event.kind)).map((event) => event.tool_call_id));
  return events.filter((event) => {
    if (event.kind === 'ActionEvent') return results.has(event.tool_call_id);
    if (TOOL_RESULT_KINDS.has(event.kind)) return calls.has(event.tool_call_id);
    return true;
  });
}

/** The view of `history` the LLM is given, after every condensation in it. */
export function viewOf(history: readonly AgentEvent[]): View {
  const forgotten = new Set<string>();
  let latest: Condensation | undefined;
  let unhandledRequest = false;
  for (const event of history) {
    const condensation = event.kind === 'Condensation' ? condensationSchema.safeParse(event) : undefined;
    if (condensation?.success) {
      for (const id of condensation.data.forgotten_event_ids) forgotten.add(id);
      forgotten.add(event.id);
      latest = condensation.data;
      unhandledRequest = false;
    } else if (event.kind === 'CondensationRequest') {
      forgotten.add(event.id);
      unhandledRequest = true;
    }
  }
  const gone = withWholeResponses(history, forgotten);
  const kept = history.filter((event) => !gone.has(event.id) && FOR_THE_LLM.has(event.kind));
  const summary = latest?.summary ?? null;
  if (latest && summary !== null && latest.summary_offset !== null) {
    kept.splice(latest.summary_offset, 0, {
      kind: 'CondensationSummaryEvent',
      id: `summary-${latest.id}`,
      timestamp: latest.timestamp,
      source: 'environment',
      summary,
    });
  }
  return { events: pairedOnly(kept), unhandledRequest, summary };
}

export const shouldCondense = (view: View, settings: CondenserSettings) => view.unhandledRequest || view.events.length > settings.max_size;

/** The SDK's summarising prompt, with the previous summary and the events to forget. */
function summarisingPrompt(previous: string | null, events: AgentEvent[]): string {
  return [
    'You are maintaining a context-aware state summary for an interactive agent.',
    'You will be given a list of events corresponding to actions taken by the agent, and the most recent previous summary if one exists.',
    '',
    'Track:',
    'USER_CONTEXT: (Preserve essential user requirements, goals, and clarifications in concise form)',
    'COMPLETED: (Tasks completed so far, with brief results)',
    'PENDING: (Tasks that still need to be done)',
    'CURRENT_STATE: (Current variables, data structures, or relevant state)',
    '',
    'For code-specific tasks, also include:',
    'CODE_STATE: {File paths, function signatures, data structures}',
    'TESTS: {Failing cases, error messages, outputs}',
    'CHANGES: {Code edits, variable updates}',
    'DEPS: {Dependencies, imports, external calls}',
    'VERSION_CONTROL_STATUS: {Repository state, current branch, PR status, commit history}',
    '',
    'PRIORITIZE: the user requirements and goals; completed against pending tasks; keep every section concise and relevant.',
    '',
    '<PREVIOUS SUMMARY>',
    previous ?? '',
    '</PREVIOUS SUMMARY>',
    '',
    ...events.flatMap((event) => ['<EVENT>', `${event.kind} (${event.source}): ${eventText(event)}`, '</EVENT>']),
    '',
    'Now summarize the events using the rules above.',
  ].join('\n');
}

/**
 * The `Condensation` of `view`: the events between the first `keep_first` and the newest half
 * (of `max_size`, or of the view after a request) are forgotten and summarised by `model`.
 * `undefined` when there is nothing between them to forget.
 */
export async function condense(view: View, settings: CondenserSettings, model: Model, signal: AbortSignal) {
  const target = view.unhandledRequest ? Math.floor(view.events.length / 2) : Math.floor(settings.max_size / 2);
  const head = view.events.slice(0, settings.keep_first);
  // At least one: the SDK's slice to `-0` would forget nothing, and a full context would stay full.
  const fromTail = Math.max(1, target - head.length - 1);
  const forgotten = view.events.slice(settings.keep_first, -fromTail).filter((event) => event.kind !== 'CondensationSummaryEvent');
  if (forgotten.length === 0) return undefined;
  const reply = await model.complete(
    { messages: [{ role: 'user', content: summarisingPrompt(view.summary, forgotten) }], tools: [] },
    () => undefined,
    signal,
  );
  return {
    reply,
    event: newEvent('Condensation', 'environment', {
      forgotten_event_ids: forgotten.map((event) => event.id),
      summary: reply.text,
      summary_offset: settings.keep_first,
      llm_response_id: reply.responseId,
    }),
  };
}
