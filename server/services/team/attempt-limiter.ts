/** A limit on attempts under one key: at most `limit` failures within `windowMs`. */
export interface AttemptLimit {
  key: string;
  limit: number;
}

/** An attempt taken: counted as a failure unless it is forgiven. */
export interface Attempt {
  limits: AttemptLimit[];
  at: number;
}

/**
 * Counts attempts per key in a sliding window. An attempt is counted when it is taken, before the
 * work it guards (hashing a password), so attempts made at once cannot all slip under the limit;
 * one that succeeds, or that was never tried, is forgiven afterwards. Kept per instance, in memory: an attacker spread over
 * several instances gets a few more tries, never unlimited ones.
 */
/** Past this many keys, those with no failure left in the window are swept out at the next attempt. */
const SWEEP_ABOVE = 10_000;

export class AttemptLimiter {
  readonly #failures = new Map<string, number[]>();

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  #recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const recent = (this.#failures.get(key) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.#failures.delete(key);
    else this.#failures.set(key, recent);
    return recent;
  }

  /** Takes an attempt under each limit; `undefined` (nothing counted) when any of them is used up. */
  take(limits: AttemptLimit[]): Attempt | undefined {
    // Keys are what attempts name (any email): those whose failures have aged out do not stay.
    if (this.#failures.size > SWEEP_ABOVE) for (const key of [...this.#failures.keys()]) this.#recent(key);
    if (limits.some(({ key, limit }) => this.#recent(key).length >= limit)) return undefined;
    const at = this.now();
    for (const { key } of limits) this.#failures.set(key, [...this.#recent(key), at]);
    return { limits, at };
  }

  /**
   * The attempt is no failure: it succeeded (and then so are the earlier ones under `forgiven`, say
   * its account from its address), or it was not tried (the server was too busy to check it).
   */
  forgive(attempt: Attempt, forgiven: string[] = []): void {
    for (const { key } of attempt.limits) {
      const recent = this.#recent(key);
      const index = recent.indexOf(attempt.at);
      if (index >= 0) recent.splice(index, 1);
      if (recent.length === 0) this.#failures.delete(key);
    }
    for (const key of forgiven) this.#failures.delete(key);
  }
}
