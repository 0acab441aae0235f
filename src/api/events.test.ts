import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeApi, json } from '../testing/fake-api';
import { matchingEvents, openHandsEventPage } from '../../test-support/fake-openhands/event-search';
import { countEvents, pollEvents, type StreamConnection, type StreamFrame, streamEvents } from './events';
import { signIn } from './session';

const event = (id: string, kind = 'MessageEvent') => ({
  kind,
  id,
  timestamp: '2026-11-26T10:00:00Z',
  source: 'agent',
  llm_message: { role: 'assistant', content: [{ type: 'text', text: `hello ${id}` }] },
});

const sse = (data: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

const aborted = () => new DOMException('The operation was aborted', 'AbortError');

/** A streaming response whose chunks the test pushes, and which it can end or break; aborting the request breaks it, as fetch does. */
function streamingResponse() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: (signal: AbortSignal) => {
      signal.addEventListener('abort', () => controller.error(aborted()), { once: true });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    pushBytes: (bytes: Uint8Array) => controller.enqueue(bytes),
    end: () => controller.close(),
    fail: () => controller.error(new TypeError('network error')),
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('countEvents', () => {
  it('sends the filters as the app server names them', async () => {
    const api = fakeApi({ 'GET /api/v1/events/count': () => json(200, 3) });
    expect(await countEvents({ conversationId: 'c1', before: '2026-11-27T00:00:00Z' })).toBe(3);
    expect(api.calls()).toEqual(['GET /api/v1/events/count?conversation_id__eq=c1&timestamp__lt=2026-11-27T00%3A00%3A00Z']);
  });
});

describe('streamEvents', () => {
  /** Each request gets the next response; once they are used up, requests hang until aborted. */
  function setup(responses: ((signal: AbortSignal) => Response)[]) {
    signIn({ apiKey: 'stream-key', baseUrl: 'http://api.test' });
    const fetchMock = vi.fn<typeof fetch>(async (_url, init) => {
      const signal = init!.signal!;
      const next = responses.shift();
      if (next) return next(signal);
      return new Promise<Response>((_resolve, reject) => signal.addEventListener('abort', () => reject(aborted()), { once: true }));
    });
    vi.stubGlobal('fetch', fetchMock);
    const frames: StreamFrame[] = [];
    const connections: StreamConnection['state'][] = [];
    const controller = new AbortController();
    const done = streamEvents('c1', {
      signal: controller.signal,
      onFrame: (frame) => frames.push(frame),
      onConnection: (connection) => connections.push(connection.state),
      retryDelay: () => 0,
    });
    const headers = (call: number) => new Headers(fetchMock.mock.calls[call]?.[1]?.headers);
    return { fetchMock, frames, connections, controller, done, headers };
  }

  it('reads events, state and partial text across chunk boundaries, with the key in a header only', async () => {
    const first = streamingResponse();
    const { fetchMock, frames, controller, done, headers } = setup([first.response]);
    const text =
      sse(event('e1'), 'e1') +
      sse({ kind: 'StreamingDelta', conversation_id: 'c1', llm_response_id: 'r1', delta: 'Hé' }) +
      sse({ kind: 'ConversationState', conversation_id: 'c1', execution_status: 'running', metrics: null });
    // Cut in the middle of a JSON text, and of the two bytes of "é".
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('Hé') + 2;
    first.pushBytes(bytes.slice(0, 17));
    first.pushBytes(bytes.slice(17, cut));
    first.pushBytes(bytes.slice(cut));
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    controller.abort();
    await done;

    expect(frames.map((frame) => frame.type)).toEqual(['event', 'delta', 'state']);
    expect(frames[0]).toMatchObject({ event: { id: 'e1', kind: 'MessageEvent' } });
    expect(frames[1]).toMatchObject({ delta: { delta: 'Hé' } });
    expect(frames[2]).toMatchObject({ state: { execution_status: 'running' } });
    const [url] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/v1/app-conversations/c1/events/stream');
    expect(headers(0).get('X-Session-API-Key')).toBe('stream-key');
    expect(headers(0).get('Last-Event-ID')).toBeNull();
  });

  it('after a drop, reconnects from the last stored event (not from a transient frame)', async () => {
    const first = streamingResponse();
    const second = streamingResponse();
    const { fetchMock, frames, connections, controller, done, headers } = setup([first.response, second.response]);
    first.push(sse(event('e1'), 'e1') + sse(event('e2'), 'e2'));
    first.push(sse({ kind: 'StreamingDelta', conversation_id: 'c1', llm_response_id: 'r1', delta: 'partial' }));
    await vi.waitFor(() => expect(frames).toHaveLength(3));
    first.fail();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    second.push(sse(event('e3'), 'e3'));
    await vi.waitFor(() => expect(frames).toHaveLength(4));
    second.end();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    controller.abort();
    await done;

    expect(headers(1).get('Last-Event-ID')).toBe('e2');
    expect(headers(2).get('Last-Event-ID')).toBe('e3');
    expect(connections.slice(0, 5)).toEqual(['connecting', 'open', 'retrying', 'connecting', 'open']);
  });

  it('retries a refused response (a 401 included) and gives up on an unknown conversation', async () => {
    const { fetchMock, connections, done } = setup([
      () => json(401, { detail: 'Unauthorized' }),
      () => json(503, { detail: 'The agent server is not responding' }),
      () => json(404, { detail: 'Conversation not found' }),
    ]);
    await done;
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(connections).toEqual(['connecting', 'retrying', 'connecting', 'retrying', 'connecting', 'failed']);
  });

  it('starts after the event it is given, and ends when aborted', async () => {
    signIn({ apiKey: 'stream-key', baseUrl: 'http://api.test' });
    const fetchMock = vi.fn<typeof fetch>(
      (_url, init) => new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(aborted()))),
    );
    vi.stubGlobal('fetch', fetchMock);
    const controller = new AbortController();
    const done = streamEvents('c1', { lastEventId: 'e9', signal: controller.signal, onFrame: () => {} });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    controller.abort();
    await done;
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers).get('Last-Event-ID')).toBe('e9');
  });
});

