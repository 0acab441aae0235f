import { describe, expect, it, vi } from 'vitest';
import { type Backoff, constantBackoff, exponentialBackoff, listedBackoff, polls, retry, type RetryOptions } from './retry';

const first = (backoff: Backoff, count: number) => Array.from({ length: count }, (_, i) => backoff(i + 1));

/** The attempts `retry` makes of one that fails until attempt `succeedsAt`; and how it ended. */
async function retried(backoff: Backoff, options: RetryOptions = {}, succeedsAt = Infinity) {
  const made: number[] = [];
  const result = await retry(
    async (attempt) => {
      made.push(attempt);
      if (attempt < succeedsAt) throw new Error(`failure ${attempt}`);
      return 'done';
    },
    backoff,
    options,
  ).catch((error: Error) => error.message);
  return { made, result };
}

describe('the schedules', () => {
  it('wait the same, the listed, or doubling waits', () => {
    expect(first(constantBackoff(7, 2), 3)).toEqual([7, 7, undefined]);
    expect(first(constantBackoff(7), 3)).toEqual([7, 7, 7]);
    expect(first(listedBackoff([5, 60]), 3)).toEqual([5, 60, undefined]);
    expect(first(exponentialBackoff(500, 3000), 5)).toEqual([500, 1000, 2000, 3000, 3000]);
  });
});

describe('retry', () => {
  it('makes one attempt more than the waits its schedule gives, then rejects with the last failure', async () => {
    expect(await retried(constantBackoff(0, 2))).toEqual({ made: [1, 2, 3], result: 'failure 3' });
    expect(await retried(listedBackoff([0, 0, 0]))).toEqual({ made: [1, 2, 3, 4], result: 'failure 4' });
  });

  it('stops at the first success, and starts the first attempt within the call', async () => {
    const backoff = vi.fn(constantBackoff(0));
    const attempt = vi.fn(async () => 'done');
    const done = retry(attempt, backoff);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(await done).toBe('done');
    expect(await retried(backoff, {}, 3)).toEqual({ made: [1, 2, 3], result: 'done' });
    expect(backoff.mock.calls).toEqual([[1], [2]]);
  });

  it('waits before the first attempt too with `waitFirst`', async () => {
    const backoff = vi.fn(constantBackoff(0, 2));
    expect(await retried(backoff, { waitFirst: true })).toEqual({ made: [1, 2], result: 'failure 2' });
    expect(backoff.mock.calls).toEqual([[1], [2], [3]]);
  });

  it('rejects when its signal ends a wait', async () => {
    const closing = new AbortController();
    const attempt = vi.fn(async () => {
      closing.abort();
      throw new Error('failure');
    });
    await expect(retry(attempt, constantBackoff(60_000), { signal: closing.signal, keepAlive: false })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});

describe('polls', () => {
  /** The looks a poll makes until `holdsAt`. */
  async function looks(backoff: Backoff, options: { timeoutMs?: number } = {}, holdsAt = Infinity): Promise<number> {
    let count = 0;
    for await (const _ of polls(backoff, options)) if (++count === holdsAt) break;
    return count;
  }

  it('looks once more than the waits its schedule gives, and stops once what it waits for holds', async () => {
    expect(await looks(constantBackoff(0, 2))).toBe(3);
    const backoff = vi.fn(constantBackoff(0));
    expect(await looks(backoff, {}, 2)).toBe(2);
    expect(backoff).toHaveBeenCalledTimes(1);
  });

  it('looks no more once its time is up', async () => {
    expect(await looks(constantBackoff(0), { timeoutMs: 0 })).toBe(0);
  });
});
