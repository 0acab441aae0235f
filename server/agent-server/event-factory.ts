import { randomUUID } from 'node:crypto';
import type { AgentEvent, EventSource } from '../../src/contract/events';

/** A new event of `kind`: a dashed uuid4 id and a UTC timestamp with `Z`. */
export function newEvent<F extends Record<string, unknown>>(kind: string, source: EventSource, fields: F): AgentEvent & F {
  return { kind, id: randomUUID(), timestamp: new Date().toISOString(), source, ...fields };
}

/** A transient `ConversationStateUpdateEvent` (sent on the socket, never stored). */
export const stateUpdate = (key: string, value: unknown) => newEvent('ConversationStateUpdateEvent', 'environment', { key, value });
