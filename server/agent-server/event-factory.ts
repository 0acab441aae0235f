import { randomUUID } from 'node:crypto';
import type { AgentEvent, EventSource } from '../../src/contract/events';

/** The microsecond of the last stamp: stamps of one millisecond count on from it. */
let lastStamp = 0;

/**
 * Now in UTC to the microsecond, as the SDK stamps events: the wall clock's millisecond, and within
 * it the order events were made, so that parallel tool calls' events of one millisecond keep it.
 */
export function stampNow(): string {
  lastStamp = Math.max(Date.now() * 1000, lastStamp + 1);
  const ms = Math.floor(lastStamp / 1000);
  return `${new Date(ms).toISOString().slice(0, -1)}${String(lastStamp % 1000).padStart(3, '0')}Z`;
}

/** A new event of `kind`: a dashed uuid4 id and a UTC timestamp with `Z`. */
export function newEvent<F extends Record<string, unknown>>(kind: string, source: EventSource, fields: F): AgentEvent & F {
  return { kind, id: randomUUID(), timestamp: stampNow(), source, ...fields };
}

/** A transient `ConversationStateUpdateEvent` (sent on the socket, never stored). */
export const stateUpdate = (key: string, value: unknown) => newEvent('ConversationStateUpdateEvent', 'environment', { key, value });
