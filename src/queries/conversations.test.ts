import { type InfiniteData, MutationObserver, QueryObserver } from '@tanstack/react-query';
import { sandboxCapacityQuery } from './sandboxes';
import { describe, expect, it, vi } from 'vitest';
import type { AppConversationPage, StartTask } from '../contract/conversations';
import { appConversation, startTask } from '../testing/conversations';
import { deferred, fakeApi, json, testQueryClient } from '../testing/fake-api';
import {
  conversationKeys,
  conversationQuery,
  conversationsQuery,
  continueInNewSandboxMutation,
  deleteConversationMutation,
  startConversationMutation,
  startTaskQuery,
  tasksInFlightQuery,
  updateConversationMutation,
} from './conversations';

const conversation = (id: string, title: string, archived = false) => appConversation({ id, title, archived });

const task = (id: string, status: StartTask['status']) => startTask(status, { id });

type Pages = InfiniteData<AppConversationPage, string | undefined>;
const titles = (data: Pages | undefined) => data?.pages.flatMap((page) => page.items.map((item) => item.title));

describe('conversationKeys', () => {
  it('nests lists, counts, details and tasks under one root', () => {
    expect(conversationKeys.list({ title: 'x' })).toEqual(['conversations', 'list', { title: 'x' }]);
    expect(conversationKeys.count({})).toEqual(['conversations', 'count', {}]);
    expect(conversationKeys.detail('a')).toEqual(['conversations', 'detail', 'a']);
    expect(conversationKeys.task('t')).toEqual(['conversations', 'start-tasks', 't']);
  });
});

describe('conversationsQuery', () => {
  it('pages with the cursor the server gave, filters and sort in the query', async () => {
    const api = fakeApi({
      'GET /api/v1/app-conversations/search': ({ url }) =>
        json(
          200,
          url.includes('page_id=')
            ? { items: [conversation('b', 'B')], next_page_id: null }
            : { items: [conversation('a', 'A')], next_page_id: 'next' },
        ),
    });
    const queryClient = testQueryClient();
    const options = conversationsQuery({ title: 'fix', sort: 'TITLE', archived: true });
    await queryClient.fetchInfiniteQuery(options);
    await queryClient.fetchInfiniteQuery({ ...options, pages: 2 });
    expect(api.calls()).toEqual([
      'GET /api/v1/app-conversations/search?title__contains=fix&archived=true&limit=50&sort_order=TITLE',
      'GET /api/v1/app-conversations/search?title__contains=fix&archived=true&limit=50&sort_order=TITLE',
      'GET /api/v1/app-conversations/search?title__contains=fix&archived=true&limit=50&sort_order=TITLE&page_id=next',
    ]);
    expect(titles(queryClient.getQueryData(options.queryKey))).toEqual(['A', 'B']);
  });
});

describe('conversationQuery', () => {
  it('is a 404 for an id the server does not know', async () => {
    fakeApi({ 'GET /api/v1/app-conversations': () => json(200, [null]) });
    await expect(testQueryClient().fetchQuery(conversationQuery('nope'))).rejects.toMatchObject({ status: 404 });
  });
});

describe('tasksInFlightQuery', () => {
  it('keeps the starts that are not READY, and polls while one is under way', async () => {
    fakeApi({
      'GET /api/v1/app-conversations/start-tasks/search': () =>
        json(200, { items: [task('1', 'READY'), task('2', 'RUNNING_SETUP_SCRIPT'), task('3', 'ERROR')], next_page_id: null }),
    });
    const queryClient = testQueryClient();
    const options = tasksInFlightQuery('2026-11-26T09:00:00Z');
    const tasks = await queryClient.fetchQuery(options);
    expect(tasks.map((t) => t.id)).toEqual(['2', '3']);
    const interval = options.refetchInterval;
    const query = queryClient.getQueryCache().find({ queryKey: options.queryKey })!;
    expect(typeof interval === 'function' ? interval(query as never) : interval).toBe(2000);
  });
});

/** A response whose body is written by the test, chunk by chunk, as a streaming server sends it. */
function streamedResponse() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'application/json' } }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

