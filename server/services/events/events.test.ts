import { asSystem } from '../../authz/caller';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stateUpdate } from '../../agent-server/event-factory';
import { SecretBox } from '../../secret-box';
import { type DatabaseName, databasesUnderTest } from '../../testing/databases';
import { shellSpec, startSandbox, statusBecomes } from '../../testing/sandbox-helpers';
import { startTestApp, TEST_SECRETS_KEY, TEST_SESSION_KEY, type TestApp } from '../../testing/test-app';
import { MAX_EVENT_BYTES } from './event-size';
import { MAX_MESSAGE_IMAGE_BYTES } from '../../../src/contract/conversations';

/*
 * Stored events, their routes, the webhook and the live stream, with events pushed the way an
 * agent server may push them (the webhook), into conversations of sandboxes that run no agent
 * server (so nothing else writes events meanwhile).
 */

const IDLE = shellSpec('idle', 'sleep 600');

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

async function app(database?: DatabaseName, eventStreamBufferBytes?: number) {
  const t = await startTestApp({ sandboxSpecs: [IDLE], database, eventStreamBufferBytes });
  apps.push(t);
  return t;
}

async function conversationIn(t: TestApp, sandboxId: string): Promise<string> {
  const id = randomUUID().replaceAll('-', '');
  const now = new Date().toISOString();
  await t.db
    .insertInto('app_conversations')
    .values({
      id,
      user_id: 'default',
      sandbox_id: sandboxId,
      sandbox_created: 0,
      title: `events ${id.slice(0, 5)}`,
      pr_number: '[]',
      skills: '[]',
      archived: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

async function sandboxKey(t: TestApp, sandboxId: string): Promise<string> {
  const row = await t.db.selectFrom('sandboxes').select('session_key').where('id', '=', sandboxId).executeTakeFirstOrThrow();
  return new SecretBox(TEST_SECRETS_KEY).open(row.session_key);
}

/** A sandbox (running no agent server), one conversation in it, and how to push events to it with the sandbox's key. */
async function setup(t: TestApp) {
  const sandbox = await startSandbox(t, 'idle');
  const conversationId = await conversationIn(t, sandbox.id);
  const key = await sandboxKey(t, sandbox.id);
  const push = async (events: unknown[], conversation = conversationId) => {
    const response = await postWebhook(t, sandbox.id, conversation, events, key);
    expect(response.statusCode, response.body).toBe(200);
  };
  return { sandboxId: sandbox.id, conversationId, key, push };
}

const postWebhook = (t: TestApp, sandboxId: string, conversationId: string, events: unknown[], key: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/webhooks/${sandboxId}/events/${conversationId}`,
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-session-api-key': key }) },
    payload: JSON.stringify(events),
  });

let clock = Date.parse('2025-03-01T10:00:00Z');
/** A user message; its timestamp naive (as the SDK writes them) unless given. */
function message(text: string, timestamp = new Date((clock += 1000)).toISOString().replace('Z', '')) {
  return {
    kind: 'MessageEvent',
    id: randomUUID(),
    timestamp,
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text }] },
  };
}

const ids = (events: { id: string }[]) => events.map((e) => e.id);

async function allPages(t: TestApp, query: string, limit: number): Promise<{ id: string }[][]> {
  const pages: { id: string }[][] = [];
  let pageId: string | null = null;
  do {
    const url = `/api/v1/events/search?${query}&limit=${limit}${pageId ? `&page_id=${pageId}` : ''}`;
    const response = await t.request({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json();
    pages.push(page.items);
    pageId = page.next_page_id;
  } while (pageId);
  return pages;
}

// What is stored and streamed: on both databases (the stream's news of new events differs on PostgreSQL).
describe.each(databasesUnderTest())('on %s', (database) => {
  describe('stored events', () => {
    it('are stored once each, in order, and searched, counted and got as OpenHands returns them', async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      const first = [message('one'), message('two'), message('three')];
      await push(first);
      await push([first[1], message('four')]); // a repeat is stored once
      const search = await t.request({ method: 'GET', url: `/api/v1/events/search?conversation_id__eq=${conversationId}` });
      expect(search.statusCode).toBe(200);
      const page = search.json();
      expect(page.next_page_id).toBeNull();
      expect(page.items.map((e: { llm_message: { content: { text: string }[] } }) => e.llm_message.content[0]?.text)).toEqual([
        'one',
        'two',
        'three',
        'four',
      ]);
      expect(page.items[0]).toEqual(first[0]); // stored as sent, its own timestamp included

      const count = await t.request({ method: 'GET', url: `/api/v1/events/count?conversation_id__eq=${conversationId}` });
      expect(count.json()).toBe(4);

      const unknown = randomUUID();
      const got = await t.request({ method: 'GET', url: `/api/v1/events?id=${first[2]!.id}&id=${unknown}&id=${first[0]!.id}` });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual([first[2], null, first[0]]);
    });

    it("move their conversation's updated_at on to the newest event's time, never back", async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      const updatedAt = async () =>
        (await t.request({ method: 'GET', url: `/api/v1/app-conversations?ids=${conversationId}` })).json()[0].updated_at;
      const before = await updatedAt();
      const later = new Date(Date.parse(before) + 60_000).toISOString();
      const latest = new Date(Date.parse(before) + 120_000).toISOString();
      await push([message('one', later), message('two', latest)]);
      expect(await updatedAt()).toBe(latest);
      await push([message('late to arrive', later)]);
      expect(await updatedAt()).toBe(latest);
    });

    it('pages through every event exactly once, in both orders, with ties in time kept in the order they came', async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      const sameTime = '2025-03-01T12:00:00';
      const sent = Array.from({ length: 230 }, (_, i) => message(`m${i}`, i % 3 === 0 ? sameTime : undefined));
      await push(sent.slice(0, 120));
      await push(sent.slice(120));
      const byTime = [...sent].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || sent.indexOf(a) - sent.indexOf(b));

      const ascending = await allPages(t, `conversation_id__eq=${conversationId}`, 100);
      expect(ascending.map((p) => p.length)).toEqual([100, 100, 30]);
      expect(ids(ascending.flat())).toEqual(ids(byTime));

      const descending = await allPages(t, `conversation_id__eq=${conversationId}&sort_order=TIMESTAMP_DESC`, 7);
      expect(ids(descending.flat())).toEqual(ids(byTime).reverse());

      const count = await t.request({ method: 'GET', url: `/api/v1/events/count?conversation_id__eq=${conversationId}` });
      expect(count.json()).toBe(230);
    });

    it('sorts events of one millisecond by their microseconds, not the order they came, and a time filter takes them in', async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      // Parallel tool calls: stamped within one millisecond, sent in another order (naive and zoned).
      const sent = [
        message('third', '2025-05-01T10:00:00.123789'),
        message('first', '2025-05-01T12:00:00.123004+02:00'),
        message('second', '2025-05-01T10:00:00.123456Z'),
      ];
      await push(sent);
      const texts = (page: { items: { llm_message: { content: { text: string }[] } }[] }) =>
        page.items.map((event) => event.llm_message.content[0]!.text);
      const search = async (query: string) =>
        (await t.request({ method: 'GET', url: `/api/v1/events/search?conversation_id__eq=${conversationId}&${query}` })).json();
      expect(texts(await search('limit=10'))).toEqual(['first', 'second', 'third']);
      expect(texts(await search('sort_order=TIMESTAMP_DESC&limit=10'))).toEqual(['third', 'second', 'first']);
      expect(texts(await search('timestamp__gte=2025-05-01T10:00:00.123Z&limit=10'))).toEqual(['first', 'second', 'third']);
      expect(texts(await search('timestamp__gte=2025-05-01T10:00:00.1235&timestamp__lt=2025-05-01T10:00:00.124Z&limit=10'))).toEqual([
        'third',
      ]);
    });

    it('filters by kind and time (naive times are UTC) and by conversation', async () => {
      const t = await app(database);
      const { sandboxId, conversationId, push } = await setup(t);
      const other = await conversationIn(t, sandboxId);
      const early = message('early', '2025-04-01T08:00:00');
      const late = message('late', '2025-04-01T09:00:00.000000');
      const pause = { kind: 'PauseEvent', id: randomUUID(), timestamp: '2025-04-01T10:00:00+02:00', source: 'user' };
      await push([early, late, pause]);
      await push([message('elsewhere', '2025-04-01T08:30:00Z')], other);

      const search = async (query: string) => ids((await t.request({ method: 'GET', url: `/api/v1/events/search?${query}` })).json().items);
      const count = async (query: string) => (await t.request({ method: 'GET', url: `/api/v1/events/count?${query}` })).json();

      const mine = `conversation_id__eq=${conversationId}`;
      expect(await search(`${mine}&kind__eq=PauseEvent`)).toEqual([pause.id]);
      expect(await search(`${mine}&kind__eq=MessageEvent`)).toEqual([early.id, late.id]);
      // 10:00+02:00 is 08:00Z: the same instant as the naive 08:00.
      expect(await search(`${mine}&timestamp__gte=2025-04-01T08:00:00Z&timestamp__lt=2025-04-01T09:00:00Z`)).toEqual([early.id, pause.id]);
      expect(await count(`${mine}&timestamp__gte=2025-04-01T08:30:00`)).toBe(1);
      expect(await count(`timestamp__gte=2025-04-01T08:30:00Z&timestamp__lt=2025-04-01T08:31:00Z`)).toBe(1);
      // The dashed form of a conversation id is the same conversation.
      const dashed = conversationId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
      expect(await count(`conversation_id__eq=${dashed}`)).toBe(3);
    });

    it('refuses bad queries with 422s (FastAPI-style) and too many ids with 400', async () => {
      const t = await app(database);
      const bad = async (url: string) => {
        const response = await t.request({ method: 'GET', url });
        expect(response.statusCode, url).toBe(422);
        return response.json().detail[0];
      };
      const kind = await bad('/api/v1/events/search?kind__eq=NoSuchEvent');
      expect(kind.loc).toEqual(['query', 'kind__eq']);
      expect(kind.msg).toContain("'MessageEvent'");
      expect((await bad('/api/v1/events/count?kind__eq=openhands.sdk.event.MessageEvent')).loc).toEqual(['query', 'kind__eq']);
      expect((await bad('/api/v1/events/search?limit=0')).loc).toEqual(['query', 'limit']);
      expect((await bad('/api/v1/events/search?limit=101')).loc).toEqual(['query', 'limit']);
      expect((await bad('/api/v1/events/search?sort_order=NEWEST')).loc).toEqual(['query', 'sort_order']);
      expect((await bad('/api/v1/events/search?timestamp__gte=yesterday')).loc).toEqual(['query', 'timestamp__gte']);
      expect((await bad('/api/v1/events/search?conversation_id__eq=nope')).loc).toEqual(['query', 'conversation_id__eq']);
      expect((await bad('/api/v1/events/search?page_id=not-ours')).loc).toEqual(['query', 'page_id']);
      expect((await bad('/api/v1/events')).loc).toEqual(['query', 'id']);

      const tooMany = Array.from({ length: 101 }, () => `id=${randomUUID()}`).join('&');
      const response = await t.request({ method: 'GET', url: `/api/v1/events?${tooMany}` });
      expect(response.statusCode).toBe(400);
      expect(response.json().detail).toContain('100');
    });

    it('go with their conversation', async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      await push([message('soon gone')]);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/app-conversations/${conversationId}` })).statusCode).toBe(200);
      const count = await t.db
        .selectFrom('conversation_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });
  });

  describe('the webhook', () => {
    it("takes events with the conversation's own sandbox key only", async () => {
      const t = await app(database);
      const mine = await setup(t);
      const other = await setup(t);
      const event = message('pushed');

      expect((await postWebhook(t, mine.sandboxId, mine.conversationId, [event], other.key)).statusCode).toBe(401);
      expect((await postWebhook(t, mine.sandboxId, mine.conversationId, [event], TEST_SESSION_KEY)).statusCode).toBe(401);
      expect((await postWebhook(t, mine.sandboxId, mine.conversationId, [event], undefined)).statusCode).toBe(401);
      expect((await postWebhook(t, 'no-such-sandbox', mine.conversationId, [event], mine.key)).statusCode).toBe(401);
      // A sandbox's key does not reach another sandbox's conversation.
      expect((await postWebhook(t, other.sandboxId, mine.conversationId, [event], other.key)).statusCode).toBe(404);
      // Nor the rest of the API.
      const search = await t.app.inject({ method: 'GET', url: '/api/v1/events/search', headers: { 'x-session-api-key': mine.key } });
      expect(search.statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(0);

      const accepted = await postWebhook(t, mine.sandboxId, mine.conversationId, [event], mine.key);
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toEqual({ success: true });
      expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(1);

      const notEvents = await postWebhook(t, mine.sandboxId, mine.conversationId, [{ kind: 'MessageEvent' }], mine.key);
      expect(notEvents.statusCode).toBe(422);
    });

    it('stores an event too large to keep with its longest text cut, saying so', async () => {
      const t = await app(database);
      const { push } = await setup(t);
      // Each text within what the contract takes, all of them together not.
      const huge = message('');
      huge.llm_message.content = Array.from({ length: 6 }, (_, index) => ({ type: 'text', text: `${index}`.repeat(60_000) }));
      await push([huge]);
      const response = await t.request({ method: 'GET', url: `/api/v1/events?id=${huge.id}` });
      expect(response.body.length).toBeLessThan(MAX_EVENT_BYTES + 1024);
      const [stored] = response.json();
      expect(stored).toMatchObject({ id: huge.id, kind: 'MessageEvent', source: 'user' });
      const texts: string[] = stored.llm_message.content.map((item: { text: string }) => item.text);
      expect(texts[0]).toMatch(/^0{1024,}\n… \[cut by Agent Console: 60000 characters in all\]$/);
      expect(texts.at(-1)).toBe('5'.repeat(60_000));
    });

    it('takes state updates as news of the moment: metrics reach the conversation, nothing is stored', async () => {
      const t = await app(database);
      const { conversationId, push } = await setup(t);
      const metrics = {
        model_name: 'demo/scripted',
        accumulated_cost: 0.25,
        max_budget_per_task: null,
        accumulated_token_usage: { model: 'demo/scripted', prompt_tokens: 120, completion_tokens: 30 },
      };
      // As the SDK's agent server sends them (`stats`), and as ours did (`metrics`, which stored histories keep).
      await push([stateUpdate('stats', { usage_to_metrics: { agent: metrics, condenser: { ...metrics, accumulated_cost: 9 } } })]);
      const conversation = async () =>
        (await t.request({ method: 'GET', url: `/api/v1/app-conversations?ids=${conversationId}` })).json()[0];
      expect((await conversation()).metrics).toMatchObject({
        accumulated_cost: 0.25,
        accumulated_token_usage: { prompt_tokens: 120, completion_tokens: 30 },
      });
      await push([stateUpdate('metrics', { ...metrics, accumulated_cost: 0.5 })]);
      expect((await conversation()).metrics).toMatchObject({ accumulated_cost: 0.5 });
      expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(0);
    });
  });

  interface Frame {
    id?: string;
    data: { kind: string; id?: string };
  }

  /** Reads the event stream of conversation `id` from a listening app, frame by frame. */
  async function openStream(base: string, id: string, headers: Record<string, string> = {}) {
    const controller = new AbortController();
    const response = await fetch(`${base}/api/v1/app-conversations/${id}/events/stream`, {
      headers: { 'x-session-api-key': TEST_SESSION_KEY, ...headers },
      signal: controller.signal,
    });
    const frames: Frame[] = [];
    const comments: string[] = [];
    let ended = false;
    if (response.ok && response.body) {
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const frame: Partial<Frame> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line);
              else if (line.startsWith('id: ')) frame.id = line.slice(4);
              else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
            }
            if (frame.data) frames.push(frame as Frame);
          }
        }
      })()
        .catch(() => undefined)
        .finally(() => {
          ended = true;
        });
    }
    return { response, frames, comments, ended: () => ended, close: () => controller.abort() };
  }

  async function listen(t: TestApp): Promise<string> {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }

  describe('the live event stream', () => {
    /** What a stream holds here before it is dropped: small, so that a history past it is quick to push. */
    const STREAM_BUFFER_BYTES = 2 * 1024 * 1024;
    /** A slow reader's pause after each chunk it reads. */
    const READER_PAUSE_MS = 5;

    /**
     * More than the kernel holds between the server and a reader that reads nothing: the sender's
     * send buffer (up to tcp_wmem's largest) and the reader's receive buffer (tcp_rmem's default;
     * it grows only as the reader reads), twice over.
     */
    function kernelBufferBytes(): number {
      const sizes = (name: string) => fs.readFileSync(`/proc/sys/net/ipv4/${name}`, 'utf8').trim().split(/\s+/).map(Number);
      return 2 * (sizes('tcp_wmem')[2]! + sizes('tcp_rmem')[1]!);
    }

    /**
     * Pushes a history of texts within what the contract takes, together more than a stream holds
     * and the kernel's buffers besides: a server that did not wait for the reader would overflow
     * the stream. How many events.
     */
    async function pushLargeHistory(push: (events: unknown[]) => Promise<unknown>): Promise<number> {
      const big = () => {
        const event = message('');
        event.llm_message.content = Array.from({ length: 3 }, () => ({ type: 'text', text: 'x'.repeat(60_000) }));
        return event;
      };
      const rounds = Math.ceil((STREAM_BUFFER_BYTES + kernelBufferBytes()) / (5 * 180_000));
      for (let round = 0; round < rounds; round++) await push(Array.from({ length: 5 }, big));
      return rounds * 5;
    }

    /** A client on a raw socket that asks for the conversation's stream, and reads nothing until resumed. */
    async function pausedReader(base: URL, conversationId: string): Promise<net.Socket> {
      const socket = net.connect(Number(base.port), base.hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.pause();
      socket.on('error', () => undefined);
      socket.write(
        `GET /api/v1/app-conversations/${conversationId}/events/stream HTTP/1.1\r\nHost: ${base.host}\r\nX-Session-API-Key: ${TEST_SESSION_KEY}\r\n\r\n`,
      );
      return socket;
    }

    it('drops a reader that stops reading once it holds too much, instead of buffering without end', async () => {
      const t = await app(database, STREAM_BUFFER_BYTES);
      const base = new URL(await listen(t));
      const { conversationId, push } = await setup(t);
      // A client that asks for the stream, then never reads a byte while the history grows.
      const socket = await pausedReader(base, conversationId);
      const pushed = await pushLargeHistory(push);
      // Read now: the stream ends after part of it; it is not held open with all of it.
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      const ended = new Promise((resolve) => socket.once('close', resolve));
      socket.resume();
      await ended;
      expect(received).toBeLessThan(pushed * 180_000);
      // The server goes on: what was pushed is stored.
      expect((await t.request({ method: 'GET', url: '/api/v1/events/count' })).json()).toBe(pushed);
    });

    it('replays a history larger than a stream may hold whole, as fast as the reader takes it', async () => {
      const t = await app(database, STREAM_BUFFER_BYTES);
      const base = new URL(await listen(t));
      const { conversationId, push } = await setup(t);
      const pushed = await pushLargeHistory(push);
      // A reader that takes its time, a pause after each chunk: slower than the server could
      // write, so the history waits for it rather than piling up in the server (past the stream's
      // limit, which would drop it).
      const socket = await pausedReader(base, conversationId);
      // Frames counted by their `id:` lines, one of which may be cut between two chunks.
      socket.setEncoding('utf8');
      const idLines = (text: string) => text.match(/(^|\n)id: /g)?.length ?? 0;
      let frames = 0;
      let carry = '';
      socket.on('data', (chunk: string) => {
        frames += idLines(carry + chunk) - idLines(carry);
        carry = (carry + chunk).slice(-8);
        socket.pause();
        setTimeout(() => socket.resume(), READER_PAUSE_MS);
      });
      let dropped = false;
      socket.once('close', () => (dropped = true));
      await new Promise((resolve) => setImmediate(resolve));
      socket.resume();
      await vi.waitFor(() => expect(frames).toBe(pushed), { timeout: 15_000 });
      expect(dropped).toBe(false);
      socket.destroy();
    });

    it('sends every stored event, then new ones as they come, and resumes after Last-Event-ID with no gap and no double', async () => {
      const t = await app(database);
      const base = await listen(t);
      const { conversationId, push } = await setup(t);
      const sent = [message('a'), message('b'), message('c')];
      await push(sent);

      const stream = await openStream(base, conversationId);
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(stream.response.headers.get('content-encoding')).toBeNull();
      await expect.poll(() => stream.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      sent.push(message('d'), message('e'));
      await push(sent.slice(3));
      await expect.poll(() => stream.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
      expect(stream.frames.map((f) => f.id)).toEqual(ids(sent));
      expect(stream.frames.map((f) => f.data.id)).toEqual(ids(sent));
      stream.close();

      // Gone meanwhile: f and g; the client had seen up to d.
      sent.push(message('f'), message('g'));
      await push(sent.slice(5));
      const resumed = await openStream(base, conversationId, { 'last-event-id': sent[3]!.id });
      await expect.poll(() => resumed.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      sent.push(message('h'));
      await push([sent[7], sent[6]]); // a repeat among the new: not sent twice
      await expect.poll(() => resumed.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
      expect(resumed.frames.map((f) => f.id)).toEqual(ids(sent.slice(4)));
      resumed.close();
    });

    it("relays state updates and a command's output without an id, never stored", async () => {
      const t = await app(database);
      const base = await listen(t);
      const { conversationId, push } = await setup(t);
      const stream = await openStream(base, conversationId);
      await push([stateUpdate('execution_status', 'running')]);
      await expect.poll(() => stream.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(stream.frames[0]).toEqual({
        data: { kind: 'ConversationState', conversation_id: conversationId, execution_status: 'running', metrics: null },
      });
      // A running command's output too (which comes on the agent server's socket, not in a webhook).
      const output = { kind: 'TerminalOutput', conversation_id: conversationId, action_id: 'a1', output: 'building…\n' };
      await t.services.events.receive(asSystem('collect events'), conversationId, [output]);
      await expect.poll(() => stream.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      expect(stream.frames[1]).toEqual({ data: output });
      stream.close();
      // A stream opened while the command runs starts with its output so far; once observed, with none.
      await t.services.events.receive(asSystem('collect events'), conversationId, [{ ...output, output: 'done\n' }]);
      const later = await openStream(base, conversationId);
      await expect.poll(() => later.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(later.frames[0]).toEqual({ data: { ...output, output: 'building…\ndone\n', whole: true } });
      later.close();
      await t.services.events.receive(asSystem('collect events'), conversationId, [
        {
          kind: 'ObservationEvent',
          id: randomUUID(),
          timestamp: new Date().toISOString(),
          source: 'environment',
          tool_name: 'terminal',
          tool_call_id: 'c1',
          action_id: 'a1',
          observation: { kind: 'TerminalObservation', content: [] },
        },
      ]);
      const after = await openStream(base, conversationId);
      await expect.poll(() => after.frames.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      expect(after.frames.map((frame) => (frame.data as { kind: string }).kind)).toEqual(['ObservationEvent']);
      after.close();
      expect((await t.request({ method: 'GET', url: `/api/v1/events/count?conversation_id__eq=${conversationId}` })).json()).toBe(1);
    });

    it('needs the session key, responds with 404 for an unknown conversation, and ends when the server stops', async () => {
      const t = await app(database);
      const base = await listen(t);
      const { conversationId } = await setup(t);
      const noKey = await fetch(`${base}/api/v1/app-conversations/${conversationId}/events/stream`);
      expect(noKey.status).toBe(401);
      const unknown = await openStream(base, randomUUID().replaceAll('-', ''));
      expect(unknown.response.status).toBe(404);

      const stream = await openStream(base, conversationId);
      expect(stream.response.status).toBe(200);
      await t.app.close();
      await expect.poll(() => stream.ended(), { timeout: 10_000 }).toBe(true);
    });
  });

  describe('a deleted conversation', () => {
    it('ends its live streams, and events that come after are not stored', async () => {
      const t = await app(database);
      const base = await listen(t);
      const { sandboxId, conversationId, key } = await setup(t);
      const stream = await openStream(base, conversationId);
      expect(stream.response.status).toBe(200);
      expect((await t.request({ method: 'DELETE', url: `/api/v1/app-conversations/${conversationId}` })).statusCode).toBe(200);
      await expect.poll(() => stream.ended(), { timeout: 10_000 }).toBe(true);
      expect((await postWebhook(t, sandboxId, conversationId, [message('too late')], key)).statusCode).toBe(404);
      expect(stream.frames).toEqual([]);
    });
  });
});

describe('actions on a conversation', () => {
  const send = (t: TestApp, id: string, action: string, body?: unknown) =>
    t.request({
      method: 'POST',
      url: `/api/v1/app-conversations/${id}/${action}`,
      ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
  const hello = { content: [{ type: 'text', text: 'hello' }] };

  it('respond with 404 for an unknown conversation', async () => {
    const t = await app();
    const id = randomUUID().replaceAll('-', '');
    expect((await send(t, id, 'send-message', hello)).statusCode).toBe(404);
    expect((await send(t, id, 'pause')).statusCode).toBe(404);
    expect((await send(t, id, 'run')).statusCode).toBe(404);
    expect((await send(t, id, 'confirm', { accept: true })).statusCode).toBe(404);
    expect((await send(t, 'not-an-id', 'run')).statusCode).toBe(404);
  });

  it('respond with 409 saying what to do when the sandbox is starting, paused or gone', async () => {
    const t = await app();
    const { sandboxId, conversationId } = await setup(t);
    const starting = await send(t, conversationId, 'send-message', hello);
    expect(starting.statusCode).toBe(409);
    expect(starting.json().detail).toMatch(/still starting/);

    expect((await t.request({ method: 'POST', url: `/api/v1/sandboxes/${sandboxId}/pause` })).statusCode).toBe(200);
    await statusBecomes(t, sandboxId, 'PAUSED');
    for (const [action, body] of [
      ['send-message', hello],
      ['pause', undefined],
      ['run', undefined],
      ['confirm', { accept: false, reason: 'no' }],
    ] as const) {
      const paused = await send(t, conversationId, action, body);
      expect(paused.statusCode, action).toBe(409);
      expect(paused.json().detail).toMatch(/resume its sandbox first/);
    }

    const orphan = await conversationIn(t, 'gone');
    const gone = await send(t, orphan, 'run');
    expect(gone.statusCode).toBe(409);
    expect(gone.json().detail).toMatch(/no longer exists/);
  });

  it('refuse bodies the contract refuses', async () => {
    const t = await app();
    const { conversationId } = await setup(t);
    expect((await send(t, conversationId, 'confirm', { reason: 'no accept' })).statusCode).toBe(422);
    expect((await send(t, conversationId, 'send-message', { content: [{ type: 'video' }] })).statusCode).toBe(422);
    // Images are data URLs of images (or https URLs), up to MAX_MESSAGE_IMAGE_BYTES in all.
    const image = (url: string) => ({
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image', image_urls: [url] },
      ],
    });
    const notImage = await send(t, conversationId, 'send-message', image('file:///etc/passwd'));
    expect(notImage.statusCode).toBe(422);
    expect(notImage.json().detail[0].loc).toEqual(['body', 'content', 1, 'image_urls', 0]);
    const tooLarge = await send(t, conversationId, 'send-message', image(`data:image/png;base64,${'A'.repeat(MAX_MESSAGE_IMAGE_BYTES)}`));
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().detail[0]).toMatchObject({
      loc: ['body', 'content', 1, 'image_urls', 0],
      msg: `Should have at most ${MAX_MESSAGE_IMAGE_BYTES} bytes`,
    });
    const half = `data:image/png;base64,${'A'.repeat(MAX_MESSAGE_IMAGE_BYTES / 2)}`;
    const twoHalves = await send(t, conversationId, 'send-message', { content: [{ type: 'image', image_urls: [half, half] }] });
    expect(twoHalves.statusCode).toBe(422);
    expect(twoHalves.json().detail[0].msg).toContain("A message's images may take 3 MiB at most");
    // One of 2 MiB passes the body's limits and the contract: what refuses it is the conversation's state.
    const large = await send(t, conversationId, 'send-message', image(`data:image/png;base64,${'A'.repeat(2 * 1024 * 1024)}`));
    expect(large.statusCode, large.body).toBe(409);
  });
});
