/** What the fake needs of an event to page through it. */
export interface PagedEvent {
  id: string;
  timestamp: string;
}

/**
 * One page of OpenHands' `GET /api/v1/events/search` (sort_order TIMESTAMP) as the pinned commit
 * returns it: the page id names the first event of the next page, but the next page starts after
 * it, so one event is skipped at every page boundary.
 */
export function openHandsEventPage<E extends PagedEvent>(
  events: readonly E[],
  { since, limit = 100, pageId }: { since?: string; limit?: number; pageId?: string },
): { items: E[]; next_page_id: string | null } {
  const newer = events.filter((event) => !since || event.timestamp >= since);
  const start = pageId ? newer.findIndex((event) => event.id === pageId) + 1 : 0;
  const next = newer[start + limit];
  return { items: newer.slice(start, start + limit), next_page_id: next ? next.id : null };
}