describe('startConversationMutation', () => {
  const interval = (
    options: { refetchInterval?: unknown; queryKey: readonly unknown[] },
    queryClient: ReturnType<typeof testQueryClient>,
  ) => {
    const query = queryClient.getQueryCache().find({ queryKey: options.queryKey })!;
    return typeof options.refetchInterval === 'function' ? options.refetchInterval(query) : options.refetchInterval;
  };

  async function started() {
    const stream = streamedResponse();
    const api = fakeApi({
      'POST /api/v1/app-conversations/stream-start': () => stream.response,
      'GET /api/v1/app-conversations/start-tasks/search': () => json(200, { items: [], next_page_id: null }),
      'GET /api/v1/app-conversations/start-tasks': () => json(200, [task('9', 'WAITING_FOR_SANDBOX')]),
    });
    const queryClient = testQueryClient();
    await queryClient.fetchQuery(tasksInFlightQuery('since'));
    const observer = new MutationObserver(queryClient, startConversationMutation(queryClient));
    // OpenHands' chunks: '[\n', the first task, then ',\n' and the next one.
    stream.write('[\n');
    stream.write(JSON.stringify(task('9', 'WORKING')));
    const first = await observer.mutate({ selected_repository: 'octo/hello' });
    return { api, queryClient, stream, first };
  }

  it('starts through the stream and gives the first state while the rest is still to come', async () => {
    const { api, queryClient, stream, first } = await started();
    expect(first).toMatchObject({ id: '9', status: 'WORKING' });
    expect(api.requests.find((r) => r.method === 'POST')).toMatchObject({
      url: '/api/v1/app-conversations/stream-start',
      body: { selected_repository: 'octo/hello' },
    });
    expect(queryClient.getQueryData(startTaskQuery('9').queryKey)).toMatchObject({ status: 'WORKING' });
    expect(queryClient.getQueryData(tasksInFlightQuery('since').queryKey)).toMatchObject([{ id: '9', status: 'WORKING' }]);
    stream.end();
  });

  it('puts each later state in the cache as it arrives, and nothing polls for it meanwhile', async () => {
    const { api, queryClient, stream } = await started();
    expect(interval(startTaskQuery('9'), queryClient)).toBe(false);
    expect(interval(tasksInFlightQuery('since'), queryClient)).toBe(false);

    stream.write(',\n' + JSON.stringify(task('9', 'WAITING_FOR_SANDBOX')));
    await vi.waitFor(() => expect(queryClient.getQueryData(startTaskQuery('9').queryKey)).toMatchObject({ status: 'WAITING_FOR_SANDBOX' }));
    stream.write(',\n' + JSON.stringify(task('9', 'READY')));
    stream.write(']');
    stream.end();
    await vi.waitFor(() => expect(queryClient.getQueryData(startTaskQuery('9').queryKey)).toMatchObject({ status: 'READY' }));
    expect(queryClient.getQueryData(tasksInFlightQuery('since').queryKey)).toEqual([]);
    // A page that follows it only now (its stream already ended) finds it in the cache.
    await vi.waitFor(() => expect(interval(startTaskQuery('9'), queryClient)).toBe(false));
    expect(await queryClient.fetchQuery(startTaskQuery('9'))).toMatchObject({ status: 'READY' });
    expect(api.calls().filter((call) => call.startsWith('GET'))).toEqual([
      'GET /api/v1/app-conversations/start-tasks/search?created_at__gte=since&limit=100',
    ]);
  });

  it('hands a start whose stream broke before READY back to polling', async () => {
    const { queryClient, stream } = await started();
    stream.end();
    await vi.waitFor(() => expect(queryClient.getQueryState(tasksInFlightQuery('since').queryKey)?.isInvalidated).toBe(true));
    expect(interval(startTaskQuery('9'), queryClient)).toBe(2000);
    expect(interval(tasksInFlightQuery('since'), queryClient)).toBe(2000);
  });

  it('is the server’s refusal, as a 422 with its detail, when it refuses the request', async () => {
    const detail = [{ loc: ['body', 'agent_type'], msg: "Input should be 'default' or 'plan'", type: 'enum' }];
    fakeApi({ 'POST /api/v1/app-conversations/stream-start': () => json(422, { detail }) });
    const queryClient = testQueryClient();
    const observer = new MutationObserver(queryClient, startConversationMutation(queryClient));
    await expect(observer.mutate({})).rejects.toMatchObject({ status: 422, validation: detail });
  });
});

