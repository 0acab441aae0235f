import { QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../../../api/session';
import type { AppConversation } from '../../../contract/conversations';
import { agentMessage, terminalAction, terminalObservation, userMessage } from '../../../testing/events';
import { fakeApi, json, testQueryClient } from '../../../testing/fake-api';
import { conversationKeys } from '../../../queries/conversations';
import { serverCapabilityKeys } from '../../../queries/server-capabilities';
import { featuresFromDocument } from '../../../api/server-features';
import { useConversationEvents } from './use-conversation-events';

afterEach(() => vi.unstubAllGlobals());

const sse = (data: unknown, id?: string) => `${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** The stream the hook opens, fed by the test. */
function stubStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async (_url, init) => {
      init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
      return new Response(body, { status: 200 });
    }),
  );
  signIn({ apiKey: 'k', baseUrl: 'http://api.test' });
  return (text: string) => controller.enqueue(new TextEncoder().encode(text));
}

/** A query client that already knows the server's features: ours, with the event stream. */
function streamingServerClient() {
  const queryClient = testQueryClient();
  queryClient.setQueryData(serverCapabilityKeys.features(), {
    ...featuresFromDocument({ paths: {} }),
    kind: 'agent-console',
    eventStream: true,
  });
  return queryClient;
}

describe('useConversationEvents', () => {
  it('adds events as they come (once each), shows partial text until its message, and puts state changes into the conversation', async () => {
    const push = stubStream();
    const queryClient = streamingServerClient();
    queryClient.setQueryData(conversationKeys.detail('c1'), { id: 'c1', execution_status: 'idle', metrics: null } as AppConversation);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });

    const first = userMessage('u1', 'Hello');
    push(sse(first, 'u1') + sse(first, 'u1'));
    await waitFor(() => expect(result.current.events.map(({ event }) => event.id)).toEqual(['u1']));
    expect(result.current.connection.state).toBe('open');

    push(sse({ kind: 'StreamingDelta', conversation_id: 'c1', llm_response_id: 'r1', delta: 'Hi ' }));
    push(sse({ kind: 'StreamingDelta', conversation_id: 'c1', llm_response_id: 'r1', delta: 'there' }));
    await waitFor(() => expect([...result.current.streaming.values()]).toEqual(['Hi there']));

    push(sse({ kind: 'ConversationState', conversation_id: 'c1', execution_status: 'running', metrics: null }));
    await waitFor(() => expect(queryClient.getQueryData<AppConversation>(conversationKeys.detail('c1'))?.execution_status).toBe('running'));

    push(sse(agentMessage('m1', 'Hi there', 'r1'), 'm1'));
    await waitFor(() => expect(result.current.events).toHaveLength(2));
    expect(result.current.streaming.size).toBe(0);
    expect(result.current.events[1]?.known?.kind).toBe('MessageEvent');
    unmount();
  });

  it("keeps a running command's output by its action until the action's observation comes", async () => {
    const push = stubStream();
    const queryClient = streamingServerClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });
    const output = (text: string) => sse({ kind: 'TerminalOutput', conversation_id: 'c1', action_id: 'a1', output: text });
    push(sse(terminalAction('a1', 'npm test')) + output('> tests\n') + output('1 passed\n'));
    await waitFor(() => expect(result.current.terminal.get('a1')).toBe('> tests\n1 passed\n'));
    // The output so far whole (the server's stream came back): it replaces, never doubles.
    push(sse({ kind: 'TerminalOutput', conversation_id: 'c1', action_id: 'a1', output: '> tests\n1 passed\n', whole: true }));
    push(output('2 passed\n'));
    await waitFor(() => expect(result.current.terminal.get('a1')).toBe('> tests\n1 passed\n2 passed\n'));
    push(sse(terminalObservation('o1', 'a1', '> tests\n1 passed\n2 passed\n', 0)));
    await waitFor(() => expect(result.current.events).toHaveLength(2));
    expect(result.current.terminal.size).toBe(0);
    unmount();
  });

  it('puts an event that comes late where its time says (a poll gives one second’s events by kind name)', async () => {
    const push = stubStream();
    const queryClient = streamingServerClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });
    const [first, second, third] = [userMessage('u1', 'one'), agentMessage('m1', 'two'), agentMessage('m2', 'three')];
    push(sse(first) + sse(third) + sse(second));
    await waitFor(() => expect(result.current.events.map(({ event }) => event.id)).toEqual(['u1', 'm1', 'm2']));
    unmount();
  });

  it('keeps the status when a frame carries none, and drops the partial text of a reply cut short when the agent stops (a pause, an LLM failure)', async () => {
    const push = stubStream();
    const queryClient = streamingServerClient();
    queryClient.setQueryData(conversationKeys.detail('c1'), { id: 'c1', execution_status: 'running', metrics: null } as AppConversation);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });

    push(sse({ kind: 'StreamingDelta', conversation_id: 'c1', llm_response_id: 'r1', delta: 'Half a rep' }));
    await waitFor(() => expect([...result.current.streaming.values()]).toEqual(['Half a rep']));
    // Metrics without a status (the server knows only those yet) keep the status it has.
    const metrics = { model_name: 'm', accumulated_cost: 0.5, max_budget_per_task: null, accumulated_token_usage: null, cost_known: true };
    push(sse({ kind: 'ConversationState', conversation_id: 'c1', execution_status: null, metrics }));
    await waitFor(() => expect(queryClient.getQueryData<AppConversation>(conversationKeys.detail('c1'))?.metrics).toEqual(metrics));
    expect(queryClient.getQueryData<AppConversation>(conversationKeys.detail('c1'))?.execution_status).toBe('running');
    expect(result.current.streaming.size).toBe(1);
    push(sse({ kind: 'ConversationState', conversation_id: 'c1', execution_status: 'paused', metrics: null }));
    await waitFor(() => expect(result.current.streaming.size).toBe(0));
    unmount();
  });

  it('a read of the conversation sent before a state change does not bring back the status it replaced, and is asked again after it', async () => {
    const push = stubStream();
    const queryClient = streamingServerClient();
    const key = conversationKeys.detail('c1');
    queryClient.setQueryData(key, { id: 'c1', execution_status: 'running', sandbox_id: 'old', metrics: null } as AppConversation);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });

    // A read goes out while the agent is still running (here: as it goes on in a new sandbox), and is answered late.
    let answer!: (conversation: AppConversation) => void;
    const answers = [
      new Promise<AppConversation>((resolve) => (answer = resolve)),
      Promise.resolve({ id: 'c1', execution_status: 'finished', sandbox_id: 'new', metrics: null } as AppConversation),
    ];
    let reads = 0;
    // Read by the page, as the conversation page reads it.
    const page = new QueryObserver(queryClient, { queryKey: key, queryFn: () => answers[reads++]!, staleTime: Infinity });
    const leave = page.subscribe(() => undefined);
    const read = page.refetch();
    push(sse({ kind: 'ConversationState', conversation_id: 'c1', execution_status: 'finished', metrics: null }));
    await waitFor(() => expect(queryClient.getQueryData<AppConversation>(key)?.execution_status).toBe('finished'));
    answer({ id: 'c1', execution_status: 'running', sandbox_id: 'new', metrics: null } as AppConversation);
    await read.catch(() => undefined);
    // Asked again after the change: what else changed shows, the status stays the new one.
    await waitFor(() =>
      expect(queryClient.getQueryData<AppConversation>(key)).toMatchObject({ sandbox_id: 'new', execution_status: 'finished' }),
    );
    expect(reads).toBe(2);
    leave();
    unmount();
  });
});

describe('useConversationEvents without a stream route (OpenHands)', () => {
  it('reads /api/v1/events/search from the newest event seen, page after page, without losing the one at a page boundary', async () => {
    const events = [userMessage('u1', 'Hello'), agentMessage('m1', 'Hi', 'r1'), agentMessage('m2', 'Done', 'r2')].map((event, index) => ({
      ...event,
      timestamp: `2026-11-26T10:00:0${index}`,
    }));
    const api = fakeApi({
      'GET /openapi.json': () => json(200, { openapi: '3.1.0', paths: {} }),
      'GET /api/v1/events/search': ({ url }) => {
        const since = new URL(url, 'http://x').searchParams.get('timestamp__gte');
        const newer = events.filter((event) => !since || event.timestamp >= since);
        // Two to a page, as if the limit were 2, with OpenHands' page id.
        return json(200, { items: newer.slice(0, 2), next_page_id: newer.length > 2 ? 'next' : null });
      },
    });
    const queryClient = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result, unmount } = renderHook(() => useConversationEvents('c1'), { wrapper });
    await waitFor(() => expect(result.current.events.map(({ event }) => event.id)).toEqual(['u1', 'm1', 'm2']));
    expect(result.current.connection.state).toBe('open');
    const searches = api.calls().filter((call) => call.includes('/events/search'));
    expect(searches[0]).toContain('conversation_id__eq=c1');
    expect(searches[0]).not.toContain('timestamp__gte');
    expect(searches[1]).toContain(`timestamp__gte=${encodeURIComponent('2026-11-26T10:00:01')}`);
    expect(api.calls()).not.toContainEqual(expect.stringContaining('/events/stream'));
    unmount();
  });
});
