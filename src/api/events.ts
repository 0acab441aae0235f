import { t } from '@lingui/core/macro';
import * as z from 'zod/mini';
import {
  type AgentEvent,
  type ConversationState,
  conversationStateSchema,
  eventPageSchema,
  eventSchema,
  type StreamingDelta,
  streamingDeltaSchema,
  type TerminalOutput,
  terminalOutputSchema,
} from '../contract/events';
import { acceptLanguage, apiRequest } from './client';
import { ApiError, errorFromResponse, isAbort } from './errors';
import { getSession } from './session';
import { createParser, type EventSourceParser } from 'eventsource-parser';

export interface EventFilters {
  conversationId: string;
  kind?: string;
  /** ISO date-times. */
  from?: string;
  before?: string;
}

function filterQuery({ conversationId, kind, from, before }: EventFilters): URLSearchParams {
  const query = new URLSearchParams({ conversation_id__eq: conversationId });
  if (kind) query.set('kind__eq', kind);
  if (from) query.set('timestamp__gte', from);
  if (before) query.set('timestamp__lt', before);
  return query;
}

/** How many stored events match: exactly what search pages through. */
export function countEvents(filters: EventFilters, signal?: AbortSignal) {
  return apiRequest(`/api/v1/events/count?${filterQuery(filters)}`, { schema: z.number(), signal });
}

/** What the event stream carries: stored events, and transient state changes, partial text and a running command's output. */
export type StreamFrame =
  | { type: 'event'; event: AgentEvent }
  | { type: 'state'; state: ConversationState }
  | { type: 'delta'; delta: StreamingDelta }
  | { type: 'terminal'; output: TerminalOutput };

export type StreamConnection =
  | { state: 'connecting' }
  | { state: 'open' }
  /** Lost (or never made): it tries again by itself. */
  | { state: 'retrying'; error: ApiError }
  /** Given up: the conversation is not there. */
  | { state: 'failed'; error: ApiError };

export interface StreamOptions {
  /** Only the stored events after this one (then live); every stored event when absent. */
  lastEventId?: string;
  /** Ends the stream; `streamEvents` then resolves. */
  signal: AbortSignal;
  onFrame: (frame: StreamFrame) => void;
  onConnection?: (connection: StreamConnection) => void;
  /** How long to wait before try number `attempt` (1, 2, …) after a drop. */
  retryDelay?: (attempt: number) => number;
}

const BACKOFF_MS = [500, 1000, 2000, 5000, 10_000];
const defaultRetryDelay = (attempt: number) => BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!;

/** The frame a stream message's data holds, or `null` for one this console does not know. */
function toFrame(data: string): StreamFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const kind = value && typeof value === 'object' ? (value as { kind?: unknown }).kind : undefined;
  if (kind === 'ConversationState') {
    const state = conversationStateSchema.safeParse(value);
    return state.success ? { type: 'state', state: state.data } : null;
  }
  if (kind === 'StreamingDelta') {
    const delta = streamingDeltaSchema.safeParse(value);
    return delta.success ? { type: 'delta', delta: delta.data } : null;
  }
  if (kind === 'TerminalOutput') {
    const output = terminalOutputSchema.safeParse(value);
    return output.success ? { type: 'terminal', output: output.data } : null;
  }
  const event = eventSchema.safeParse(value);
  return event.success ? { type: 'event', event: event.data } : null;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done(); // no event comes for a signal aborted already
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/**
 * Reads a conversation's event stream (`text/event-stream`) with `fetch`, so the session key
 * travels in a header and never in a URL. After a drop it reconnects by itself, from the last
 * stored event it saw (`Last-Event-ID`). A refused key (401) is retried like any other failure
 * and never signs anyone out: the stream is a view of the conversation, not the session's judge.
 */
export async function streamEvents(conversationId: string, options: StreamOptions): Promise<void> {
  const { signal, onFrame, onConnection = () => {}, retryDelay = defaultRetryDelay } = options;
  let lastEventId = options.lastEventId;
  let attempt = 0;
  const parser = () =>
    createParser({
      onEvent: (message) => {
        const frame = toFrame(message.data);
        if (message.id) lastEventId = message.id;
        else if (frame?.type === 'event') lastEventId = frame.event.id;
        if (frame) onFrame(frame);
      },
    });

  while (!signal.aborted) {
    onConnection({ state: 'connecting' });
    try {
      await readOnce(conversationId, lastEventId, signal, parser(), () => {
        attempt = 0;
        onConnection({ state: 'open' });
      });
      if (signal.aborted) return;
      // The server ended the stream (a restart, a proxy's timeout): connect again.
      throw new ApiError(t`The event stream ended`, 'network', 0);
    } catch (error) {
      if (signal.aborted || isAbort(error)) return;
      const failure = error instanceof ApiError ? error : new ApiError(t`The event stream broke off`, 'network', 0);
      if (failure.kind === 'http' && failure.status === 404) {
        onConnection({ state: 'failed', error: failure });
        return;
      }
      onConnection({ state: 'retrying', error: failure });
      attempt += 1;
      await wait(retryDelay(attempt), signal);
    }
  }
}

