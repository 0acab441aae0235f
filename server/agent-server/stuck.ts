import type { AgentEvent } from '../../src/contract/events';
import { TOOL_RESULT_KINDS } from './history';

/*
 * OpenHands' stuck detection (the SDK's StuckDetector): since the user's last message, the agent
 * repeats itself — the same action with the same result four times, the same action failing
 * three times, three messages of its own in a row, or two actions taking turns six times.
 */

/** What two events must share to count as the same step: their content, not their ids or times. */
function sameness(event: AgentEvent): string {
  switch (event.kind) {
    case 'ActionEvent':
      return JSON.stringify([event.kind, event.source, event.thought, event.action, event.tool_name]);
    case 'ObservationEvent':
      return JSON.stringify([event.kind, event.source, event.observation, event.tool_name]);
    case 'AgentErrorEvent':
      return JSON.stringify([event.kind, event.source, event.error]);
    case 'MessageEvent':
      return JSON.stringify([event.kind, event.source, event.llm_message]);
    default: {
      const { id: _id, timestamp: _timestamp, ...rest } = event;
      return JSON.stringify(rest);
    }
  }
}

const allSame = (events: AgentEvent[]) => events.every((event) => sameness(event) === sameness(events[0]!));

/** The last `count` actions and observations (newest first), wherever they are among `events`. */
function lastSteps(events: readonly AgentEvent[], count: number, isObservation: (event: AgentEvent) => boolean) {
  const actions: AgentEvent[] = [];
  const observations: AgentEvent[] = [];
  for (const event of [...events].reverse()) {
    if (event.kind === 'ActionEvent' && actions.length < count) actions.push(event);
    else if (isObservation(event) && observations.length < count) observations.push(event);
    if (actions.length === count && observations.length === count) break;
  }
  return { actions, observations };
}

function repeatsActionAndObservation(events: readonly AgentEvent[]): boolean {
  const { actions, observations } = lastSteps(events, 4, (event) => TOOL_RESULT_KINDS.has(event.kind));
  return actions.length === 4 && observations.length === 4 && allSame(actions) && allSame(observations);
}

function repeatsActionAndError(events: readonly AgentEvent[]): boolean {
  const { actions, observations } = lastSteps(events, 4, (event) => TOOL_RESULT_KINDS.has(event.kind));
  if (actions.length < 3 || observations.length < 3) return false;
  return allSame(actions.slice(0, 3)) && observations.slice(0, 3).every((event) => event.kind === 'AgentErrorEvent');
}

function monologue(events: readonly AgentEvent[]): boolean {
  let messages = 0;
  for (const event of [...events].reverse()) {
    if (event.kind === 'MessageEvent' && event.source === 'agent') messages++;
    else if (event.kind !== 'CondensationSummaryEvent') break;
  }
  return messages >= 3;
}

function alternates(events: readonly AgentEvent[]): boolean {
  if (events.length < 6) return false;
  const { actions: a, observations: o } = lastSteps(
    events,
    6,
    (event) => event.kind === 'ObservationEvent' || event.kind === 'AgentErrorEvent',
  );
  if (a.length < 6 || o.length < 6) return false;
  const same = (list: AgentEvent[], i: number, j: number) => sameness(list[i]!) === sameness(list[j]!);
  const pattern = (list: AgentEvent[]) => same(list, 0, 2) && same(list, 0, 4) && same(list, 1, 3) && same(list, 1, 5);
  return pattern(a) && pattern(o);
}

/** Whether the agent is stuck in a loop since the user's last message (none yet: it is not). */
export function isStuck(history: readonly AgentEvent[]): boolean {
  const lastUserMessage = history.findLastIndex((event) => event.kind === 'MessageEvent' && event.source === 'user');
  if (lastUserMessage === -1) return false;
  const events = history.slice(lastUserMessage + 1);
  if (events.length < 3) return false;
  return repeatsActionAndObservation(events) || repeatsActionAndError(events) || monologue(events) || alternates(events);
}
