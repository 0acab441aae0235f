import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { freshPostgresDatabase } from '../testing/databases';
import { type Db, openPostgres } from './database';
import { EventNotices, livePayloads } from './event-notices';

/** Longer than the wait before a dropped connection is made again. */
const PAST_RECONNECT_MS = 2_000;

describe('event notices', () => {
  let url: string;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  let db: Db;
  beforeEach(async () => {
    ({ url, drop } = await freshPostgresDatabase());
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    db = openPostgres(url);
  });
  afterEach(async () => {
    await admin.end();
    await db.destroy();
    await drop();
  });

  const listeners = async (): Promise<number[]> => {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    return rows.map((row) => row.pid);
  };

  it('closed while it connects, it leaves no connection open', async () => {
    const notices = new EventNotices(url, db, createLogger(false));
    const listening = notices.listen(
      () => undefined,
      () => undefined,
    );
    await notices.close();
    await listening.catch(() => undefined);
    await expect.poll(listeners, { timeout: 10_000 }).toEqual([]);
    await sleep(PAST_RECONNECT_MS);
    expect(await listeners()).toEqual([]);
  });

  it('closed while it waits to connect again, it does not', async () => {
    const lines: string[] = [];
    const notices = new EventNotices(url, db, createLogger('warn', { write: (line: string) => void lines.push(line) }));
    await notices.listen(
      () => undefined,
      () => undefined,
    );
    const [pid] = await listeners();
    expect(pid).toBeDefined();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // Its connection ended: it waits to make it again.
    await expect.poll(() => lines.some((line) => line.includes('hears of new events failed')), { timeout: 10_000 }).toBe(true);
    await sleep(0);
    await notices.close();
    await sleep(PAST_RECONNECT_MS);
    expect(await listeners()).toEqual([]);
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
  const delta = (text: string) => ({
    conversationId: 'c1',
    frame: { kind: 'StreamingDelta' as const, conversation_id: 'c1', llm_response_id: 'r1', delta: text },
  });
  const read = (payloads: string[]) => payloads.flatMap((payload) => (JSON.parse(payload) as { notices: unknown[] }).notices);
  /** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
  const fits = (payload: string) => Buffer.byteLength(payload) < 8000;

  it('go several to a payload, in order', () => {
    const notices = [state('a'), ...Array.from({ length: 300 }, (_, i) => delta(`word ${i} `)), state('b')];
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
    const { payloads, dropped } = livePayloads('me', [delta('before '), delta(text), state('x'.repeat(9_000)), delta(' after')]);
    expect(dropped).toEqual([state('x'.repeat(9_000))]);
    expect(payloads.length).toBeGreaterThan(3);
    expect(payloads.every(fits)).toBe(true);
    const deltas = read(payloads) as ReturnType<typeof delta>[];
    expect(deltas.every((notice) => notice.frame.llm_response_id === 'r1')).toBe(true);
    expect(deltas.map((notice) => notice.frame.delta).join('')).toBe(`before ${text} after`);
  });
});
