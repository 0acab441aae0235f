/** What the fake needs of an event to store and page through it. */
export interface PagedEvent {
  id: string;
  kind: string;
  timestamp: string;
}

/** `YYYYMMDDHHMMSS`: the second an ISO time falls in, as OpenHands names event files. */
const secondOf = (time: string) => time.slice(0, 19).replace(/\D/g, '');

/**
 * The name OpenHands' filesystem event service stores an event under (`{second}_{kind}_{id hex}`):
 * searches order by it, so events of one second come by kind name, not by time.
 */
export const eventFileName = (event: PagedEvent) => `${secondOf(event.timestamp)}_${event.kind}_${event.id.replaceAll('-', '')}`;

/**
 * Whether a file's second is at or after a `timestamp__gte` query value, compared as OpenHands
 * compares them: the file's whole second against the full value, so a later event of the same
 * second as the value is left out. A value with a zone cannot be compared with the naive file time
 * there (Python raises, the response is a 500): it throws here too.
 */
function atOrAfter(fileSecond: string, since: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/.exec(since);
  if (!match) throw new Error(`can't compare offset-naive and offset-aware datetimes: ${since}`);
  const [, ...parts] = match;
  const fraction = (parts.pop() ?? '').padEnd(6, '0');
  return `${fileSecond}000000` >= `${parts.join('')}${fraction}`;
}

/**
 * One page of OpenHands' `GET /api/v1/events/search` (sort_order TIMESTAMP) as the pinned commit
 * returns it: events by file name; the page id is the file name of the first event of the next
 * page, but the next page starts after it, so one event is skipped at every page boundary.
 */
export function openHandsEventPage<E extends PagedEvent>(
  events: readonly E[],
  { since, limit = 100, pageId }: { since?: string; limit?: number; pageId?: string },
): { items: E[]; next_page_id: string | null } {
  const files = matchingEvents(events, since);
  const start = pageId ? files.findIndex((event) => eventFileName(event) === pageId) + 1 : 0;
  const next = files[start + limit];
  return { items: files.slice(start, start + limit), next_page_id: next ? eventFileName(next) : null };
}

/** The events a search or count with `timestamp__gte` finds, in OpenHands' order. */
export function matchingEvents<E extends PagedEvent>(events: readonly E[], since?: string): E[] {
  return events
    .filter((event) => !since || atOrAfter(secondOf(event.timestamp), since))
    .sort((a, b) => (eventFileName(a) < eventFileName(b) ? -1 : eventFileName(a) > eventFileName(b) ? 1 : 0));
}
