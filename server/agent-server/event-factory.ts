import { randomUUID } from 'node:crypto';
import type { AgentEvent, EventSource } from '../../src/contract/events';

/** Now in UTC to the microsecond, as the SDK stamps events: parallel tool calls' events of one millisecond keep their order. */
function now(): string {
  const at = performance.timeOrigin + performance.now();
  const ms = Math.floor(at);
  const micros = Math.min(999, Math.floor((at - ms) * 1000));
  return `${new Date(ms).toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

/** A new event of `kind`: a dashed uuid4 id and a UTC timestamp with `Z`. */
export function newEvent<F extends Record<string, unknown>>(kind: string, source: EventSource, fields: F): AgentEvent & F {
  return { kind, id: randomUUID(), timestamp: now(), source, ...fields };
}

/** A transient `ConversationStateUpdateEvent` (sent on the socket, never stored). */
export const stateUpdate = (key: string, value: unknown) => newEvent('ConversationStateUpdateEvent', 'environment', { key, value });
