import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { freshPostgresDatabase } from '../testing/databases';
import { EventNotices } from './event-notices';

/** Longer than the wait before a dropped connection is made again. */
const PAST_RECONNECT_MS = 2_000;

describe('event notices', () => {
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
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    return rows.map((row) => row.pid);
  };

  it('closed while it connects, it leaves no connection open', async () => {
    const notices = new EventNotices(url, createLogger(false));
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
    const notices = new EventNotices(url, createLogger('warn', { write: (line: string) => void lines.push(line) }));
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
