import * as z from 'zod/mini';
import { type AgentEvent, EVENT_SORT_ORDERS, EVENT_SOURCES, type EventPage, eventTimeQuery, utcEventTime } from '../../src/contract/events';
import { integer } from '../../src/contract/rules';
import { MAX_PAGE_SIZE } from '../../src/contract/sandboxes';

/** `GET /api/conversations/{id}/events/search`, as the agent SDK's server takes it; `limit` is read by the router's lax pre-pass. */
export const eventSearchQuerySchema = z.object({
  /** Module-qualified (`openhands.sdk.event.llm_convertible.message.MessageEvent`) or bare. */
  kind: z.optional(z.string()),
  source: z.optional(z.enum(EVENT_SOURCES)),
  timestamp__gte: z.optional(eventTimeQuery),
  timestamp__lt: z.optional(eventTimeQuery),
  sort_order: z._default(z.enum(EVENT_SORT_ORDERS), 'TIMESTAMP'),
  /** The id of the first event of the page (inclusive). */
  page_id: z.optional(z.string()),
  limit: z._default(integer().check(z.gte(1), z.lte(MAX_PAGE_SIZE)), MAX_PAGE_SIZE),
});
export type EventSearchQuery = z.output<typeof eventSearchQuerySchema>;

/** One page of `events` (stored in order) that match `query`. */
export function searchEvents(events: readonly AgentEvent[], query: EventSearchQuery): EventPage {
  const kind = query.kind?.split('.').at(-1);
  // The query's times are in the form `utcEventTime` writes (eventTimeQuery): compared as text with the events'.
  const from = query.timestamp__gte;
  const before = query.timestamp__lt;
  const matching = events.filter((event) => {
    if (kind !== undefined && event.kind !== kind) return false;
    if (query.source !== undefined && event.source !== query.source) return false;
    const time = utcEventTime(event.timestamp);
    if (from !== undefined && !(time !== undefined && time >= from)) return false;
    if (before !== undefined && !(time !== undefined && time < before)) return false;
    return true;
  });
  // Stored order is time order.
  if (query.sort_order === 'TIMESTAMP_DESC') matching.reverse();
  const start = query.page_id === undefined ? 0 : matching.findIndex((event) => event.id === query.page_id);
  if (start < 0) return { items: [], next_page_id: null };
  const items = matching.slice(start, start + query.limit);
  return { items, next_page_id: matching[start + query.limit]?.id ?? null };
}