describe('continueInNewSandboxMutation', () => {
  it('goes on through the stream: each state reaches the cache as it arrives, and nothing polls for it', async () => {
    const stream = streamedResponse();
    const api = fakeApi({ 'POST /api/v1/app-conversations/c1/continue-in-new-sandbox/stream': () => stream.response });
    const queryClient = testQueryClient();
    const observer = new MutationObserver(queryClient, continueInNewSandboxMutation(queryClient));
    stream.write('[\n' + JSON.stringify(task('7', 'WORKING')));
    expect(await observer.mutate('c1')).toMatchObject({ id: '7', status: 'WORKING' });
    const followed = startTaskQuery('7');
    const interval = followed.refetchInterval as (query: unknown) => unknown;
    expect(interval(queryClient.getQueryCache().find({ queryKey: followed.queryKey }))).toBe(false);

    stream.write(',\n' + JSON.stringify(task('7', 'READY')) + ']');
    stream.end();
    await vi.waitFor(() => expect(queryClient.getQueryData(followed.queryKey)).toMatchObject({ status: 'READY' }));
    expect(api.calls()).toEqual(['POST /api/v1/app-conversations/c1/continue-in-new-sandbox/stream']);
  });
});

describe('updateConversationMutation', () => {
  async function withList() {
    const held = deferred<Response>();
    const api = fakeApi({
      'GET /api/v1/app-conversations/search': () =>
        json(200, { items: [conversation('a', 'Old'), conversation('b', 'Other')], next_page_id: null }),
      'PATCH /api/v1/app-conversations/a': () => held.promise,
      'PATCH /api/conversations/a': () => held.promise,
    });
    const queryClient = testQueryClient();
    const list = conversationsQuery({});
    await queryClient.fetchInfiniteQuery(list);
    return { queryClient, list, held, api };
  }

  it('renames at once in the list, and puts it back when the server refuses', async () => {
    const { queryClient, list, held, api } = await withList();
    const observer = new MutationObserver(queryClient, updateConversationMutation(queryClient));
    const done = observer.mutate({ id: 'a', title: 'New' }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual(['New', 'Other']);
    held.resolve(json(409, { detail: 'no' }));
    await done;
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual(['Old', 'Other']);
    // The legacy route, which OpenHands has too.
    expect(api.requests.filter(({ method }) => method === 'PATCH')).toEqual([
      { method: 'PATCH', url: '/api/conversations/a', body: { title: 'New' } },
    ]);
  });

  it('fails, and puts the title back, when the legacy route returns false (nothing renamed)', async () => {
    const { queryClient, list, held } = await withList();
    const observer = new MutationObserver(queryClient, updateConversationMutation(queryClient));
    const done = observer.mutate({ id: 'a', title: 'New' });
    held.resolve(json(200, false));
    await expect(done).rejects.toMatchObject({ status: 404, message: 'The server did not rename the conversation' });
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual(['Old', 'Other']);
  });

  it('takes an archived conversation out of a list of unarchived ones at once', async () => {
    const { queryClient, list, held } = await withList();
    const observer = new MutationObserver(queryClient, updateConversationMutation(queryClient));
    const done = observer.mutate({ id: 'a', archived: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual(['Other']);
    held.resolve(json(200, conversation('a', 'Old', true)));
    await done;
  });
});

describe('deleteConversationMutation', () => {
  it('removes it at once and brings it back when the server refuses', async () => {
    const held = deferred<Response>();
    fakeApi({
      'GET /api/v1/app-conversations/search': () => json(200, { items: [conversation('a', 'A')], next_page_id: null }),
      'DELETE /api/conversations/a': () => held.promise,
    });
    const queryClient = testQueryClient();
    const list = conversationsQuery({});
    await queryClient.fetchInfiniteQuery(list);
    const observer = new MutationObserver(queryClient, deleteConversationMutation(queryClient));
    const done = observer.mutate('a').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual([]);
    held.resolve(json(500, { detail: 'Internal Server Error' }));
    await done;
    expect(titles(queryClient.getQueryData(list.queryKey))).toEqual(['A']);
  });

  it('reads the sandboxes’ capacity again once deleted: its sandbox may have gone with it', async () => {
    const capacity = { running: 1, max_running: 5, sandboxes: 1, max_sandboxes: 20 };
    const api = fakeApi({
      'GET /api/v1/sandboxes/capacity': () => json(200, capacity),
      'DELETE /api/conversations/a': () => json(200, true),
    });
    const queryClient = testQueryClient();
    const observer = new QueryObserver(queryClient, sandboxCapacityQuery(true));
    const leave = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(api.calls()).toEqual(['GET /api/v1/sandboxes/capacity']));
    await new MutationObserver(queryClient, deleteConversationMutation(queryClient)).mutate('a');
    await vi.waitFor(() =>
      expect(api.calls()).toEqual(['GET /api/v1/sandboxes/capacity', 'DELETE /api/conversations/a', 'GET /api/v1/sandboxes/capacity']),
    );
    leave();
  });
});
