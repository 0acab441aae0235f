import { setTimeout as sleep } from 'node:timers/promises';

/*
 * Retries and polls with one kind of schedule, so each caller says only its waits and what ends
 * them. (p-retry would cover the retries, not the polls, nor a schedule given as a list of waits.)
 */

/** The wait after the `waits`-th failed attempt (counted from 1) before the next one; `undefined`: no next one. */
export type Backoff = (waits: number) => number | undefined;

/** The same wait every time, `maxWaits` times at most. */
export const constantBackoff =
  (ms: number, maxWaits = Infinity): Backoff =>
  (waits) =>
    waits <= maxWaits ? ms : undefined;

/** The waits listed, then none. */
export const listedBackoff =
  (waitsMs: readonly number[]): Backoff =>
  (waits) =>
    waitsMs[waits - 1];

/** `firstMs`, doubled after each failure up to `maxMs`, for ever. */
export const exponentialBackoff =
  (firstMs: number, maxMs: number) =>
  (waits: number): number =>
    Math.min(maxMs, firstMs * 2 ** (waits - 1));

export interface RetryOptions {
  /** Wait the first wait before the first attempt too (following again after something broke). */
  waitFirst?: boolean;
  /** Ends a wait at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
  /** Whether a wait keeps the process alive (not for work that can wait for the next start). */
  keepAlive?: boolean;
}

/**
 * Calls `attempt` (with its number, from 1) until it resolves, waiting as `backoff` says after
 * each rejection; rejects with the last rejection once `backoff` gives no more waits. The first
 * attempt starts within this call, unless `waitFirst`.
 */
export async function retry<T>(attempt: (attempt: number) => Promise<T>, backoff: Backoff, options: RetryOptions = {}): Promise<T> {
  let waits = 0;
  const waitNext = async (failure: unknown) => {
    const ms = backoff(++waits);
    if (ms === undefined) throw failure;
    await sleep(ms, undefined, { signal: options.signal, ref: options.keepAlive ?? true });
  };
  if (options.waitFirst) await waitNext(new Error('The schedule allows no attempt'));
  for (let number = 1; ; number++) {
    try {
      return await attempt(number);
    } catch (error) {
      await waitNext(error);
    }
  }
}

/**
 * The looks of a poll, one per turn of a `for await` loop whose body looks and returns (or breaks)
 * once what it waits for holds. The first comes at once, each next after the wait `backoff`
 * gives; they end when it gives none, or when `timeoutMs` has passed (checked before each).
 */
export async function* polls(backoff: Backoff, { timeoutMs = Infinity } = {}): AsyncGenerator<void> {
  const deadline = Date.now() + timeoutMs;
  for (let waits = 0; Date.now() < deadline;) {
    yield;
    const ms = backoff(++waits);
    if (ms === undefined) return;
    await sleep(ms);
  }
}