export interface PollOptions {
  signal: AbortSignal;
  onFrame: (frame: StreamFrame) => void;
  onConnection?: (connection: StreamConnection) => void;
  /** How long to wait between two looks for new events. */
  intervalMs?: number;
}

const PAGE_LIMIT = 100;

/**
 * The whole second an event time falls in. OpenHands compares `timestamp__gte` with the second an
 * event is stored under, so a value with a fraction would leave out the rest of its second.
 */
const wholeSecond = (time: string) => time.replace(/\.\d+/, '');

/** The event a page id names, when the page id is OpenHands' event file name (`{second}_{kind}_{id hex}`). */
const eventIdOfPage = (pageId: string) => /_([0-9a-f]{32})$/.exec(pageId)?.[1];

/** One look: every stored event from the second of `since` on, a page at a time; the newest time seen. */
async function readEventsSince(conversationId: string, since: string | undefined, signal: AbortSignal, onFrame: PollOptions['onFrame']) {
  let from = since === undefined ? undefined : wholeSecond(since);
  let pageId: string | undefined;
  let newest = since;
  for (;;) {
    const query = new URLSearchParams({ conversation_id__eq: conversationId, sort_order: 'TIMESTAMP', limit: String(PAGE_LIMIT) });
    if (from) query.set('timestamp__gte', from);
    if (pageId) query.set('page_id', pageId);
    const page = await apiRequest(`/api/v1/events/search?${query}`, { schema: eventPageSchema, signal });
    for (const event of page.items) onFrame({ type: 'event', event });
    const last = page.items.at(-1)?.timestamp;
    newest = last ?? newest;
    if (!page.next_page_id || !last) return newest;
    // OpenHands starts the next page after the event its page id names, skipping that one. So the
    // next page starts at the last event's second instead (repeats are dropped by id); only when a
    // whole page has that one second does the page id move on, and the skipped event is read by id.
    if (wholeSecond(last) !== from) {
      from = wholeSecond(last);
      pageId = undefined;
    } else {
      pageId = page.next_page_id;
      const skipped = eventIdOfPage(pageId);
      if (skipped) {
        const [event] = await apiRequest(`/api/v1/events?${new URLSearchParams({ id: skipped })}`, { schema: eventsByIdSchema, signal });
        if (event) onFrame({ type: 'event', event });
      }
    }
  }
}

const eventsByIdSchema = z.array(z.nullable(eventSchema));

/**
 * A conversation's events for a server without our stream (OpenHands): `/api/v1/events/search`
 * read again every few seconds from the newest event seen. The same frames as `streamEvents`
 * (stored events only; the same event may come twice, as on a stream after a reconnect).
 */
export async function pollEvents(conversationId: string, options: PollOptions): Promise<void> {
  const { signal, onFrame, onConnection = () => {}, intervalMs = 3000 } = options;
  let since: string | undefined;
  // The events seen of the newest second on, by id: when as many are stored from there, a look has
  // nothing new to read, and asks once instead of reading that second again, page by page.
  const recent = new Map<string, string>();
  const seen = (frame: StreamFrame) => {
    if (frame.type === 'event') recent.set(frame.event.id, wholeSecond(frame.event.timestamp));
    onFrame(frame);
  };
  let open = false;
  onConnection({ state: 'connecting' });
  while (!signal.aborted) {
    try {
      const from = since === undefined ? undefined : wholeSecond(since);
      const nothingNew = from !== undefined && (await countEvents({ conversationId, from }, signal)) === recent.size;
      if (!nothingNew) {
        since = await readEventsSince(conversationId, since, signal, seen);
        const newest = since === undefined ? undefined : wholeSecond(since);
        for (const [id, second] of recent) if (newest !== undefined && second < newest) recent.delete(id);
      }
      // Said once per change, not at every look: each one would re-render the page.
      if (!open) onConnection({ state: 'open' });
      open = true;
    } catch (error) {
      if (signal.aborted || isAbort(error)) return;
      open = false;
      onConnection({
        state: 'retrying',
        error: error instanceof ApiError ? error : new ApiError(t`Reading the events failed`, 'network', 0),
      });
    }
    await wait(intervalMs, signal);
  }
}

async function readOnce(
  conversationId: string,
  lastEventId: string | undefined,
  signal: AbortSignal,
  parser: EventSourceParser,
  onOpen: () => void,
): Promise<void> {
  const session = getSession();
  const headers: Record<string, string> = { accept: 'text/event-stream', 'accept-language': acceptLanguage() };
  if (session?.apiKey) headers['X-Session-API-Key'] = session.apiKey;
  if (lastEventId) headers['Last-Event-ID'] = lastEventId;
  const url = `${session?.baseUrl ?? ''}/api/v1/app-conversations/${encodeURIComponent(conversationId)}/events/stream`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal, cache: 'no-store' });
  } catch (error) {
    if (isAbort(error)) throw error;
    const where = session?.baseUrl;
    throw new ApiError(where ? t`Cannot reach ${where} for live events` : t`Cannot reach the server for live events`, 'network', 0);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: the text is the message.
    }
    throw errorFromResponse(response.status, response.statusText, body);
  }
  if (!response.body) throw new ApiError(t`The event stream has no body`, 'invalid-response', response.status);
  onOpen();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    parser.feed(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}
