import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createLogger } from '../logger';
import { freshPostgresDatabase, onlyPostgres } from '../testing/databases';
import { EventNotices, type LiveNotice, livePayloads } from './event-notices';

/**
 * Counts the connections made from now on. With the reconnect wait a fake timer, running every
 * timer shows whether one would still be made: nothing is left to wait out.
 */
function countConnects() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const connects = vi.spyOn(pg.Client.prototype, 'connect');
  onTestFinished(() => {
    connects.mockRestore();
    vi.useRealTimers();
  });
  return connects;
}

const delta = (conversationId: string, text: string): LiveNotice => ({
  conversationId,
  frame: { kind: 'StreamingDelta', conversation_id: conversationId, llm_response_id: 'r1', delta: text },
});

/** A TCP proxy to the database whose connections can be made to hang: nothing goes through them any more. */
async function hangingProxy(url: string): Promise<{ url: string; hang: () => void; close: () => Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => [client, upstream].forEach((s) => s.destroy()));
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);
  return {
    url: proxied.toString(),
    hang: () => {
      for (const socket of sockets) {
        socket.unpipe();
        socket.pause();
      }
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.each(onlyPostgres())('event notices', () => {
  let url: string;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  beforeEach(async () => {
    ({ url, drop } = await freshPostgresDatabase());
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterEach(async () => {
    await admin.end();
    await drop();
  });

  const listeners = async (): Promise<number[]> => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = 'agent-console notices'`,
    );
    return rows.map((row) => row.pid);
  };

  it('closed while it connects, it leaves no connection open', async () => {
    const connects = countConnects();
    const notices = new EventNotices(url, createLogger(false));
    const listening = notices.listen(
      () => undefined,
      () => undefined,
    );
    await notices.close();
    await listening.catch(() => undefined);
    await expect.poll(listeners, { timeout: 10_000 }).toEqual([]);
    await vi.runAllTimersAsync();
    expect(connects).toHaveBeenCalledTimes(1);
    expect(await listeners()).toEqual([]);
  });

  it('closed while it waits to connect again, it does not', async () => {
    const connects = countConnects();
    const lines: string[] = [];
    const notices = new EventNotices(url, createLogger('warn', { write: (line: string) => void lines.push(line) }));
    await notices.listen(
      () => undefined,
      () => undefined,
    );
    const [pid] = await listeners();
    expect(pid).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // Its connection ended: it waits to make it again.
    await expect.poll(() => lines.some((line) => line.includes('receives notices of new events failed')), { timeout: 10_000 }).toBe(true);
    await sleep(0);
    await notices.close();
    await vi.runAllTimersAsync();
    expect(connects).toHaveBeenCalledTimes(1);
    expect(await listeners()).toEqual([]);
  });

  it("an event waits for its own conversation's frames to go out, not for another's that keep coming", async () => {
    const received: LiveNotice[] = [];
    const receiver = new EventNotices(url, createLogger(false));
    const sender = new EventNotices(url, createLogger(false));
    const noop = () => undefined;
    await receiver.listen(noop, noop, (notices) => received.push(...notices));
    await sender.listen(noop, noop);
    let streaming = true;
    const stream = (async () => {
      for (let i = 0; streaming; i++) {
        sender.announce(delta('a', `word ${i} `));
        await sleep(1);
      }
    })();
    try {
      await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(20);
      expect(sender.sent('b')).toBeUndefined();
      sender.announce(delta('b', 'only one'));
      const waiting = sender.sent('b');
      expect(waiting).toBeDefined();
      await waiting;
      // Once sent, it is received (NOTIFY goes out in order), and before the event stored next would be.
      await expect.poll(() => received.some((notice) => notice.conversationId === 'b'), { timeout: 10_000 }).toBe(true);
    } finally {
      streaming = false;
      await stream;
      await sender.close();
      await receiver.close();
    }
  });

  it('a connection that hangs holds up neither storing events nor closing, and what waits for it stays bounded', async () => {
    const proxy = await hangingProxy(url);
    const lines: string[] = [];
    const notices = new EventNotices(proxy.url, createLogger('warn', { write: (line: string) => void lines.push(line) }));
    try {
      await notices.listen(
        () => undefined,
        () => undefined,
      );
      proxy.hang();
      for (let i = 0; i < 5_000; i++) notices.announce(delta('a', `word ${i} `));
      await notices.sent('a');
      await expect.poll(() => lines.some((line) => line.includes('some are dropped')), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => lines.some((line) => line.includes('could not relay')), { timeout: 10_000 }).toBe(true);
      await notices.close();
    } finally {
      await proxy.close();
    }
  });
});

describe('live payloads', () => {
  const state = (modelName: string) => ({
    conversationId: 'c1',
    frame: {
      kind: 'ConversationState' as const,
      conversation_id: 'c1',
      execution_status: 'running' as const,
      metrics: { model_name: modelName, accumulated_cost: 0, max_budget_per_task: null, accumulated_token_usage: null, cost_known: true },
    },
  });
  const streamed = (text: string) => ({
    conversationId: 'c1',
    frame: { kind: 'StreamingDelta' as const, conversation_id: 'c1', llm_response_id: 'r1', delta: text },
  });
  const read = (payloads: string[]) => payloads.flatMap((payload) => (JSON.parse(payload) as { notices: unknown[] }).notices);
  /** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
  const fits = (payload: string) => Buffer.byteLength(payload) < 8000;

  it('go several to a payload, in order', () => {
    const notices = [state('a'), ...Array.from({ length: 300 }, (_, i) => streamed(`word ${i} `)), state('b')];
    const { payloads, dropped } = livePayloads('me', notices);
    expect(dropped).toEqual([]);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(10);
    expect(payloads.every(fits)).toBe(true);
    expect(read(payloads)).toEqual(notices);
  });

  it('cut a delta too long for one into deltas of the same reply; drop what cannot be cut', () => {
    // Quotes, line breaks and control characters take more bytes escaped; é two, 😀 four.
    const text = 'é😀"\\\n\u0001 plain '.repeat(2_000);
    const { payloads, dropped } = livePayloads('me', [streamed('before '), streamed(text), state('x'.repeat(9_000)), streamed(' after')]);
    expect(dropped).toEqual([state('x'.repeat(9_000))]);
    expect(payloads.length).toBeGreaterThan(3);
    expect(payloads.every(fits)).toBe(true);
    const deltas = read(payloads) as ReturnType<typeof streamed>[];
    expect(deltas.every((notice) => notice.frame.llm_response_id === 'r1')).toBe(true);
    expect(deltas.map((notice) => notice.frame.delta).join('')).toBe(`before ${text} after`);
    // No piece ends or starts inside a character: no lone surrogate (a regex with u matches only those).
    expect(deltas.some((notice) => /[\uD800-\uDFFF]/u.test(notice.frame.delta))).toBe(false);
  });

  it("cut a command's output too long for one into pieces of the same action's output", () => {
    const output = (text: string) => ({
      conversationId: 'c1',
      frame: { kind: 'TerminalOutput' as const, conversation_id: 'c1', action_id: 'a1', output: text },
    });
    const text = 'line of output é\n'.repeat(2_000);
    const { payloads, dropped } = livePayloads('me', [output(text)]);
    expect(dropped).toEqual([]);
    expect(payloads.length).toBeGreaterThan(3);
    expect(payloads.every(fits)).toBe(true);
    const pieces = read(payloads) as ReturnType<typeof output>[];
    expect(pieces.every((notice) => notice.frame.kind === 'TerminalOutput' && notice.frame.action_id === 'a1')).toBe(true);
    expect(pieces.map((notice) => notice.frame.output).join('')).toBe(text);
  });
});