describe('pollEvents', () => {
  /** An event at a naive time (as the SDK writes), with a dashed id (as OpenHands names them). */
  const at = (n: number, timestamp: string, kind = 'MessageEvent') => ({
    ...event(`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, kind),
    timestamp,
  });
  /** Five events, two sharing a second, paged by OpenHands' own (skipping) logic. */
  const stored = [0, 1, 2, 3, 3].map((second, index) => at(index + 1, `2026-11-26T10:00:0${second}.${index}00000`));
  const idsOf = (events: { id: string }[]) => events.map(({ id }) => id);

  /** OpenHands' event search over `events` (a page of at most `pageLimit`) and its get by id. */
  function openHandsEvents(events: ReturnType<typeof at>[], pageLimit: number) {
    return {
      'GET /api/v1/events/search': ({ url }: { url: string }) => {
        const query = new URL(url, 'http://x').searchParams;
        const page = openHandsEventPage(events, {
          since: query.get('timestamp__gte') ?? undefined,
          limit: Math.min(pageLimit, Number(query.get('limit'))),
          pageId: query.get('page_id') ?? undefined,
        });
        return json(200, page);
      },
      'GET /api/v1/events/count': ({ url }: { url: string }) =>
        json(200, matchingEvents(events, new URL(url, 'http://x').searchParams.get('timestamp__gte') ?? undefined).length),
      'GET /api/v1/events': ({ url }: { url: string }) => {
        const ids = new URL(url, 'http://x').searchParams.getAll('id');
        return json(
          200,
          ids.map((id) => events.find((candidate) => candidate.id.replaceAll('-', '') === id) ?? null),
        );
      },
    };
  }

  it('reads every event past OpenHands’ page-boundary skip, starts each look at the newest second, retries a failure and stops when aborted', async () => {
    // Fake timers: once it ended, whether a look is still scheduled can be asked, not waited out.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    const events = stored.slice(0, 3);
    let failNext = false;
    const { 'GET /api/v1/events/search': search, 'GET /api/v1/events/count': count } = openHandsEvents(events, 2);
    const api = fakeApi({
      'GET /api/v1/events/count': count,
      'GET /api/v1/events/search': (request) => {
        if (!failNext) return search(request);
        failNext = false;
        return json(500, { detail: 'boom' });
      },
    });
    const controller = new AbortController();
    const seen = new Set<string>();
    const states: string[] = [];
    const done = pollEvents('c1', {
      signal: controller.signal,
      intervalMs: 5,
      onFrame: (frame) => frame.type === 'event' && seen.add(frame.event.id),
      onConnection: (connection) => states.push(connection.state),
    });
    await vi.waitFor(() => expect([...seen]).toEqual(idsOf(stored.slice(0, 3))));
    events.push(...stored.slice(3));
    failNext = true;
    await vi.waitFor(() => expect([...seen]).toEqual(idsOf(stored)));
    controller.abort();
    await done;
    expect(vi.getTimerCount()).toBe(0);

    expect(states.slice(0, 2)).toEqual(['connecting', 'open']);
    expect(states).toContain('retrying');
    expect(states.filter((state, index) => state === 'open' && states[index - 1] === 'open')).toEqual([]);
    const searches = api.requests.map(({ url }) => new URL(url, 'http://x').searchParams);
    expect(searches[0]?.get('timestamp__gte')).toBeNull();
    // A later look starts from the second of the newest event seen, not from the beginning.
    expect(searches.at(-1)?.get('timestamp__gte')).toBe('2026-11-26T10:00:03');
  });

  it('sees an event of the same second as the newest one the last look saw', async () => {
    const action = at(1, '2026-11-26T10:00:05.100000', 'ActionEvent');
    const observation = at(2, '2026-11-26T10:00:05.500000', 'ObservationEvent');
    const events = [action];
    fakeApi(openHandsEvents(events, 100));
    const controller = new AbortController();
    const seen = new Set<string>();
    const done = pollEvents('c1', {
      signal: controller.signal,
      intervalMs: 5,
      onFrame: (frame) => frame.type === 'event' && seen.add(frame.event.id),
    });
    await vi.waitFor(() => expect([...seen]).toEqual([action.id]));
    events.push(observation);
    await vi.waitFor(() => expect([...seen]).toEqual([action.id, observation.id]));
    controller.abort();
    await done;
  });

  it('a page all of one second moves on by page id, and reads the event OpenHands skips there by its id', async () => {
    const events = [1, 2, 3, 4, 5, 6, 7].map((n) => at(n, `2026-11-26T10:00:07.${n}00000`));
    const api = fakeApi(openHandsEvents(events, 2));
    const controller = new AbortController();
    const seen = new Set<string>();
    const done = pollEvents('c1', {
      signal: controller.signal,
      intervalMs: 60_000,
      onFrame: (frame) => frame.type === 'event' && seen.add(frame.event.id),
    });
    await vi.waitFor(() => expect([...seen].sort()).toEqual(idsOf(events)));
    controller.abort();
    await done;
    expect(api.requests.some(({ url }) => url.startsWith('/api/v1/events?id='))).toBe(true);
  });

  it('asks once per look while nothing is new, however many events the newest second holds', async () => {
    const events = Array.from({ length: 130 }, (_, n) => at(n + 1, `2026-11-26T10:00:09.${String(n).padStart(6, '0')}`));
    const api = fakeApi(openHandsEvents(events, 100));
    const controller = new AbortController();
    const seen = new Set<string>();
    const done = pollEvents('c1', {
      signal: controller.signal,
      intervalMs: 5,
      onFrame: (frame) => frame.type === 'event' && seen.add(frame.event.id),
    });
    await vi.waitFor(() => expect(seen.size).toBe(130));
    const firstLook = api.requests.length;
    await vi.waitFor(() => expect(api.requests.length).toBeGreaterThanOrEqual(firstLook + 3));
    expect(
      api
        .calls()
        .slice(firstLook)
        .every((call) => call.startsWith('GET /api/v1/events/count?')),
    ).toBe(true);

    // Something new of that same second is read at the next look.
    const late = at(131, '2026-11-26T10:00:09.999999', 'AgentErrorEvent');
    events.push(late);
    await vi.waitFor(() => expect(seen.has(late.id)).toBe(true));
    controller.abort();
    await done;
  });

  it('ends at once when aborted while it hands on events, not after the wait between two looks', async () => {
    fakeApi({ 'GET /api/v1/events/search': () => json(200, { items: [stored[0]], next_page_id: null }) });
    const controller = new AbortController();
    const done = pollEvents('c1', { signal: controller.signal, intervalMs: 60_000, onFrame: () => controller.abort() });
    const ended = await Promise.race([done.then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 1_000, 'still waiting'))]);
    expect(ended).toBe('ended');
  });
});
